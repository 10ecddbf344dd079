// Writes the SYNTHETIC clearing examples: examples/clearing/<case>/{journals/, sidecar.sqlite, routes.json,
// qualification.json, agent-config.json?, app-allowlist.json?, expected.json}. Journals are pi v3 session files
// built from a seeded PRNG (deterministic: same bytes on every run); sidecars are written with sql.js; the
// qualification record comes from the real offline `ctxray qualify` run (installed pi-ai builders, nothing sent).
// Every text in these files is generated filler labelled synthetic; no real session, path or identity is used.
//
//   npx tsx scripts/generate-clearing-examples.ts            (writes examples/clearing/)
//   npx tsx scripts/generate-clearing-examples.ts <out-dir>  (writes elsewhere, e.g. for tests)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import initSqlJs from 'sql.js';
import { buildSidecar, type SidecarContent, type SidecarRow } from '../src/core/clearing/sidecar-writer.ts';
import { sha256Hex } from '../src/core/clearing/sidecar.ts';
import type { SupportedApi, Verdict, ApiCode } from '../src/core/clearing/codes.ts';
import { runQualification } from '../src/cli/qualify/run.ts';
import type { QualificationRecord } from '../src/core/clearing/qualification-record.ts';

import { prng } from './examples/synthetic-text.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const WORDS = (
  'synthetic alpha beta gamma delta module parser buffer cache vector token render layout widget ' +
  'config handler stream worker queue record index schema table column filter reducer signal'
).split(' ');

function hex(random: () => number, digits: number): string {
  let out = '';
  for (let i = 0; i < digits; i++) out += Math.floor(random() * 16).toString(16);
  return out;
}

/** Filler text of exactly `chars` UTF-16 units, made of synthetic words and line breaks. */
function filler(random: () => number, chars: number, label: string): string {
  const head = `[synthetic ${label}] `;
  const parts: string[] = [head];
  let length = head.length;
  while (length < chars) {
    const word = WORDS[Math.floor(random() * WORDS.length)]!;
    const piece = random() < 0.08 ? `${word}\n` : `${word} `;
    parts.push(piece);
    length += piece.length;
  }
  return parts.join('').slice(0, chars);
}

export interface ConversationPlan {
  /** Number of prompt runs. */
  runs: number;
  /** Heuristic tokens of the first prompt (a synthetic brief pasted into the conversation). */
  briefTokens: number;
  /** Heuristic tokens of each read result. */
  readTokens: number;
  /** Small bash calls per run (effectful: excluded from both bounds). */
  bashPerRun: number;
  /** Extra tool-loop requests (one bash call each) in runs from `loopsFromRun` on. */
  extraLoops: number;
  loopsFromRun: number;
  /** Gap before each prompt, ms (cold when above lifetime + margin). */
  gapMs: () => number;
  api: SupportedApi;
  /** Read tool name; `kb_lookup` carries a captured MCP origin; `web_fetch` returns a JSON web envelope. */
  readTool: 'read' | 'kb_lookup' | 'web_fetch';
  /** Share of assistant messages written without usage (fallback pricing). */
  missingUsageShare: number;
}

export interface BuiltConversation {
  sessionId: string;
  text: string;
  /** Identity and text of each read result, for the sidecar. */
  reads: { runId: string; callId: string; text: string; run: number }[];
  lastEntryId: string;
  lastTime: number;
}

export const SYNTHETIC_KB_IDENTITY_DIGEST = sha256Hex('synthetic-kb-server-identity');

