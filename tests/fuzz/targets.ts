// Every reader of untrusted bytes, as a fuzz target: an input generator (mutated seeds or generated structures)
// and a run that returns a violation or null. Shared by the seeded slice in `npm test` (tests/fuzz/) and by
// `npm run fuzz` (scripts/fuzz.ts). A thrown exception is always a failure: readers must refuse, not crash.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import initSqlJs, { type SqlJsStatic } from 'sql.js';
import { readRequests } from '../../src/core/input/index.ts';
import { ResentJsonParser } from '../../src/core/input/resent-json.ts';
import { TextStore } from '../../src/core/text/store.ts';
import { WIRE_IMPORTERS } from '../../src/core/formats/wire.ts';
import type { WireFormat } from '../../src/core/model.ts';
import { analyzeInput } from '../../src/core/analysis/analyze.ts';
import { buildRecord } from '../../src/core/analysis/record.ts';
import { usageCalibratedAnalysis } from '../../src/core/analysis/attach.ts';
import { recordViolation } from '../contracts/validators.ts';
import { Planter, MARKER_PREFIX } from '../leaks/plant.ts';
import { evaluateDupesInput } from '../../src/core/dupes/evaluate.ts';
import { dupesMarkdown } from '../../src/core/dupes/markdown.ts';
import { parseJournal, contextPath } from '../../src/core/clearing/journal/parse.ts';
import { replayJournal, ReplayError } from '../../src/core/clearing/journal/replay.ts';
import { checkOffline, openSidecar } from '../../src/core/clearing/sidecar.ts';
import { buildSidecar } from '../../src/core/clearing/sidecar-writer.ts';
import { parseAgentConfig, parseAppAllowlist, parseRoutes } from '../../src/core/clearing/inputs.ts';
import { checkQualification } from '../../src/core/clearing/qualification-record.ts';
import { QUALIFICATION_EXPECTED } from '../../src/core/clearing/qualification-expected.ts';
import { analyzeClearing } from '../../src/core/clearing/analyze.ts';
import { encodeInput, parseFragment, MAX_INPUT_FRAGMENT_CHARS } from '../../src/ui/share.ts';
import { REPO_ROOT, seedCorpus, type Seed } from './corpus.ts';
import { workerTargets } from './worker-targets.ts';
import { scaleTargets } from './scale-targets.ts';
import { recordTargets } from './record-targets.ts';
import { main } from '../../src/cli/main.ts';
import { terminalSafe } from '../../src/cli/terminal-safe.ts';
import { renderTerminalReport } from '../../src/cli/report/terminal.ts';
import { renderCacheSummary } from '../../src/cli/report/findings-terminal.ts';
import { renderHtmlReport } from '../../src/render/report/html.ts';
import { applyByteEdit, applyMutation, byteEdit, hostileJsonValue, jsonEdit, applyJsonEdits, mutationOf, type Mutation } from './mutate.ts';
import {
  anthropicBody,
  chatBody,
  envelopedRecord,
  lineDamage,
  resentLineSpecs,
  resentLogLines,
  responsesBody,
  validRoute,
  VALID_AGENT_CONFIG,
  VALID_APP_ALLOWLIST,
  type LineDamage,
  type ResentLineSpec,
} from './arbitraries.ts';
import {
  clearingInputErrorViolation,
  clearingRecordViolation,
  dupesRecordViolation,
  journalSkipViolation,
  readResultViolation,
} from './invariants.ts';

export interface FuzzTarget {
  name: string;
  /** Share of a run's inputs this target gets (relative to the others). */
  weight: number;
  arbitrary: fc.Arbitrary<unknown>;
  run(input: unknown): Promise<string | null>;
}

const utf8 = new TextEncoder();
const bytesOf = (value: unknown) => utf8.encode(typeof value === 'string' ? value : JSON.stringify(value));

/** Seeds that are synthetic stand-ins when the real fixtures are absent, so every target still has something. */
const FALLBACK_LOG: Seed = {
  name: 'synthetic/minimal.jsonl',
  bytes: bytesOf('{"model":"claude-sonnet-4-5","system":"synthetic","messages":[{"role":"user","content":"hi"}]}\n{"model":"gpt-4o","messages":[{"role":"user","content":"hi"}]}\n'),
};
const FALLBACK_JOURNAL: Seed = {
  name: 'synthetic/pi.jsonl',
  bytes: bytesOf(
    [
      { type: 'session', version: 3, id: 'synthetic-session', timestamp: '2026-01-01T00:00:00.000Z', cwd: '/synthetic' },
      { type: 'message', id: 'a1', parentId: null, timestamp: '2026-01-01T00:00:01.000Z', message: { role: 'user', content: [{ type: 'text', text: 'synthetic' }], timestamp: 1 } },
    ].map((line) => JSON.stringify(line)).join('\n') + '\n',
  ),
};

