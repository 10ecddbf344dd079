import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { clearingCommand, parseClearingArgs } from '../../src/cli/commands/clearing.ts';
import type { CliIO } from '../../src/cli/io.ts';
import { writeExamples, type ExampleCase } from '../../scripts/generate-clearing-examples.ts';
import { buildSidecar } from '../../src/core/clearing/sidecar-writer.ts';
import { loadSql } from './helpers.ts';

const REPO = path.resolve(__dirname, '../..');
const PI = path.resolve(REPO, '../shared/fixtures/real/transcripts/pi');

function captureIO(): CliIO & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    stdout: (text) => out.push(text),
    stderr: (text) => err.push(text),
    readStdin: async () => new Uint8Array(),
    env: {},
    cwd: REPO,
  };
}

function caseArgs(dir: string): string[] {
  const args = ['--journals', path.join(dir, 'journals'), '--sidecar', path.join(dir, 'sidecar.sqlite')];
  args.push('--routes', path.join(dir, 'routes.json'), '--qualification', path.join(dir, 'qualification.json'));
  if (fs.existsSync(path.join(dir, 'agent-config.json'))) args.push('--agent-config', path.join(dir, 'agent-config.json'));
  if (fs.existsSync(path.join(dir, 'app-allowlist.json'))) args.push('--app-allowlist', path.join(dir, 'app-allowlist.json'));
  return args;
}

async function run(args: string[]) {
  const io = captureIO();
  const code = await clearingCommand(args, io);
  const stdout = io.out.join('');
  return { code, stdout, stderr: io.err.join(''), record: stdout ? JSON.parse(stdout) : null };
}

let tmp: string;
let cases: ExampleCase[];
beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxray-clearing-'));
  cases = await writeExamples(path.join(tmp, 'examples'));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('generated examples (synthetic) reach their stated verdicts', () => {
  it('covers BUILD, STOP and several distinct DEFER causes', () => {
    const verdicts = cases.map((example) => example.expected.verdict);
    expect(verdicts).toContain('BUILD');
    expect(verdicts).toContain('STOP');
    const deferCauses = new Set(cases.filter((c) => c.expected.verdict === 'DEFER').map((c) => c.expected.apis[0]?.codes[0]));
    expect(deferCauses.size).toBeGreaterThanOrEqual(6);
  });

  it('every case gives its expected verdict and codes', async () => {
    for (const example of cases) {
      const dir = path.join(tmp, 'examples', example.name);
      const expected = JSON.parse(fs.readFileSync(path.join(dir, 'expected.json'), 'utf8'));
      const { code, record } = await run(caseArgs(dir));
      expect({ name: example.name, code, verdict: record.verdict }).toEqual({ name: example.name, code: 0, verdict: expected.verdict });
      expect(record.apis.map((api: { api: string; verdict: string; codes: string[] }) => ({ api: api.api, verdict: api.verdict, codes: api.codes }))).toEqual(expected.apis);
    }
  });

  it('is deterministic: a second generation writes identical journals and sidecars', async () => {
    const again = path.join(tmp, 'again');
    await writeExamples(again);
    for (const name of ['build', 'defer-skipped-journals']) {
      for (const file of ['sidecar.sqlite', 'journals/session-1.jsonl', 'expected.json']) {
        expect(fs.readFileSync(path.join(again, name, file)).equals(fs.readFileSync(path.join(tmp, 'examples', name, file)))).toBe(true);
      }
    }
  });

  it('the checked-in examples (examples/clearing) give their stated verdicts and match the generator', async () => {
    for (const example of cases) {
      const committed = path.join(REPO, 'examples/clearing', example.name);
      const expected = fs.readFileSync(path.join(committed, 'expected.json'), 'utf8');
      expect(expected).toBe(fs.readFileSync(path.join(tmp, 'examples', example.name, 'expected.json'), 'utf8'));
      const { code, record } = await run(caseArgs(committed));
      // A stale qualification.json (qualification sources edited since) shows up here: rerun the generator.
      expect({ name: example.name, code, verdict: record.verdict }).toEqual({
        name: example.name,
        code: 0,
        verdict: JSON.parse(expected).verdict,
      });
    }
  });
});