/** Builds one pi v3 session file whose context sizes follow the plan (usage mirrors the heuristic sizes). */
export function buildConversation(seed: number, startMs: number, plan: ConversationPlan): BuiltConversation {
  const random = prng(seed);
  const sessionId = `${hex(random, 8)}-${hex(random, 4)}-4${hex(random, 3)}-a${hex(random, 3)}-${hex(random, 12)}`;
  const lines: string[] = [];
  let parentId: string | null = null;
  let lastEntryId = '';
  let clock = startMs;
  let context = 0; // heuristic tokens of everything sent so far
  let previousPrefix = 0;
  const reads: BuiltConversation['reads'] = [];
  const usedIds = new Set<string>();
  const newId = () => {
    let id = hex(random, 8);
    while (usedIds.has(id)) id = hex(random, 8);
    usedIds.add(id);
    return id;
  };
  const iso = (ms: number) => new Date(ms).toISOString();
  lines.push(JSON.stringify({ type: 'session', version: 3, id: sessionId, timestamp: iso(clock), cwd: '/synthetic/project' }));
  const append = (message: Record<string, unknown>, tokens: number): string => {
    const id = newId();
    lines.push(JSON.stringify({ type: 'message', id, parentId, timestamp: iso(clock), message: { ...message, timestamp: clock } }));
    parentId = id;
    lastEntryId = id;
    context += tokens;
    return id;
  };
  const tokensOf = (chars: number) => Math.ceil(chars / 4);
  const assistant = (content: Record<string, unknown>[], stopReason: 'toolUse' | 'stop') => {
    clock += 2_000 + Math.floor(random() * 3_000);
    let chars = 0;
    for (const block of content) {
      if (block.type === 'text') chars += (block.text as string).length;
      if (block.type === 'toolCall') chars += (block.name as string).length + JSON.stringify(block.arguments).length;
    }
    const output = tokensOf(chars);
    const prefix = context;
    const written = Math.max(0, prefix - previousPrefix - 4);
    const usage =
      random() < plan.missingUsageShare
        ? undefined
        : { input: Math.min(4, prefix), output, cacheRead: previousPrefix, cacheWrite: written, totalTokens: prefix + output };
    previousPrefix = prefix;
    const model = plan.api === 'anthropic-messages' ? 'synthetic-claude' : 'synthetic-gpt';
    append({ role: 'assistant', content, api: plan.api, provider: 'synthetic', model, usage, stopReason }, output);
  };
  const toolResult = (callId: string, toolName: string, text: string) => {
    clock += 300 + Math.floor(random() * 700);
    append({ role: 'toolResult', toolCallId: callId, toolName, content: [{ type: 'text', text }], isError: false }, tokensOf(text.length));
  };
  const call = (name: string, args: Record<string, unknown>) => {
    const block: Record<string, unknown> = { type: 'toolCall', id: `toolu_${hex(random, 20)}`, name, arguments: args };
    if (name === 'kb_lookup') {
      block.payload = {
        origin: {
          server: 'synthetic-kb',
          tool: 'kb_lookup',
          serverIdentityDigest: SYNTHETIC_KB_IDENTITY_DIGEST,
          annotations: { readOnlyHint: true, destructiveHint: false },
        },
      };
    }
    return block;
  };

  for (let run = 1; run <= plan.runs; run++) {
    clock += run === 1 ? 1_000 : plan.gapMs();
    const prompt =
      run === 1
        ? filler(random, plan.briefTokens * 4, 'project brief')
        : `[synthetic prompt ${run}] continue with the next step of the synthetic task`;
    const runId = append({ role: 'user', content: [{ type: 'text', text: prompt }] }, tokensOf(prompt.length));
    const calls = [call(plan.readTool, { path: `/synthetic/file-${run}.txt` })];
    for (let b = 0; b < plan.bashPerRun; b++) calls.push(call('bash', { command: `echo synthetic-${run}-${b}` }));
    assistant([{ type: 'text', text: `[synthetic] step ${run}: reading` }, ...calls], 'toolUse');
    for (const block of calls) {
      const id = block.id as string;
      if (block.name === 'bash') toolResult(id, 'bash', `synthetic-${run} ok\n`.repeat(8));
      else {
        const body = filler(random, plan.readTokens * 4, `file ${run}`);
        const text =
          block.name === 'web_fetch'
            ? JSON.stringify({ synthetic: true, status: 200, url: `https://synthetic.invalid/page-${run}`, body })
            : body;
        reads.push({ runId, callId: id, text, run });
        toolResult(id, block.name as string, text);
      }
    }
    const loops = run >= plan.loopsFromRun ? plan.extraLoops : 0;
    for (let loop = 0; loop < loops; loop++) {
      const bash = call('bash', { command: `echo synthetic-loop-${run}-${loop}` });
      assistant([bash], 'toolUse');
      toolResult(bash.id as string, 'bash', `synthetic loop ${loop} ok\n`);
    }
    assistant([{ type: 'text', text: `[synthetic] step ${run} done.` }], 'stop');
  }
  return { sessionId, text: `${lines.join('\n')}\n`, reads, lastEntryId, lastTime: clock };
}