const nameFor = fc.constantFrom('log.jsonl', 'body.json', 'requests.txt', '');

async function readViolation(files: { name: string; bytes: Uint8Array }[], limits?: Parameters<typeof readRequests>[1]): Promise<string | null> {
  const result = await readRequests(files, limits);
  return readResultViolation(result, files.length);
}

function dupesViolation(record: Awaited<ReturnType<typeof evaluateDupesInput>>): string | null {
  const problem = dupesRecordViolation(record) ?? recordViolation('dupes', record);
  if (problem) return problem;
  // Both views must render any record without throwing.
  JSON.stringify(record);
  dupesMarkdown(record);
  return null;
}

function importerTarget(format: WireFormat, generated: fc.Arbitrary<Record<string, unknown>>, logs: Seed[]): FuzzTarget {
  // Mutated real bodies of this format (parsed per line), alongside generated ones.
  const bodies: unknown[] = [];
  for (const seed of logs.filter((s) => s.name.includes(format))) {
    for (const line of new TextDecoder().decode(seed.bytes).split('\n')) {
      if (line.trim() === '') continue;
      try {
        bodies.push(JSON.parse(line));
      } catch {
        // a seed cut mid-line: its last line is skipped
      }
    }
  }
  const mutatedReal = bodies.length === 0
    ? generated
    : fc.tuple(fc.nat({ max: bodies.length - 1 }), fc.array(fc.record({ line: fc.constant(0), edit: jsonEdit }), { minLength: 1, maxLength: 4 }))
        .map(([i, edits]) => JSON.parse(new TextDecoder().decode(applyJsonEdits(bytesOf(bodies[i]), edits))) as unknown);
  return {
    name: `format:${format}`,
    weight: 2,
    arbitrary: fc.oneof(generated, mutatedReal),
    async run(body) {
      if (body === null || typeof body !== 'object' || Array.isArray(body)) return null;
      const request = WIRE_IMPORTERS[format](body as Record<string, unknown>, { store: new TextStore(), file: 0, line: 1, index: 0 });
      return readResultViolation({ requests: [request], errors: [], files: [{ format, envelope: 'none', layout: 'jsonl', records: 1, requests: 1, errors: 0 }], distinctTexts: 0 }, 1);
    },
  };
}

function validQualificationRecord(): Record<string, unknown> {
  const entry = (api: string) => ({ api, provider: 'synthetic', model: 'synthetic', cases: 3, targetedLeaves: 4, changedLeaves: 4, unintendedDifferences: 0, result: 'qualified' });
  return {
    schema: 'ctxray.qualification/1',
    fixtures: 'synthetic',
    piAiVersion: QUALIFICATION_EXPECTED.piAiVersion,
    sourceDigest: QUALIFICATION_EXPECTED.sourceDigest,
    networkCalls: 0,
    apis: ['anthropic-messages', 'openai-responses', 'openai-completions', { ...entry('openai-codex-responses'), alwaysDefers: 'wire-unproven' }].map((api) => (typeof api === 'string' ? entry(api) : api)),
  };
}

/** A small valid sidecar (synthetic rows) to mutate. */
function seedSidecar(SQL: SqlJsStatic): Uint8Array {
  return buildSidecar(SQL, {
    rows: [
      { sessionId: 'synthetic-session', runId: 'r1', callId: 'c1', state: 'finalized', text: 'synthetic result' },
      { sessionId: 'synthetic-session', runId: 'r1', callId: 'c2', state: 'committed', text: 'synthetic' },
      { sessionId: 'synthetic-session', runId: 'r2', callId: 'c3', state: 'tombstoned', text: 'gone' },
      { sessionId: 'synthetic-session', runId: 'r2', callId: 'c4', state: 'finalized', text: 'partial', truncateTo: 3 },
    ],
    policies: [{ sessionId: 'synthetic-session', policy: 'keep_all' }],
    checkpoints: [{ sessionId: 'synthetic-session', seq: 1, throughEntryId: 'a1', atMs: 1 }],
  });
}

/** A JSON-valued input: mutate a valid value at the JSON level, or generate something arbitrary. */
function jsonInput(valid: unknown): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.array(jsonEdit, { minLength: 1, maxLength: 4 }).map((edits) => {
      const holder = { root: structuredClone(valid) };
      const bytes = applyJsonEdits(bytesOf(holder.root), edits.map((edit) => ({ line: 0, edit })));
      return JSON.parse(new TextDecoder().decode(bytes)) as unknown;
    }),
    hostileJsonValue,
    fc.jsonValue({ maxDepth: 4 }),
  );
}

const SIDECAR_TABLES = {
  sidecar_meta: ['key', 'value'],
  tool_results: ['session_id', 'run_id', 'call_id', 'state', 'redacted', 'redaction_reason', 'truncated', 'original_bytes', 'retained_bytes', 'sha256', 'retained_text'],
  conversation_policies: ['session_id', 'policy'],
  checkpoints: ['session_id', 'seq', 'through_entry_id', 'at_ms'],
} as const;
type TableName = keyof typeof SIDECAR_TABLES;

