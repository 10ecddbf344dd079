// The app's `compare` query (src/worker/handlers/compare.ts) against `ctxray compare --json` on the same two inputs:
// the synthetic cache-bust example and its synthetic fixed twin as the session on screen and as dropped files, as
// saved `analyze --json` records and as folders; and the refusals a bad side gets, located.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeCommand } from '../../src/cli/commands/analyze.ts';
import { compareCommand } from '../../src/cli/commands/compare.ts';
import { analyzeInput } from '../../src/core/analysis/analyze.ts';
import { compareQuery } from '../../src/worker/handlers/compare.ts';
import { QueryError, type WorkerSession } from '../../src/worker/session.ts';
import { runInProcess } from '../cli/in-process.ts';

const root = path.resolve(__dirname, '../..');
const BUST = path.join(root, 'examples/synthetic-anthropic-agent-cache-bust.jsonl.gz');
const FIXED = path.join(root, 'examples/synthetic-anthropic-agent-cache-fixed.jsonl.gz');
const signal = new AbortController().signal;
const blobOf = (file: string, name = path.basename(file)) => ({ name, blob: new Blob([fs.readFileSync(file)]) });

let dir = '';
let cli: unknown;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxray-compare-query-'));
  const run = await runInProcess(compareCommand, [BUST, FIXED, '--json', '-'], dir);
  expect(run.code).toBe(0);
  cli = JSON.parse(run.stdout);
  for (const [file, name] of [
    [BUST, 'bust.json'],
    [FIXED, 'fixed.json'],
  ] as const) {
    expect((await runInProcess(analyzeCommand, [file, '--json', name], dir)).code).toBe(0);
  }
}, 120_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function sessionOf(file: string): Promise<WorkerSession> {
  const input = blobOf(file);
  const analysis = await analyzeInput([{ name: input.name, bytes: input.blob.stream(), size: input.blob.size }]);
  return { requests: analysis.requests, sections: {}, analysis, inputs: [input] };
}

describe('the compare query', () => {
  it('answers the record `ctxray compare --json` writes, for the session on screen against a dropped file', async () => {
    const session = await sessionOf(BUST);
    const answer = await compareQuery(session, { before: { kind: 'session' }, after: { kind: 'files', inputs: [blobOf(FIXED)] } }, signal);
    expect(answer.record).toEqual(cli);
    // The fixed twin sends the same requests (tests/compare/compare.test.ts checks the figures by hand): same count, lower cost.
    const cost = answer.record.metrics.find((row) => row.metric === 'cost');
    expect(cost?.verdict).toBe('better');
    expect(answer.record.metrics.find((row) => row.metric === 'requests')?.change).toBe(0);
  });

  it('reads saved analysis records as they are, and gives the same comparison', async () => {
    const answer = await compareQuery(null, { before: { kind: 'files', inputs: [blobOf(path.join(dir, 'bust.json'))] }, after: { kind: 'files', inputs: [blobOf(path.join(dir, 'fixed.json'))] } }, signal);
    expect(answer.record).toEqual(cli);
  });

  it('compares two folders as `ctxray compare <folder> <folder>` does', async () => {
    for (const [name, file] of [['before', BUST], ['after', FIXED]] as const) {
      fs.mkdirSync(path.join(dir, name), { recursive: true });
      fs.copyFileSync(file, path.join(dir, name, path.basename(file)));
    }
    const run = await runInProcess(compareCommand, ['before', 'after', '--json', '-'], dir);
    expect(run.code).toBe(0);
    const folderSide = (file: string) => ({ kind: 'folder' as const, inputs: [{ ...blobOf(file), folderPath: path.basename(file) }] });
    const answer = await compareQuery(null, { before: folderSide(BUST), after: folderSide(FIXED) }, signal);
    expect(answer.record).toEqual(JSON.parse(run.stdout));
  }, 60_000);

  it('refuses an unreadable side, located, and a bad record naming its key', async () => {
    const session = await sessionOf(BUST);
    const junk = { name: 'junk.jsonl', blob: new Blob(['this is not JSON\n']) };
    await expect(compareQuery(session, { before: { kind: 'session' }, after: { kind: 'files', inputs: [junk] } }, signal)).rejects.toThrow(/^Unreadable input: junk\.jsonl:1: /);
    const broken = { name: 'broken.json', blob: new Blob(['{"schema":"ctxray.analysis/2","generatedBy":"x","totals":{"byCategory":{},"requests":"3"}}']) };
    await expect(compareQuery(session, { before: { kind: 'session' }, after: { kind: 'files', inputs: [broken] } }, signal)).rejects.toThrow(
      new QueryError('broken.json: totals.requests: expected a number, got the string "3"'),
    );
    const cut = { name: 'cut.json', blob: new Blob(['{"schema":"ctxray.analysis/2", "totals": {']) };
    await expect(compareQuery(session, { before: { kind: 'session' }, after: { kind: 'files', inputs: [cut] } }, signal)).rejects.toThrow(/^cut\.json: not a readable analysis record: /);
  });

  it('refuses malformed params and a session side with nothing analysed', async () => {
    await expect(compareQuery(null, { before: { kind: 'session' }, after: { kind: 'files', inputs: [blobOf(FIXED)] } }, signal)).rejects.toThrow('No input has been analyzed yet.');
    await expect(compareQuery(null, { before: { kind: 'disk' }, after: { kind: 'session' } }, signal)).rejects.toThrow('compare: `before.kind` must be session, files or folder.');
    await expect(compareQuery(null, { before: { kind: 'files', inputs: [] }, after: { kind: 'session' } }, signal)).rejects.toThrow('compare: `before.inputs` must be a non-empty list of { name, blob }.');
    await expect(compareQuery(null, undefined, signal)).rejects.toThrow('compare: `before` must be an object.');
  });
});