export const EXAMPLE_ROUTE = {
  triggerTokens: 64_000,
  drainTokens: 12_800,
  summaryInputTokens: 12_000,
  summaryOutputTokens: 1_500,
  cacheLifetimeMs: 300_000,
  cacheMarginMs: 30_000,
  prices: { input: 3, cacheRead: 0.3, cacheWrite: 3.75, output: 15 },
  quota: { input: 1, cacheRead: 0.1, cacheWrite: 1.25, output: 5 },
  quotaBudget: 50_000_000,
};

export interface ExampleCase {
  name: string;
  description: string;
  journals: { file: string; text: string }[];
  sidecar: SidecarContent;
  routes: unknown;
  qualification: unknown;
  agentConfig?: unknown;
  appAllowlist?: unknown;
  expected: { verdict: Verdict; apis: { api: SupportedApi; verdict: Verdict; codes: ApiCode[] }[] };
}

const COLD = (random: () => number) => () => 360_000 + Math.floor(random() * 600_000);
const WARM = (random: () => number) => () => 20_000 + Math.floor(random() * 60_000);

function basePlan(random: () => number, overrides: Partial<ConversationPlan> = {}): ConversationPlan {
  return {
    runs: 10,
    briefTokens: 13_000,
    readTokens: 5_300,
    bashPerRun: 4,
    extraLoops: 4,
    loopsFromRun: 8,
    gapMs: COLD(random),
    api: 'anthropic-messages',
    readTool: 'read',
    missingUsageShare: 0,
    ...overrides,
  };
}

const PERIOD_CONFIG = {
  builtins: ['read', 'bash'],
  mcpTools: [{ exposedName: 'kb_lookup' }, { exposedName: 'web_fetch' }],
};
const KB_ALLOWLIST = [
  { server: 'synthetic-kb', tool: 'kb_lookup', serverIdentityDigest: SYNTHETIC_KB_IDENTITY_DIGEST, readOnly: true },
];

function exactRows(conversations: BuiltConversation[]): SidecarRow[] {
  return conversations.flatMap((conversation) =>
    conversation.reads.map((read) => ({
      sessionId: conversation.sessionId,
      runId: read.runId,
      callId: read.callId,
      state: 'finalized' as const,
      text: read.text,
    })),
  );
}

function checkpointsOf(conversations: BuiltConversation[]): SidecarContent['checkpoints'] {
  return conversations.map((conversation) => ({
    sessionId: conversation.sessionId,
    seq: 1,
    throughEntryId: conversation.lastEntryId,
    atMs: conversation.lastTime,
  }));
}

function journalFiles(conversations: BuiltConversation[], prefix = 'session'): { file: string; text: string }[] {
  return conversations.map((conversation, index) => ({ file: `${prefix}-${index + 1}.jsonl`, text: conversation.text }));
}

const DAY = 86_400_000;
const START = Date.UTC(2026, 0, 5, 9, 0, 0);

function conversations(seed: number, count: number, plan: (random: () => number, index: number) => ConversationPlan) {
  const random = prng(seed);
  return Array.from({ length: count }, (_, index) =>
    buildConversation(seed * 100 + index, START + index * DAY, plan(random, index)),
  );
}