/** How one required table is present: a table (maybe missing a column, with odd values), a view, or not at all. */
interface TableVariant {
  form: 'table' | 'view' | 'endless-view' | 'absent';
  dropColumn: number | null;
  rows: unknown[][];
}
type SidecarSchema = Record<TableName, TableVariant> & { extra: string | null };

const sqlValue = fc.oneof(fc.constantFrom(null, 0, 1, -1, 2 ** 53, 'finalized', 'committed', 'tombstoned', 'keep_all', 's', 'r', '1', 'a'.repeat(64), 'ctxray.tool-history'), fc.string({ maxLength: 8 }), fc.double());
const tableVariant = fc.record({
  form: fc.constantFrom('table', 'table', 'table', 'view', 'endless-view', 'absent') as fc.Arbitrary<TableVariant['form']>,
  dropColumn: fc.option(fc.nat({ max: 10 })),
  rows: fc.array(fc.array(sqlValue, { minLength: 11, maxLength: 11 }), { maxLength: 4 }),
});
const sidecarSchema: fc.Arbitrary<SidecarSchema> = fc.record({
  sidecar_meta: tableVariant,
  tool_results: tableVariant,
  conversation_policies: tableVariant,
  checkpoints: tableVariant,
  extra: fc.option(fc.constantFrom(
    'CREATE TRIGGER t AFTER INSERT ON sidecar_meta BEGIN DELETE FROM sidecar_meta; END',
    'CREATE INDEX i ON sidecar_meta(value)',
    'CREATE TABLE extra_table (x)',
    "CREATE VIEW extra_view AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT i FROM n",
  )),
});

const quoteSql = (value: unknown): string =>
  value === null ? 'NULL' : typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '0') : `'${String(value).replaceAll("'", "''")}'`;

/** A sidecar built from a schema variant (synthetic values), as bytes. */
function buildSchemaVariant(SQL: SqlJsStatic, schema: SidecarSchema): Uint8Array {
  const db = new SQL.Database();
  try {
    for (const name of Object.keys(SIDECAR_TABLES) as TableName[]) {
      const variant = schema[name];
      const columns = SIDECAR_TABLES[name].filter((_, i) => i !== variant.dropColumn);
      const values = (row: unknown[]) => columns.map((_, i) => quoteSql(row[i]));
      if (variant.form === 'table') {
        db.exec(`CREATE TABLE ${name} (${columns.join(', ')})`);
        const meta = name === 'sidecar_meta' ? [["'format'", "'ctxray.tool-history'"], ["'version'", "'1'"]] : [];
        for (const row of [...meta, ...variant.rows.map(values)]) db.exec(`INSERT INTO ${name} VALUES (${row.slice(0, columns.length).join(', ')})`);
      } else if (variant.form !== 'absent') {
        const bound = variant.form === 'view' ? 'WHERE i < 3' : '';
        db.exec(`CREATE VIEW ${name} AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n ${bound}) SELECT ${columns.map((c) => `i AS ${c}`).join(', ')} FROM n`);
      }
    }
    try {
      if (schema.extra !== null) db.exec(schema.extra);
    } catch {
      // SQLite refuses some combinations (a trigger on a view): that schema is simply built without the extra.
    }
    return db.export();
  } finally {
    db.close();
  }
}

