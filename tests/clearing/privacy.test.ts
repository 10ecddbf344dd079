// Marker strings planted in every input field must never reach any output (stdout, stderr, --out).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { clearingCommand } from '../../src/cli/commands/clearing.ts';
import type { CliIO } from '../../src/cli/io.ts';
import { buildSidecar } from '../../src/core/clearing/sidecar-writer.ts';
import { sha256Hex } from '../../src/core/clearing/sidecar.ts';
import { assistant, journal, loadSql, ROUTE, text, toolResult, user } from './helpers.ts';

const MARKER = 'ZQX7MARKER';
const REPO = path.resolve(__dirname, '../..');
let dir: string;

function markedJournal(index: number): string {
  const session = `${MARKER}-session-${index}`;
  const origin = {
    origin: {
      server: `${MARKER}-server`,
      tool: `${MARKER}_lookup`,
      serverIdentityDigest: sha256Hex(MARKER),
      annotations: { readOnlyHint: true },
    },
  };
  const entries = [
    user(`${MARKER}u1`, `${MARKER} prompt ${'x'.repeat(4000)}`, 1_000),
    {
      ...assistant(`${MARKER}a1`, 2_000, {
        text: `${MARKER} answer`,
        calls: [
          { id: `${MARKER}c1`, name: 'read', args: { path: `/${MARKER}/secret.txt` } },
          { id: `${MARKER}c2`, name: `${MARKER}_tool`, args: { q: MARKER } },
          { id: `${MARKER}c3`, name: `${MARKER}_lookup`, args: { url: `https://${MARKER}.invalid` }, payload: origin },
        ],
      }),
    },
    toolResult(`${MARKER}r1`, `${MARKER}c1`, 'read', text(`${MARKER} file ${'y'.repeat(8000)}`), 3_000),
    toolResult(`${MARKER}r2`, `${MARKER}c2`, `${MARKER}_tool`, text(`${MARKER} error`), 3_100, true),
    toolResult(`${MARKER}r3`, `${MARKER}c3`, `${MARKER}_lookup`, text(`{"${MARKER}":"${MARKER}"}`), 3_200),
    assistant(`${MARKER}a2`, 4_000, { text: MARKER, usage: { input: 900, output: 5, cacheRead: 2000, cacheWrite: 100 } }),
    user(`${MARKER}u2`, MARKER, 900_000),
    assistant(`${MARKER}a3`, 901_000, { text: MARKER, api: `${MARKER}-api` }),
    user(`${MARKER}u3`, MARKER, 1_900_000),
    assistant(`${MARKER}a4`, 1_901_000, { text: MARKER }),
  ];
  return journal(session, entries, { cwd: `/${MARKER}/cwd`, [`${MARKER}field`]: MARKER });
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), `ctxray-${MARKER}-`));
  const journals = path.join(dir, `${MARKER}-journals`, MARKER);
  fs.mkdirSync(journals, { recursive: true });
  for (const index of [1, 2, 3]) fs.writeFileSync(path.join(journals, `${MARKER}-${index}.jsonl`), markedJournal(index));
  // Skipped journals with markers in the places a skip is detected.
  fs.writeFileSync(path.join(journals, `${MARKER}-bad.jsonl`), markedJournal(4) + `{"${MARKER}": broken\n`);
  fs.writeFileSync(path.join(journals, `${MARKER}-fork.jsonl`), markedJournal(5).replace('"cwd"', `"parentSession":"/${MARKER}.jsonl","cwd"`));
  const SQL = await loadSql();
  const rows = [1, 2, 3].map((index) => ({
    sessionId: `${MARKER}-session-${index}`,
    runId: `${MARKER}u1`,
    callId: `${MARKER}c1`,
    state: 'finalized' as const,
    text: `${MARKER} file ${'y'.repeat(8000)}`,
  }));
  fs.writeFileSync(path.join(dir, `${MARKER}.sqlite`), buildSidecar(SQL, { rows, policies: [{ sessionId: MARKER, policy: 'keep_all' }] }));
  fs.writeFileSync(path.join(dir, `${MARKER}-routes.json`), JSON.stringify([{ ...ROUTE, label: MARKER, [MARKER]: MARKER }]));
  fs.writeFileSync(path.join(dir, `${MARKER}-qualification.json`), JSON.stringify({ schema: MARKER, piAiVersion: MARKER }));
  fs.writeFileSync(path.join(dir, `${MARKER}-agent.json`), JSON.stringify({ builtins: ['read', `${MARKER}_tool`], mcpTools: [{ exposedName: `${MARKER}_x` }] }));
  fs.writeFileSync(
    path.join(dir, `${MARKER}-allow.json`),
    JSON.stringify([{ server: `${MARKER}-server`, tool: `${MARKER}_lookup`, serverIdentityDigest: sha256Hex(MARKER), readOnly: true }]),
  );
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function run(extra: string[] = [], replace: Record<string, string> = {}) {
  const args: Record<string, string> = {
    '--journals': path.join(dir, `${MARKER}-journals`),
    '--sidecar': path.join(dir, `${MARKER}.sqlite`),
    '--routes': path.join(dir, `${MARKER}-routes.json`),
    '--qualification': path.join(dir, `${MARKER}-qualification.json`),
    '--agent-config': path.join(dir, `${MARKER}-agent.json`),
    '--app-allowlist': path.join(dir, `${MARKER}-allow.json`),
    ...replace,
  };
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIO = { stdout: (t) => out.push(t), stderr: (t) => err.push(t), readStdin: async () => new Uint8Array(), env: {}, cwd: REPO };
  const code = await clearingCommand([...Object.entries(args).flat(), ...extra], io);
  return { code, stdout: out.join(''), stderr: err.join('') };
}

describe('privacy: planted markers never reach an output', () => {
  it('a full analysis prints codes and numbers only', async () => {
    const { code, stdout, stderr } = await run();
    expect(code).toBe(0);
    const record = JSON.parse(stdout);
    // The analysis really looked at the marked inputs: results were seen, skips and the odd API were counted.
    expect(record.journals).toMatchObject({ contributing: 3, skippedJournals: { invalid: 1, inherited: 1 } });
    expect(record.boundaries.skippedBoundaries.unsupported_api).toBe(3);
    expect(record.apis[0].identity.plainTextCandidates).toBeGreaterThan(0);
    expect(stdout.toLowerCase()).not.toContain(MARKER.toLowerCase());
    expect(stderr.toLowerCase()).not.toContain(MARKER.toLowerCase());
  });

  it('the --out file carries no marker either', async () => {
    const out = path.join(dir, 'report.json');
    const { code } = await run(['--out', out]);
    expect(code).toBe(0);
    expect(fs.readFileSync(out, 'utf8')).not.toContain(MARKER);
  });

  it('invalid inputs and refusals stay value-free', async () => {
    fs.writeFileSync(path.join(dir, `${MARKER}-bad-routes.json`), `{"${MARKER}": [`);
    const cases = [
      await run([], { '--routes': path.join(dir, `${MARKER}-bad-routes.json`) }),
      await run([], { '--sidecar': path.join(dir, `${MARKER}-missing.sqlite`) }),
      await run([], { '--agent-config': path.join(dir, `${MARKER}-routes.json`) }),
      await run(['--out', path.join(dir, `${MARKER}-routes.json`)]),
    ];
    for (const { code, stdout, stderr } of cases) {
      expect(code).toBe(2);
      expect(stdout).not.toContain(MARKER);
      expect(stderr).not.toContain(MARKER);
    }
  });
});