describe('several APIs in one analysis', () => {
  it('judges each API on its own denominators; overall BUILD needs every API to build', async () => {
    const dir = path.join(tmp, 'multi');
    fs.mkdirSync(path.join(dir, 'journals'), { recursive: true });
    for (const name of ['build', 'defer-codex-wire-unproven']) {
      for (const file of fs.readdirSync(path.join(tmp, 'examples', name, 'journals'))) {
        fs.copyFileSync(path.join(tmp, 'examples', name, 'journals', file), path.join(dir, 'journals', `${name}-${file}`));
      }
    }
    const SQL = await loadSql();
    const { exampleRows } = await import('./helpers.ts');
    fs.writeFileSync(path.join(dir, 'sidecar.sqlite'), buildSidecar(SQL, { rows: exampleRows(path.join(dir, 'journals')) }));
    const routes = JSON.parse(fs.readFileSync(path.join(tmp, 'examples', 'build', 'routes.json'), 'utf8'));
    routes.push({ ...routes[0], api: 'openai-codex-responses' });
    fs.writeFileSync(path.join(dir, 'routes.json'), JSON.stringify(routes));
    for (const file of ['qualification.json', 'agent-config.json', 'app-allowlist.json']) {
      fs.copyFileSync(path.join(tmp, 'examples', 'build', file), path.join(dir, file));
    }
    const { code, record } = await run(caseArgs(dir));
    expect(code).toBe(0);
    expect(record.apis.map((api: { api: string; verdict: string }) => [api.api, api.verdict])).toEqual([
      ['anthropic-messages', 'BUILD'],
      ['openai-codex-responses', 'DEFER'],
    ]);
    expect(record.verdict).toBe('DEFER');
    expect(record.apis[1].evidence.pressuredBoundaries).toBe(12); // not pooled with the other API's 12
  });

  it('--help lists every code with its meaning', async () => {
    const io = captureIO();
    expect(await clearingCommand(['--help'], io)).toBe(0);
    const help = io.out.join('');
    expect(help).toContain('--retrieval-rate');
    expect(help).toContain('WIRE_UNPROVEN');
    expect(help).toContain('The sidecar is in WAL mode');
  });
});

describe('sidecar must be an offline copy', () => {
  it('refuses a WAL-mode copy before opening it (exit 2, SIDECAR_NOT_OFFLINE)', async () => {
    const source = path.join(tmp, 'examples', 'build');
    const copy = path.join(tmp, 'wal');
    fs.cpSync(source, copy, { recursive: true });
    const bytes = fs.readFileSync(path.join(copy, 'sidecar.sqlite'));
    bytes[18] = 2;
    bytes[19] = 2;
    fs.writeFileSync(path.join(copy, 'sidecar.sqlite'), bytes);
    const { code, record } = await run(caseArgs(copy));
    expect(code).toBe(2);
    expect(record).toMatchObject({ complete: false, verdict: 'DEFER', codes: ['SIDECAR_NOT_OFFLINE'] });
    expect(record.apis[0].codes[0]).toBe('SNAPSHOT_INCOMPLETE');
  });

  it('refuses a sidecar with a companion file, whatever its case', async () => {
    const copy = path.join(tmp, 'companion');
    fs.cpSync(path.join(tmp, 'examples', 'build'), copy, { recursive: true });
    fs.writeFileSync(path.join(copy, 'SIDECAR.sqlite-WAL'), '');
    const { code, record } = await run(caseArgs(copy));
    expect(code).toBe(2);
    expect(record.codes).toEqual(['SIDECAR_NOT_OFFLINE']);
  });
  it('looks for companions beside the resolved target of a symlinked sidecar too', async () => {
    const real = path.join(tmp, 'real-db');
    fs.cpSync(path.join(tmp, 'examples', 'build'), real, { recursive: true });
    fs.writeFileSync(path.join(real, 'sidecar.sqlite-shm'), '');
    const linked = path.join(tmp, 'linked');
    fs.cpSync(path.join(tmp, 'examples', 'build'), linked, { recursive: true });
    fs.rmSync(path.join(linked, 'sidecar.sqlite'));
    fs.symlinkSync(path.join(real, 'sidecar.sqlite'), path.join(linked, 'sidecar.sqlite'));
    const { code, record } = await run(caseArgs(linked));
    expect(code).toBe(2);
    expect(record.codes).toEqual(['SIDECAR_NOT_OFFLINE']);
  });
});