export async function fuzzTargets(): Promise<FuzzTarget[]> {
  const corpus = seedCorpus();
  const logs = corpus.requestLogs.length > 0 ? corpus.requestLogs : [FALLBACK_LOG];
  const transcripts = corpus.transcripts.length > 0 ? corpus.transcripts : [FALLBACK_JOURNAL];
  const journals = corpus.piJournals.length > 0 ? corpus.piJournals : [FALLBACK_JOURNAL];
  const SQL = await initSqlJs();
  const sidecar = seedSidecar(SQL);
  const qualification = validQualificationRecord();
  const routes = ['anthropic-messages', 'openai-responses'].map(validRoute);
  const decoder = new TextDecoder();

  // Request-log seeds with a marker planted in every text field (tests/leaks/plant.ts).
  const planter = new Planter('f');
  const planted: Seed[] = logs.map((seed) => ({ name: seed.name, bytes: utf8.encode(planter.text(decoder.decode(seed.bytes))) }));

  const nativeEnvelopes: Seed[] = [
    { name: 'synthetic/native', bytes: bytesOf({ suite: 'v1', blocks: [{ text: 'alpha beta' }, { text: 'alpha beta' }, { text: 'gamma' }] }) },
  ];
  const chatEnvelopes: Seed[] = [
    { name: 'synthetic/chat', bytes: bytesOf({ adapter: 'openai-chat-v1', messages: [{ role: 'system', content: 'be brief' }, { role: 'user', content: [{ type: 'text', text: 'be brief' }, { type: 'image_url', image_url: { url: 'x' } }] }, { role: 'assistant', content: null, tool_calls: [] }] }) },
  ];
  const coneEnvelopes: Seed[] = [
    { name: 'synthetic/cone', bytes: bytesOf({ adapter: 'conereplay-v1', trace: { events: [{ event_id: 'e1', inputs: 'plan', outputs: 'step' }, { event_id: 'e2', inputs: 'step', outputs: '' }] } }) },
    { name: 'synthetic/cone-trace', bytes: bytesOf({ events: [{ event_id: 'e1', inputs: 'plan', outputs: 'plan' }] }) },
    { name: 'synthetic/cone-jsonl', bytes: bytesOf('{"event_id":"e1","inputs":"a","outputs":"b"}\n{"event_id":"e2","inputs":"b","outputs":"c"}\n') },
  ];

  const targets: FuzzTarget[] = [
    {
      name: 'input:mutated-logs',
      weight: 4,
      arbitrary: fc.tuple(mutationOf(logs.length), nameFor),
      async run(input) {
        const [mutation, name] = input as [Mutation, string];
        return readViolation([{ name, bytes: applyMutation(logs, mutation) }]);
      },
    },
    {
      name: 'input:gzip',
      weight: 2,
      arbitrary: fc.tuple(mutationOf(logs.length), fc.array(byteEdit, { maxLength: 3 }), fc.boolean()),
      async run(input) {
        const [mutation, compressedEdits, gzName] = input as [Mutation, Parameters<typeof applyByteEdit>[1][], boolean];
        let bytes: Uint8Array = new Uint8Array(gzipSync(applyMutation(logs, mutation)));
        for (const edit of compressedEdits) bytes = applyByteEdit(bytes, edit);
        // A small decompression limit keeps a mutated stream that inflates a lot from costing seconds.
        return readViolation([{ name: gzName ? 'log.jsonl.gz' : 'log.jsonl', bytes }], { limits: { maxDecompressedBytes: 4 * 1024 * 1024 } });
      },
    },
    {
      name: 'input:utf16',
      weight: 1,
      arbitrary: fc.tuple(mutationOf(logs.length), fc.boolean(), fc.array(byteEdit, { maxLength: 3 })),
      async run(input) {
        const [mutation, bigEndian, edits] = input as [Mutation, boolean, Parameters<typeof applyByteEdit>[1][]];
        const text = decoder.decode(applyMutation(logs, mutation));
        let bytes: Uint8Array = new Uint8Array(2 + text.length * 2);
        bytes[0] = bigEndian ? 0xfe : 0xff;
        bytes[1] = bigEndian ? 0xff : 0xfe;
        for (let i = 0; i < text.length; i++) {
          const unit = text.charCodeAt(i);
          bytes[2 + i * 2 + (bigEndian ? 1 : 0)] = unit & 0xff;
          bytes[2 + i * 2 + (bigEndian ? 0 : 1)] = unit >> 8;
        }
        for (const edit of edits) bytes = applyByteEdit(bytes, edit);
        return readViolation([{ name: 'log.jsonl', bytes }]);
      },
    },
    {
      name: 'input:generated-records',
      weight: 3,
      arbitrary: fc.tuple(fc.array(envelopedRecord, { minLength: 1, maxLength: 6 }), fc.constantFrom('jsonl', 'array', 'single')),
      async run(input) {
        const [records, layout] = input as [unknown[], string];
        const text = layout === 'array' ? JSON.stringify(records) : layout === 'single' ? JSON.stringify(records[0], null, 2) : records.map((r) => JSON.stringify(r)).join('\n');
        return readViolation([{ name: layout === 'jsonl' ? 'log.jsonl' : 'log.json', bytes: utf8.encode(text) }]);
      },
    },
    {
      name: 'input:multi-file',
      weight: 1,
      // Several files in one read: batch inputs in one file and their outputs in another, mutated logs beside them.
      arbitrary: fc.tuple(fc.array(envelopedRecord, { minLength: 1, maxLength: 4 }), fc.array(envelopedRecord, { minLength: 1, maxLength: 4 }), mutationOf(logs.length)),
      async run(input) {
        const [first, second, mutation] = input as [unknown[], unknown[], Mutation];
        const jsonl = (records: unknown[]) => utf8.encode(records.map((r) => JSON.stringify(r)).join('\n'));
        return readViolation([
          { name: 'batch-input.jsonl', bytes: jsonl(first) },
          { name: 'batch-output.jsonl', bytes: jsonl(second) },
          { name: 'log.jsonl', bytes: applyMutation(logs, mutation) },
        ]);
      },
    },
    {
      name: 'input:transcripts',
      weight: 2,
      arbitrary: mutationOf(transcripts.length),
      async run(input) {
        const mutation = input as Mutation;
        // The file name takes part in transcript detection (e.g. rollout-*.jsonl), so keep the seed's own.
        const name = transcripts[mutation.seed]!.name.split('/').pop()!;
        return readViolation([{ name, bytes: applyMutation(transcripts, mutation) }]);
      },
    },
    {
      name: 'input:resent-json',
      weight: 2,
      arbitrary: fc.tuple(fc.array(hostileJsonValue, { minLength: 1, maxLength: 6 }), resentLineSpecs, lineDamage, fc.integer({ min: 2, max: 8 })),
      async run(input) {
        const [values, specs, damage, maxDepth] = input as [unknown[], ResentLineSpec[], LineDamage[], number];
        // Items long enough to be remembered, each carrying one generated value; every third is larger than all
        // the parser below may remember.
        const pool = values.map((value, i) => ({ pad: `synthetic item ${i} `.repeat(i % 3 === 2 ? 150 : 12), value }));
        const lines = resentLogLines(pool, specs, damage);
        const file = new ResentJsonParser({ maxRememberedChars: 2000 }).forFile();
        for (const [index, line] of lines.entries()) {
          let expected: unknown;
          try {
            expected = JSON.parse(line);
          } catch {
            expected = undefined;
          }
          if (expected !== undefined && nestingOf(expected) > maxDepth) expected = undefined;
          const got = file.parse(line, maxDepth);
          if (expected === undefined ? got !== undefined : JSON.stringify(got) !== JSON.stringify(expected)) {
            return `resent-json differs from JSON.parse (depth limit ${maxDepth}) on line ${index + 1} of ${lines.length} (${line.length} characters)`;
          }
        }
        return null;
      },
    },
    importerTarget('anthropic-messages', anthropicBody, logs),
    importerTarget('openai-chat', chatBody, logs),
    importerTarget('openai-responses', responsesBody, logs),
    {
      name: 'analysis:analyze',
      weight: 1,
      arbitrary: mutationOf(logs.length),
      async run(input) {
        const bytes = applyMutation(logs, input as Mutation);
        const analysis = await analyzeInput([{ name: 'log.jsonl', bytes }]);
        for (const error of analysis.errors) if (typeof error.message !== 'string' || !Number.isInteger(error.line)) return 'analysis error is not located';
        JSON.stringify(analysis);
        return null;
      },
    },
    {
      name: 'dupes:native-envelope',
      weight: 2,
      arbitrary: fc.oneof(
        mutationOf(nativeEnvelopes.length),
        fc.array(fc.oneof(fc.record({ text: fc.string({ unit: 'binary', maxLength: 30 }) }), hostileJsonValue), { maxLength: 12 }).map((blocks) => ({ seed: -1, blocks })),
      ),
      async run(input) {
        const value = input as Mutation | { seed: -1; blocks: unknown[] };
        const bytes = 'blocks' in value ? bytesOf({ suite: 'v1', blocks: value.blocks }) : applyMutation(nativeEnvelopes, value);
        return dupesViolation(await evaluateDupesInput({ name: 'envelope.json', bytes }));
      },
    },
    {
      name: 'dupes:openai-chat-v1',
      weight: 2,
      arbitrary: fc.oneof(
        mutationOf(chatEnvelopes.length),
        chatBody.map((body) => ({ seed: -1, body })),
      ),
      async run(input) {
        const value = input as Mutation | { seed: -1; body: Record<string, unknown> };
        const bytes = 'body' in value ? bytesOf({ adapter: 'openai-chat-v1', messages: value.body['messages'] }) : applyMutation(chatEnvelopes, value);
        return dupesViolation(await evaluateDupesInput({ name: 'envelope.json', bytes }));
      },
    },
    {
      name: 'dupes:conereplay-v1',
      weight: 2,
      arbitrary: mutationOf(coneEnvelopes.length),
      async run(input) {
        return dupesViolation(await evaluateDupesInput({ name: 'trace.json', bytes: applyMutation(coneEnvelopes, input as Mutation) }));
      },
    },
    {
      name: 'dupes:request-log',
      weight: 1,
      arbitrary: fc.tuple(mutationOf(logs.length), fc.boolean()),
      async run(input) {
        const [mutation, gz] = input as [Mutation, boolean];
        const plain = applyMutation(logs, mutation);
        const bytes = gz ? new Uint8Array(gzipSync(plain)) : plain;
        return dupesViolation(await evaluateDupesInput({ name: gz ? 'log.jsonl.gz' : 'log.jsonl', bytes }));
      },
    },
    {
      name: 'clearing:journal',
      weight: 3,
      arbitrary: mutationOf(journals.length),
      async run(input) {
        const text = decoder.decode(applyMutation(journals, input as Mutation));
        const parsed = parseJournal(text);
        if (!parsed.ok) return journalSkipViolation(parsed.skip);
        contextPath(parsed.journal);
        try {
          replayJournal(parsed.journal);
        } catch (error) {
          // A replay refusal is the documented, located way to discard a journal; anything else is a crash.
          if (!(error instanceof ReplayError)) throw error;
          return journalSkipViolation({ reason: error.reason, line: error.line, field: error.field });
        }
        return null;
      },
    },
    {
      name: 'clearing:sidecar',
      weight: 1,
      arbitrary: fc.tuple(fc.array(byteEdit, { maxLength: 4 }), fc.array(fc.string({ unit: 'binary', maxLength: 12 }), { minLength: 3, maxLength: 3 })),
      async run(input) {
        const [edits, [session, run, call]] = input as [Parameters<typeof applyByteEdit>[1][], string[]];
        let bytes = sidecar;
        for (const edit of edits) bytes = applyByteEdit(bytes, edit);
        const offline = checkOffline(bytes, false);
        if (!offline.ok) return 'reason' in offline && offline.reason !== 'sidecar_not_sqlite' ? `offline check reason ${offline.reason}` : null;
        const opened = openSidecar(SQL, bytes);
        if (!opened.ok) return clearingInputErrorViolation({ input: 'sidecar', reason: opened.reason, at: opened.at });
        try {
          opened.reader.match(session!, run!, call!, 'synthetic result');
          opened.reader.match('synthetic-session', 'r1', 'c1', 'synthetic result');
          opened.reader.policy(session!);
          opened.reader.checkpoints('synthetic-session');
        } finally {
          opened.reader.close();
        }
        return null;
      },
    },
    {
      name: 'clearing:sidecar-schema',
      weight: 1,
      arbitrary: sidecarSchema,
      async run(input) {
        const bytes = buildSchemaVariant(SQL, input as SidecarSchema);
        const offline = checkOffline(bytes, false);
        if (!offline.ok) return null;
        const opened = openSidecar(SQL, bytes);
        if (!opened.ok) return clearingInputErrorViolation({ input: 'sidecar', reason: opened.reason, at: opened.at });
        try {
          opened.reader.match('s', 'r', '1', 'synthetic');
          opened.reader.policy('s');
          opened.reader.checkpoints('s');
        } finally {
          opened.reader.close();
        }
        return null;
      },
    },
    {
      name: 'clearing:small-inputs',
      weight: 2,
      arbitrary: fc.tuple(fc.nat({ max: 3 }), fc.constant(null)).chain(([which]) =>
        jsonInput([routes, VALID_AGENT_CONFIG, VALID_APP_ALLOWLIST, qualification][which]).map((value) => [which, value] as const),
      ),
      async run(input) {
        const [which, value] = input as [number, unknown];
        if (which === 3) {
          const check = checkQualification(value, QUALIFICATION_EXPECTED);
          if (!check.ok && (check.code !== 'PAYLOAD_UNQUALIFIED' || typeof check.why !== 'string')) return 'qualification refusal without its code';
          return null;
        }
        const parsed = [parseRoutes, parseAgentConfig, parseAppAllowlist][which]!(value);
        return parsed.ok ? null : clearingInputErrorViolation(parsed.error);
      },
    },
    {
      name: 'clearing:analyze',
      weight: 1,
      arbitrary: fc.tuple(fc.array(mutationOf(journals.length), { minLength: 1, maxLength: 3 }), fc.array(byteEdit, { maxLength: 2 }), jsonInput(routes), fc.boolean()),
      async run(input) {
        const [mutations, sidecarEdits, routesValue, companion] = input as [Mutation[], Parameters<typeof applyByteEdit>[1][], unknown, boolean];
        let bytes = sidecar;
        for (const edit of sidecarEdits) bytes = applyByteEdit(bytes, edit);
        const { record, diagnostics } = analyzeClearing({
          SQL,
          journals: mutations.map((m) => decoder.decode(applyMutation(journals, m))),
          sidecar: { bytes, companionPresent: companion },
          routes: routesValue,
          qualification: checkQualification(qualification, QUALIFICATION_EXPECTED),
          agentConfig: VALID_AGENT_CONFIG,
          appAllowlist: VALID_APP_ALLOWLIST,
        });
        for (const note of diagnostics) {
          const problem = journalSkipViolation({ reason: note.reason, line: note.line, field: note.field });
          if (problem) return problem;
        }
        JSON.stringify(record);
        return clearingRecordViolation(record) ?? recordViolation('clearing', record);
      },
    },
    {
      name: 'analysis:record-validates',
      weight: 2,
      arbitrary: fc.tuple(mutationOf(logs.length), nameFor),
      async run(input) {
        // Whatever a mutated log holds, the analysis record (calibrated on its usage, as analyze does) keeps its schema.
        const [mutation, name] = input as [Mutation, string];
        const analysis = await analyzeInput([{ name: name === '' ? 'log.jsonl' : name, bytes: applyMutation(logs, mutation) }]);
        return recordViolation('analysis', buildRecord(usageCalibratedAnalysis(analysis).analysis));
      },
    },
    {
      name: 'leaks:mutated-planted',
      weight: 1,
      arbitrary: fc.tuple(mutationOf(planted.length), fc.boolean()),
      async run(input) {
        // Broken planted input: whatever is refused or read, the machine-readable records quote none of it.
        const [mutation, viaDupes] = input as [Mutation, boolean];
        const bytes = applyMutation(planted, mutation);
        const json = viaDupes
          ? JSON.stringify(await evaluateDupesInput({ name: 'log.jsonl', bytes }))
          : JSON.stringify(buildRecord(await analyzeInput([{ name: 'log.jsonl', bytes }])));
        return json.toLowerCase().includes(MARKER_PREFIX) ? `a planted marker reached the ${viaDupes ? 'dupes' : 'analysis'} record` : null;
      },
    },
    {
      name: 'ui:share-fragment',
      weight: 2,
      arbitrary: fc.oneof(
        fc.string({ unit: 'binary', maxLength: 200 }),
        fc.tuple(fc.string({ maxLength: 300 }), fc.array(byteEdit, { maxLength: 3 })).map(([text, edits]) => {
          let encoded: Uint8Array = utf8.encode(encodeInput(text));
          for (const edit of edits) encoded = applyByteEdit(encoded, edit);
          return `#input=${decoder.decode(encoded)}&request=2`;
        }),
        fc.constantFrom(`#input=${'A'.repeat(MAX_INPUT_FRAGMENT_CHARS + 1)}`, '#request=-1&panel=<script>', '#example=../../etc/passwd', '#model=%00&format=__proto__', '#__proto__=1&constructor=2'),
      ),
      async run(input) {
        const parsed = parseFragment(input as string);
        if (typeof parsed.ok !== 'boolean' || typeof parsed.state !== 'object') return 'fragment parse result has no shape';
        if (!parsed.ok && (typeof parsed.error !== 'string' || parsed.error === '')) return 'fragment refusal without a message';
        const { request, panel, example } = parsed.state;
        if (request !== undefined && (!Number.isInteger(request) || request < 1)) return `request ${request}`;
        if (panel !== undefined && !/^[a-z0-9-]{1,40}$/.test(panel)) return 'panel id not validated';
        if (example !== undefined && example.includes('/')) return 'example id with a path separator';
        return null;
      },
    },
    ...layerTargets(SQL),
    ...workerTargets(),
    ...scaleTargets(),
    ...recordTargets(),
  ];
  return targets;
}