/** The cases; `qualification` is the real offline record of the installed pi-ai. */
export function exampleCases(qualification: QualificationRecord): ExampleCase[] {
  const routes = [{ api: 'anthropic-messages', ...EXAMPLE_ROUTE }];
  const cases: ExampleCase[] = [];

  // BUILD: cold pressured boundaries in four conversations, proven read-only reads (period attestation and one
  // allowlisted MCP tool with captured origin), exact finalized retention, current qualification.
  const build = conversations(11, 4, (random, index) => basePlan(random, { readTool: index === 3 ? 'kb_lookup' : 'read' }));
  cases.push({
    name: 'build',
    description: 'every criterion met: BUILD',
    journals: journalFiles(build),
    sidecar: { rows: exactRows(build), checkpoints: checkpointsOf(build) },
    routes,
    qualification,
    agentConfig: PERIOD_CONFIG,
    appAllowlist: KB_ALLOWLIST,
    expected: { verdict: 'BUILD', apis: [{ api: 'anthropic-messages', verdict: 'BUILD', codes: [] }] },
  });

  // STOP: the same evidence, but retention is redaction-dominated (matched, so coverage holds, yet ineligible)
  // and one conversation keeps all results by policy: no lower-bound opportunity remains.
  const stop = conversations(12, 4, (random) => basePlan(random));
  cases.push({
    name: 'stop-redaction-dominated',
    description: 'sufficient evidence, no qualifying opportunity (redacted retention, keep_all policy): STOP',
    journals: journalFiles(stop),
    sidecar: {
      rows: exactRows(stop).map((row, index) =>
        index % 10 === 9 ? row : { ...row, redacted: index % 2 === 0 ? ('credential' as const) : ('policy' as const) },
      ),
      policies: [{ sessionId: stop[0]!.sessionId, policy: 'keep_all' }],
      checkpoints: checkpointsOf(stop),
    },
    routes,
    qualification,
    agentConfig: PERIOD_CONFIG,
    expected: {
      verdict: 'STOP',
      apis: [{ api: 'anthropic-messages', verdict: 'STOP', codes: ['ADMISSION_LOW', 'PRESSURE_REDUCTION_LOW'] }],
    },
  });

  // DEFER: no attestation, so no read result has a proven identity. One conversation fetches JSON web envelopes
  // whose retained rows were redacted by the credential guard (counted as structured-scan losses).
  const unproven = conversations(13, 4, (random, index) => basePlan(random, { readTool: index === 1 ? 'web_fetch' : 'read' }));
  const webSession = unproven[1]!.sessionId;
  cases.push({
    name: 'defer-identity-unproven',
    description: 'no --agent-config: plain-text results exist but none is proven read-only',
    journals: journalFiles(unproven),
    sidecar: {
      rows: exactRows(unproven).map((row) => (row.sessionId === webSession ? { ...row, redacted: 'credential' as const } : row)),
    },
    routes,
    qualification,
    expected: {
      verdict: 'DEFER',
      apis: [{ api: 'anthropic-messages', verdict: 'DEFER', codes: ['IDENTITY_UNPROVEN', 'ADMISSION_LOW', 'PRESSURE_REDUCTION_LOW'] }],
    },
  });

  // DEFER: rows exist but none matches: tombstoned, committed-only, or failing an integrity check.
  const unmatched = conversations(14, 4, (random) => basePlan(random));
  const unmatchedRows = exactRows(unmatched).map((row, index): SidecarRow => {
    const variant = index % 5;
    if (variant === 0) return { ...row, state: 'tombstoned' };
    if (variant === 1) return { ...row, state: 'committed' };
    if (variant === 2) return { ...row, corrupt: 'digest' };
    if (variant === 3) return { ...row, corrupt: 'bytes' };
    return { ...row, corrupt: 'text' };
  });
  cases.push({
    name: 'defer-retention-unmatched',
    description: 'proven results, but no finalized, intact sidecar row matches any of them',
    journals: journalFiles(unmatched),
    sidecar: { rows: unmatchedRows },
    routes,
    qualification,
    agentConfig: PERIOD_CONFIG,
    expected: {
      verdict: 'DEFER',
      apis: [{ api: 'anthropic-messages', verdict: 'DEFER', codes: ['RETENTION_UNMATCHED', 'ADMISSION_LOW', 'PRESSURE_REDUCTION_LOW'] }],
    },
  });

  // DEFER: only runs 1–4 were captured (capture enabled late); some captured rows are truncated.
  const coverage = conversations(15, 4, (random) => basePlan(random));
  const coverageRows = coverage.flatMap((conversation) =>
    conversation.reads
      .filter((read) => read.run <= 4)
      .map((read) => ({
        sessionId: conversation.sessionId,
        runId: read.runId,
        callId: read.callId,
        state: 'finalized' as const,
        text: read.text,
        ...(read.run === 4 ? { truncateTo: 2_000 } : {}),
      })),
  );
  cases.push({
    name: 'defer-retention-coverage-low',
    description: 'only 40% of proven results are retained (truncated rows count as matched): coverage below 50%',
    journals: journalFiles(coverage),
    sidecar: { rows: coverageRows },
    routes,
    qualification,
    agentConfig: PERIOD_CONFIG,
    expected: {
      verdict: 'DEFER',
      apis: [{ api: 'anthropic-messages', verdict: 'DEFER', codes: ['RETENTION_COVERAGE_LOW', 'ADMISSION_LOW'] }],
    },
  });

  // DEFER: every prompt follows within the cache lifetime, so no pressured boundary is cold. Proof is per run.
  const warm = conversations(16, 4, (random) => basePlan(random, { gapMs: WARM(random) }));
  const perRun = warm.flatMap((conversation) =>
    [...new Set(conversation.reads.map((read) => read.runId))].map((runId) => ({
      runId,
      builtins: ['read', 'bash'],
      mcpTools: 'none',
    })),
  );
  cases.push({
    name: 'defer-cold-evidence',
    description: 'prompts arrive within cache lifetime + margin: no cold pressured boundaries (per-run proofs)',
    journals: journalFiles(warm),
    sidecar: { rows: exactRows(warm) },
    routes,
    qualification,
    agentConfig: perRun,
    expected: {
      verdict: 'DEFER',
      apis: [
        {
          api: 'anthropic-messages',
          verdict: 'DEFER',
          codes: ['COLD_EVIDENCE_INSUFFICIENT', 'ADMISSION_LOW', 'PRESSURE_REDUCTION_LOW'],
        },
      ],
    },
  });

  // DEFER: the BUILD evidence with a stale qualification record (its source digest no longer current).
  cases.push({
    name: 'defer-payload-unqualified',
    description: 'BUILD evidence, but the qualification record is stale (synthetic: digest altered)',
    journals: journalFiles(build),
    sidecar: { rows: exactRows(build), checkpoints: checkpointsOf(build) },
    routes,
    qualification: { ...qualification, sourceDigest: sha256Hex('synthetic stale qualification sources') },
    agentConfig: PERIOD_CONFIG,
    appAllowlist: KB_ALLOWLIST,
    expected: { verdict: 'DEFER', apis: [{ api: 'anthropic-messages', verdict: 'DEFER', codes: ['PAYLOAD_UNQUALIFIED'] }] },
  });

  // DEFER: BUILD-shaped evidence on openai-codex-responses: always wire-unproven.
  const codex = conversations(17, 4, (random) => basePlan(random, { api: 'openai-codex-responses' }));
  cases.push({
    name: 'defer-codex-wire-unproven',
    description: 'openai-codex-responses always defers: offline payloads cannot prove its transport',
    journals: journalFiles(codex),
    sidecar: { rows: exactRows(codex) },
    routes: [{ api: 'openai-codex-responses', ...EXAMPLE_ROUTE }],
    qualification,
    agentConfig: PERIOD_CONFIG,
    expected: { verdict: 'DEFER', apis: [{ api: 'openai-codex-responses', verdict: 'DEFER', codes: ['WIRE_UNPROVEN'] }] },
  });

  // DEFER: a sixth of assistant messages carry no usage: priced by the labelled fallback, above the 5% limit.
  const fallback = conversations(18, 4, (random) => basePlan(random, { missingUsageShare: 0.17 }));
  cases.push({
    name: 'defer-usage-fallback',
    description: 'more than 5% of requests lack recorded usage (uncached character-heuristic fallback)',
    journals: journalFiles(fallback),
    sidecar: { rows: exactRows(fallback) },
    routes,
    qualification,
    agentConfig: PERIOD_CONFIG,
    expected: { verdict: 'DEFER', apis: [{ api: 'anthropic-messages', verdict: 'DEFER', codes: ['USAGE_FALLBACK_EXCESSIVE'] }] },
  });

  cases.push(skippedJournalsCase(qualification, routes));
  return cases;
}

