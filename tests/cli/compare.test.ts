// `ctxray compare` in-process on the synthetic cache-bust example and its synthetic fixed twin: as logs, as
// analysis records and as folders; the JSON record against docs/compare.schema.json; --fail-if-worse; bad input.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeCommand } from '../../src/cli/commands/analyze.ts';
import { compareCommand } from '../../src/cli/commands/compare.ts';
import { runInProcess } from './in-process.ts';

const root = path.resolve(__dirname, '../..');
const BUST = path.join(root, 'examples/synthetic-anthropic-agent-cache-bust.jsonl.gz');
const FIXED = path.join(root, 'examples/synthetic-anthropic-agent-cache-fixed.jsonl.gz');
const validate = new Ajv2020({ allErrors: true, strict: true }).compile(JSON.parse(fs.readFileSync(path.join(root, 'docs/compare.schema.json'), 'utf8')) as object);

interface Row {
  metric?: string;
  category?: string;
  before: number | null;
  after: number | null;
  change: number | null;
  verdict?: string;
}
interface CompareJson {
  schema: string;
  metrics: Row[];
  tokensByCategory: Row[];
  findings: { code: string }[];
}
interface Totals {
  requests: number;
  tokens: number;
  byCategory: Record<string, number>;
  cost: { actual: number; optimized: number; potentialSavings: number };
}

let dir = '';
let bustTotals: Totals;
let fixedTotals: Totals;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxray-compare-'));
  for (const [file, name] of [
    [BUST, 'bust.json'],
    [FIXED, 'fixed.json'],
  ] as const) {
    const run = await runInProcess(analyzeCommand, [file, '--json', name], dir);
    expect(run.code).toBe(0);
  }
  bustTotals = (JSON.parse(fs.readFileSync(path.join(dir, 'bust.json'), 'utf8')) as { totals: Totals }).totals;
  fixedTotals = (JSON.parse(fs.readFileSync(path.join(dir, 'fixed.json'), 'utf8')) as { totals: Totals }).totals;
}, 120_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function compareJson(argv: string[]): Promise<CompareJson> {
  const run = await runInProcess(compareCommand, [...argv, '--json', '-'], dir);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  const record = JSON.parse(run.stdout) as CompareJson;
  expect(validate(record), JSON.stringify(validate.errors)).toBe(true);
  return record;
}

const metric = (record: CompareJson, id: string) => record.metrics.find((row) => row.metric === id)!;