/** Raw control, C1 and bidi characters (newline and tab allowed): none may reach piped output or a report. */
function rawControl(text: string): string | null {
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    if ((c < 0x20 && c !== 0x0a && c !== 0x09) || (c >= 0x7f && c <= 0x9f) || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069)) {
      return `U+${c.toString(16).toUpperCase().padStart(4, '0')}`;
    }
  }
  return null;
}

const HOSTILE_TOKENS = ['\u001b]52;c;c3ludGhldGlj\u0007', '\u001b]8;;http://synthetic.invalid\u001b\\', '\u001b[31m', '\u001b[K', '\u202e', '\u009b2J', '\u0000'];
const hostileText = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.tuple(fc.string({ maxLength: 6 }), fc.constantFrom(...HOSTILE_TOKENS), fc.string({ maxLength: 6 })).map(([a, t, b]) => `${a}${t}${b}`),
);

/** The layers above the readers: the CLI (arguments, output flags, messages), the renderers, the sidecar property. */
function layerTargets(SQL: SqlJsStatic): FuzzTarget[] {
  const dir = mkdtempSync(path.join(tmpdir(), 'ctxray-fuzz-cli-'));
  // The scratch folder lives as long as the targets; removed when the process ends.
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const log = `${JSON.stringify({ model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'synthetic' }] })}\n`;
  writeFileSync(path.join(dir, 'log.jsonl'), log);
  const flag = fc.constantFrom('--json', '--html', '--out', '--markdown', '--force', '--format', '--model', '--fail-on', '--content', '-v', '--help', '--max-records', '--max-requests', '--journals', '--sidecar', '--routes', '--qualification', '-', '--', 'log.jsonl', 'missing.jsonl', 'out.json', 'out.html');
  const argv = fc.tuple(
    fc.constantFrom('analyze', 'dupes', 'clearing', '--help', '--version', 'bogus'),
    fc.array(fc.oneof(flag, hostileText), { maxLength: 6 }),
  );
  const example = path.join(REPO_ROOT, 'examples/clearing/stop-redaction-dominated');
  const exampleJournals = readdirSync(path.join(example, 'journals')).sort().map((name) => readFileSync(path.join(example, 'journals', name), 'utf8'));
  const exampleRoutes = JSON.parse(readFileSync(path.join(example, 'routes.json'), 'utf8')) as unknown;
  const exampleSidecar = new Uint8Array(readFileSync(path.join(example, 'sidecar.sqlite')));
  const integrityFails = (bytes: Uint8Array): boolean => {
    let db: InstanceType<SqlJsStatic['Database']> | null = null;
    try {
      db = new SQL.Database(bytes);
      const rows = db.exec('PRAGMA integrity_check')[0]?.values ?? [];
      return !(rows.length === 1 && rows[0]![0] === 'ok');
    } catch {
      return true;
    } finally {
      db?.close();
    }
  };
  return [
    {
      name: 'cli:arguments',
      weight: 1,
      arbitrary: argv,
      async run(input) {
        const [command, rest] = input as [string, string[]];
        let out = '';
        const io = {
          stdout: (text: string) => void (out += text),
          stderr: (text: string) => void (out += text),
          readStdin: async () => utf8.encode(log),
          env: {},
          cwd: dir,
        };
        const status = await main([command, ...rest], io);
        if (![0, 1, 2].includes(status)) return `exit status ${status}`;
        const raw = rawControl(out);
        if (raw !== null) return `raw ${raw} in the output`;
        if (/\n\s+at .+:\d+:\d+/.test(out)) return 'a stack trace in the output';
        // The input stays as it was, whatever the flags asked for.
        return readFileSync(path.join(dir, 'log.jsonl'), 'utf8') === log ? null : 'an input was changed';
      },
    },
    {
      name: 'render:reports',
      weight: 1,
      arbitrary: fc.tuple(hostileText, hostileText, hostileText, fc.boolean()),
      async run(input) {
        const [model, tool, text, content] = input as [string, string, string, boolean];
        const tools = [{ name: tool, description: 'synthetic', input_schema: { type: 'object' } }];
        const first = { model, system: 'synthetic', tools, messages: [{ role: 'user', content: text }] };
        const second = { ...first, tools: [...tools, { name: `${tool}2`, description: 'synthetic', input_schema: { type: 'object' } }], messages: [...first.messages, { role: 'assistant', content: text }, { role: 'user', content: 'more' }] };
        const bytes = utf8.encode(`${JSON.stringify(first)}\n${JSON.stringify(second)}\n`);
        const analysis = await analyzeInput([{ name: `log${text}.jsonl`, bytes }]);
        const terminal = terminalSafe(renderTerminalReport(analysis, { color: false, verbose: true }) + (analysis.cache ? renderCacheSummary(analysis.cache, { models: analysis.modelUse, color: false, content, verbose: true }) : ''), { ownSequences: false });
        const terminalRaw = rawControl(terminal);
        if (terminalRaw !== null) return `raw ${terminalRaw} in the terminal report`;
        if (analysis.cache) {
          const html = renderHtmlReport(analysis, analysis.cache, { content });
          const htmlRaw = rawControl(html);
          if (htmlRaw !== null) return `raw ${htmlRaw} in the HTML report`;
          if (/<script|\son\w+=/i.test(html)) return 'markup from the input in the HTML report';
        }
        const markdown = dupesMarkdown(await evaluateDupesInput({ name: 'log.jsonl', bytes }));
        const markdownRaw = rawControl(markdown);
        return markdownRaw === null ? null : `raw ${markdownRaw} in the dupes markdown`;
      },
    },
    {
      name: 'clearing:sidecar-integrity',
      weight: 1,
      arbitrary: fc.tuple(fc.nat(), fc.nat(), fc.uint8Array({ minLength: 1, maxLength: 64 })),
      async run(input) {
        // Damage one page of a real generated sidecar; when SQLite's own check fails, the analysis is never complete.
        const [page, offset, damage] = input as [number, number, Uint8Array];
        const bytes = exampleSidecar.slice();
        const pages = bytes.byteLength / 4096;
        const start = (1 + (page % (pages - 1))) * 4096 + (offset % (4096 - damage.byteLength));
        bytes.set(damage, start);
        if (!integrityFails(bytes)) return null;
        const { record } = analyzeClearing({ SQL, journals: exampleJournals, routes: exampleRoutes, qualification: { ok: false, code: 'PAYLOAD_UNQUALIFIED', why: 'synthetic' }, sidecar: { bytes, companionPresent: false } });
        if (record.complete) return 'a sidecar failing the integrity check gave a complete analysis';
        if (!record.codes.includes('INPUT_INVALID')) return 'a sidecar failing the integrity check is not INPUT_INVALID';
        if (Object.values(record.journals.skippedJournals).some((count) => count > 0)) return 'a journal was blamed for a corrupt sidecar';
        return null;
      },
    },
  ];
}

/** Nesting depth of a parsed value: a primitive is 0, `[]` is 1. */
function nestingOf(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  let deepest = 0;
  for (const item of Object.values(value)) deepest = Math.max(deepest, nestingOf(item));
  return deepest + 1;
}