/**
 * A tiny journal whose boundaries exercise the other boundary skips: a prompt nothing answered (owner missing),
 * then one answered by an API outside the routes (unsupported), then one evaluated normally.
 */
function boundarySkipsJournal(): string {
  const at = (minute: number) => START + 40 * DAY + minute * 60_000;
  const usage = { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15 };
  const entries = [
    { type: 'session', version: 3, id: 'synthetic-boundary-skips', timestamp: new Date(at(0)).toISOString(), cwd: '/synthetic' },
    { role: 'user', text: '[synthetic] first prompt, never answered' },
    { role: 'user', text: '[synthetic] second prompt' },
    { role: 'assistant', api: 'google-generative-ai' },
    { role: 'user', text: '[synthetic] third prompt' },
    { role: 'assistant', api: 'anthropic-messages' },
  ];
  let parentId: string | null = null;
  return (
    entries
      .map((entry, index) => {
        if (index === 0) return JSON.stringify(entry);
        const id = `b0000${index}00`;
        const timestamp = at(index * 10);
        const message =
          entry.role === 'user'
            ? { role: 'user', content: [{ type: 'text', text: entry.text }], timestamp }
            : {
                role: 'assistant',
                content: [{ type: 'text', text: '[synthetic] answer' }],
                api: entry.api,
                provider: 'synthetic',
                model: 'synthetic-model',
                usage,
                stopReason: 'stop',
                timestamp,
              };
        const line = JSON.stringify({ type: 'message', id, parentId, timestamp: new Date(timestamp).toISOString(), message });
        parentId = id;
        return line;
      })
      .join('\n') + '\n'
  );
}