describe('arguments and --out safety', () => {
  it('parses several journal paths and rejects bad arguments', () => {
    const parsed = parseClearingArgs(['--journals', 'a', 'b', '--sidecar', 's', '--routes', 'r', '--qualification', 'q', '--retrieval-rate', '0.2']);
    expect(parsed).toMatchObject({ ok: true, args: { journals: ['a', 'b'], retrievalRate: 0.2 } });
    expect(parseClearingArgs(['--journals', '--sidecar', 's'])).toMatchObject({ ok: false });
    expect(parseClearingArgs(['__proto__', 'x'])).toMatchObject({ ok: false, message: 'unknown argument (a bare value)' });
    expect(parseClearingArgs(['--journals', 'a', '--sidecar', 's', '--sidecar', 't'])).toMatchObject({ ok: false, message: '--sidecar given twice' });
    expect(parseClearingArgs(['--journals', 'a', '--sidecar', 's', '--routes', 'r'])).toMatchObject({ ok: false, message: '--qualification is required' });
    expect(parseClearingArgs(['--journals', 'a', '--sidecar', 's', '--routes', 'r', '--qualification', 'q', '--retrieval-rate', '1.5'])).toMatchObject({ ok: false });
  });

  it('writes --out exclusively and refuses an existing file or an input', async () => {
    const dir = path.join(tmp, 'examples', 'build');
    const out = path.join(tmp, 'record.json');
    const first = await run([...caseArgs(dir), '--out', out]);
    expect(first.code).toBe(0);
    expect(JSON.parse(fs.readFileSync(out, 'utf8')).verdict).toBe('BUILD');
    const before = fs.readFileSync(out);
    const again = await run([...caseArgs(dir), '--out', out]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('OUTPUT_EXISTS');
    expect(fs.readFileSync(out).equals(before)).toBe(true);
    const onto = await run([...caseArgs(dir), '--out', path.join(dir, 'routes.json')]);
    expect(onto.code).toBe(2);
    const inside = await run([...caseArgs(dir), '--out', path.join(dir, 'journals', 'new.json')]);
    expect(inside.code).toBe(2);
  });

  it('reports invalid routes as INPUT_INVALID with a located, value-free reason', async () => {
    const copy = path.join(tmp, 'bad-routes');
    fs.cpSync(path.join(tmp, 'examples', 'build'), copy, { recursive: true });
    const routes = JSON.parse(fs.readFileSync(path.join(copy, 'routes.json'), 'utf8'));
    routes[0].drainTokens = routes[0].triggerTokens;
    fs.writeFileSync(path.join(copy, 'routes.json'), JSON.stringify(routes));
    const { code, record, stderr } = await run(caseArgs(copy));
    expect(code).toBe(2);
    expect(record.codes).toEqual(['INPUT_INVALID']);
    expect(record.inputErrors).toEqual([{ input: 'routes', reason: 'value_out_of_range', at: '[0].drainTokens' }]);
    expect(stderr).toContain('routes at [0].drainTokens: value out of range');
  });

  it('spawned CLI: exit 0 for a complete analysis, 2 for no journals', () => {
    const dir = path.join(tmp, 'examples', 'build');
    const ok = spawnSync('node', ['bin/ctxray.mjs', 'clearing', ...caseArgs(dir)], { cwd: REPO, encoding: 'utf8' });
    expect(ok.status).toBe(0);
    expect(JSON.parse(ok.stdout).verdict).toBe('BUILD');
    const empty = path.join(tmp, 'empty-journals');
    fs.mkdirSync(empty);
    const args = caseArgs(dir);
    args[1] = empty;
    const none = spawnSync('node', ['bin/ctxray.mjs', 'clearing', ...args], { cwd: REPO, encoding: 'utf8' });
    expect(none.status).toBe(2);
    expect(JSON.parse(none.stdout).codes).toEqual(['NO_JOURNALS']);
  });
});

const piPresent = fs.existsSync(PI);
(piPresent ? describe : describe.skip)(`real pi sessions end to end (${piPresent ? 'present' : 'absent: ../shared/fixtures/real not found'})`, () => {
  it('gives a DEFER verdict with fixed codes and no crash', async () => {
    const dir = path.join(tmp, 'examples', 'build');
    const args = caseArgs(dir);
    args[1] = PI;
    args[3] = path.join(tmp, 'empty.sqlite');
    fs.copyFileSync(path.join(tmp, 'examples', 'defer-cold-evidence', 'sidecar.sqlite'), args[3]);
    const { code, record, stderr } = await run(args);
    expect(code).toBe(0);
    expect(record.journals).toMatchObject({ selected: 2, contributing: 1, skippedJournals: { inherited: 1 } });
    expect(record.boundaries.skippedBoundaries).toEqual({ owner_missing: 0, unsupported_api: 1, duplicate: 0 });
    expect(record.verdict).toBe('DEFER');
    const api = record.apis[0];
    expect(api.codes).toEqual(expect.arrayContaining(['REPRESENTATIVENESS_INSUFFICIENT', 'COLD_EVIDENCE_INSUFFICIENT', 'IDENTITY_UNPROVEN']));
    expect(api.usage.requests).toBe(452);
    expect(stderr).toContain('journal #1 skipped (inherited)');
  });
});

describe('output record matches docs/clearing/clearing.schema.json', () => {
  it('validates every example record and an incomplete one', async () => {
    const { default: Ajv } = await import('ajv');
    const schema = JSON.parse(fs.readFileSync(path.join(REPO, 'docs/clearing/clearing.schema.json'), 'utf8'));
    const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
    const records: unknown[] = [];
    for (const example of cases) records.push((await run(caseArgs(path.join(tmp, 'examples', example.name)))).record);
    const wal = path.join(tmp, 'schema-wal');
    fs.cpSync(path.join(tmp, 'examples', 'build'), wal, { recursive: true });
    fs.writeFileSync(path.join(wal, 'sidecar.sqlite-journal'), '');
    records.push((await run(caseArgs(wal))).record);
    for (const record of records) {
      const valid = validate(record);
      expect(validate.errors ?? []).toEqual([]);
      expect(valid).toBe(true);
    }
    // A record with a missing field or an unknown code is rejected (the schema can fail).
    const broken = JSON.parse(JSON.stringify(records[0]));
    broken.apis[0].codes = ['SOMETHING_ELSE'];
    expect(validate(broken)).toBe(false);
  });
});