describe('ctxray compare', () => {
  it('of the cache-bust example against its fixed twin gives the difference of their analyze --json totals', async () => {
    const record = await compareJson([BUST, FIXED]);
    expect(record.schema).toBe('ctxray.compare/1');
    expect(metric(record, 'requests').change).toBe(fixedTotals.requests - bustTotals.requests);
    expect(metric(record, 'tokens').change).toBe(fixedTotals.tokens - bustTotals.tokens);
    expect(metric(record, 'cost').change).toBeCloseTo(fixedTotals.cost.actual - bustTotals.cost.actual, 12);
    expect(metric(record, 'potentialSavings').change).toBeCloseTo(fixedTotals.cost.potentialSavings - bustTotals.cost.potentialSavings, 12);
    for (const row of record.tokensByCategory) {
      expect(row.change, row.category).toBe((fixedTotals.byCategory[row.category!] ?? 0) - (bustTotals.byCategory[row.category!] ?? 0));
    }
    expect(JSON.stringify(record)).not.toContain('synthetic-anthropic'); // no file names in the record
  });

  it('takes the two analysis records and gives the same comparison', async () => {
    const fromLogs = await compareJson([BUST, FIXED]);
    const fromRecords = await compareJson(['bust.json', 'fixed.json']);
    expect(fromRecords.metrics).toEqual(fromLogs.metrics);
    expect(fromRecords.findings).toEqual(fromLogs.findings);
  });

  it('takes two folders, read as analyze reads them', async () => {
    for (const [file, folder] of [
      [BUST, 'before'],
      [FIXED, 'after'],
    ] as const) {
      fs.mkdirSync(path.join(dir, folder), { recursive: true });
      fs.copyFileSync(file, path.join(dir, folder, path.basename(file)));
    }
    const record = await compareJson(['before', 'after']);
    expect(metric(record, 'cost')).toMatchObject({ before: bustTotals.cost.actual, after: fixedTotals.cost.actual, verdict: 'better' });
    expect(record.findings.map((row) => row.code).sort()).toEqual(['missing_tail_breakpoint', 'volatile_value_in_prefix']);
  }, 120_000);

  it('prints the table: every headline figure with its change', async () => {
    const run = await runInProcess(compareCommand, ['bust.json', 'fixed.json'], dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^ {2}cost +\$4\.3566 +\$0\.8246 +-\$3\.5320 \(-81\.1%\) +better$/m);
    expect(run.stdout).toMatch(/^ {2}cache hit rate +0\.0% +91\.9% +\+91\.9 pp +better$/m);
    expect(run.stdout).toMatch(/^ {2}system +70,512 +70,008 +-504 \(-0\.7%\)$/m);
  });

  it('--fail-if-worse exits 2 only when that metric got worse, and says which', async () => {
    expect((await runInProcess(compareCommand, ['bust.json', 'fixed.json', '--fail-if-worse', 'cost,hit-rate'], dir)).code).toBe(0);
    const worse = await runInProcess(compareCommand, ['fixed.json', 'bust.json', '--fail-if-worse', 'cost', '--fail-if-worse=requests'], dir);
    expect(worse.code).toBe(2);
    expect(worse.stderr).toBe('ctxray compare: --fail-if-worse: cost 0.82456845 -> 4.356612\n');
  });

  it('refuses bad arguments and inputs with exit 1 and a located message', async () => {
    const one = await runInProcess(compareCommand, ['bust.json'], dir);
    expect([one.code, one.stderr.split('\n')[0]]).toEqual([1, 'ctxray compare: give two inputs, before and after (got 1)']);
    const metricRun = await runInProcess(compareCommand, ['bust.json', 'fixed.json', '--fail-if-worse', 'speed'], dir);
    expect(metricRun.code).toBe(1);
    expect(metricRun.stderr).toContain('--fail-if-worse: unknown metric "speed"');
    const missing = await runInProcess(compareCommand, ['bust.json', 'nope.json'], dir);
    expect([missing.code, missing.stderr]).toEqual([1, 'ctxray compare: cannot read nope.json: ENOENT\n']);
    fs.writeFileSync(path.join(dir, 'cut.json'), fs.readFileSync(path.join(dir, 'fixed.json'), 'utf8').slice(0, 300));
    const cut = await runInProcess(compareCommand, ['bust.json', 'cut.json'], dir);
    expect(cut.code).toBe(1);
    expect(cut.stderr).toMatch(/^ctxray compare: cut\.json: not a readable analysis record: /);
    const record = JSON.parse(fs.readFileSync(path.join(dir, 'fixed.json'), 'utf8')) as { totals: Record<string, unknown> };
    record.totals['requests'] = 'many';
    fs.writeFileSync(path.join(dir, 'wrong.json'), JSON.stringify(record));
    const wrong = await runInProcess(compareCommand, ['bust.json', 'wrong.json'], dir);
    expect([wrong.code, wrong.stderr]).toEqual([1, 'ctxray compare: wrong.json: totals.requests: expected a number, got the string "many"\n']);
    fs.writeFileSync(path.join(dir, 'garbage.jsonl'), 'not json\n');
    const garbage = await runInProcess(compareCommand, ['garbage.jsonl', 'bust.json'], dir);
    expect(garbage.code).toBe(1);
    expect(garbage.stderr).toMatch(/^ctxray analyze: /);
  });
});