/** Two good conversations plus one journal for every skip reason: too few conversations remain. */
function skippedJournalsCase(qualification: QualificationRecord, routes: unknown): ExampleCase {
  const good = conversations(19, 2, (random) => basePlan(random));
  const extra = conversations(20, 1, (random) => basePlan(random))[0]!;
  const lines = extra.text.trimEnd().split('\n');
  const header = JSON.parse(lines[0]!) as Record<string, unknown>;
  const withHeader = (changes: Record<string, unknown>) =>
    [JSON.stringify({ ...header, ...changes }), ...lines.slice(1)].join('\n') + '\n';
  const skipped = [
    { file: 'skip-inherited.jsonl', text: withHeader({ id: 'synthetic-fork', parentSession: '/synthetic/parent.jsonl' }) },
    { file: 'skip-imported.jsonl', text: withHeader({ id: 'synthetic-import', imported: true }) },
    { file: 'skip-unsupported.jsonl', text: withHeader({ id: 'synthetic-v4', version: 4 }) },
    // Open: the file ends right after a prompt (the turn never got an answer).
    { file: 'skip-open.jsonl', text: withHeader({ id: 'synthetic-open' }).trimEnd().split('\n').slice(0, -1).join('\n') + '\n' },
    { file: 'skip-invalid.jsonl', text: withHeader({ id: 'synthetic-invalid' }) + '{not json\n' },
    // Contributes, but every boundary repeats one first seen in session-1 (same prompt entry id and time).
    { file: 'boundary-duplicates.jsonl', text: good[0]!.text.replace(good[0]!.sessionId, 'synthetic-copy') },
    { file: 'boundary-skips.jsonl', text: boundarySkipsJournal() },
    // Duplicate: the same session id in two files; both are skipped.
    { file: 'skip-duplicate-a.jsonl', text: withHeader({ id: 'synthetic-duplicate' }) },
    { file: 'skip-duplicate-b.jsonl', text: withHeader({ id: 'synthetic-duplicate' }) },
  ];
  // Interrupted: the leaf answer was aborted.
  const aborted = JSON.parse(lines[lines.length - 1]!) as { message: Record<string, unknown> };
  aborted.message.stopReason = 'aborted';
  skipped.push({
    file: 'skip-interrupted.jsonl',
    text: [JSON.stringify({ ...header, id: 'synthetic-interrupted' }), ...lines.slice(1, -1), JSON.stringify(aborted)].join('\n') + '\n',
  });
  return {
    name: 'defer-skipped-journals',
    description: 'one journal per skip reason; only two conversations contribute (representativeness)',
    journals: [...journalFiles(good), ...skipped],
    sidecar: { rows: exactRows(good) },
    routes,
    qualification,
    agentConfig: PERIOD_CONFIG,
    expected: {
      verdict: 'DEFER',
      apis: [
        {
          api: 'anthropic-messages',
          verdict: 'DEFER',
          codes: ['REPRESENTATIVENESS_INSUFFICIENT', 'COLD_EVIDENCE_INSUFFICIENT', 'ADMISSION_LOW', 'PRESSURE_REDUCTION_LOW'],
        },
      ],
    },
  };
}

function readme(cases: ExampleCase[]): string {
  const rows = cases.map((example) => {
    const codes = example.expected.apis.map((api) => api.codes.map((code) => `\`${code}\``).join(', ') || '—').join('; ');
    return `| \`${example.name}\` | ${example.expected.verdict} | ${codes} | ${example.description} |`;
  });
  return `# Clearing examples (SYNTHETIC)

Generated by \`npx tsx scripts/generate-clearing-examples.ts\` (seeded PRNG: the same bytes every run). Every
journal, sidecar row and text here is synthetic filler; \`qualification.json\` is the record of the real offline
\`ctxray qualify\` run with the installed pi-ai (regenerate after editing the qualification sources, or it goes
stale). The routes are fictional modeling inputs (trigger 64,000 tokens to keep the files small).

Run a case (exit 0 = complete analysis; the verdict is in the record):

\`\`\`sh
case=examples/clearing/build
node bin/ctxray.mjs clearing --journals $case/journals --sidecar $case/sidecar.sqlite \\
  --routes $case/routes.json --qualification $case/qualification.json \\
  --agent-config $case/agent-config.json --app-allowlist $case/app-allowlist.json
\`\`\`

Pass \`--agent-config\` / \`--app-allowlist\` only when the case folder has them. \`expected.json\` holds the overall
verdict and each API's verdict and codes; \`tests/clearing/cli.test.ts\` runs every case and checks it.

| case | verdict | codes | what it shows |
|---|---|---|---|
${rows.join('\n')}
`;
}

export async function writeExamples(outDir: string): Promise<ExampleCase[]> {
  const SQL = await initSqlJs();
  const { record } = await runQualification();
  const cases = exampleCases(record);
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.mkdirSync(outDir, { recursive: true });
  fs.writeFileSync(path.join(outDir, 'README.md'), readme(cases));
  for (const example of cases) {
    const dir = path.join(outDir, example.name);
    fs.mkdirSync(path.join(dir, 'journals'), { recursive: true });
    for (const journal of example.journals) fs.writeFileSync(path.join(dir, 'journals', journal.file), journal.text);
    fs.writeFileSync(path.join(dir, 'sidecar.sqlite'), buildSidecar(SQL, example.sidecar));
    const json = (name: string, value: unknown) => fs.writeFileSync(path.join(dir, name), `${JSON.stringify(value, null, 2)}\n`);
    json('routes.json', example.routes);
    json('qualification.json', example.qualification);
    if (example.agentConfig !== undefined) json('agent-config.json', example.agentConfig);
    if (example.appAllowlist !== undefined) json('app-allowlist.json', example.appAllowlist);
    json('expected.json', { synthetic: true, description: example.description, ...example.expected });
  }
  return cases;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const outDir = path.resolve(process.argv[2] ?? path.join(ROOT, 'examples/clearing'));
  const cases = await writeExamples(outDir);
  process.stdout.write(`wrote ${cases.length} synthetic clearing examples to ${path.relative(process.cwd(), outDir) || '.'}\n`);
}
