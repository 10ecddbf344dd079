// Only `ctxray record` opens sockets (DESIGN.md, "Network"). Every other command runs here under a preload that
// makes each socket, name lookup and fetch throw and logs the attempt (fixtures/no-network.mjs), on the
// synthetic examples and a hand-written capture; two controls show the preload catches what it should.
// The app's side of the promise is the browser's: e2e/csp.spec.ts and the e2e fixture that fails any test whose
// page contacts another origin.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, REPO } from './helpers.ts';

const PRELOAD = path.join(__dirname, 'fixtures/no-network.mjs');
const EXAMPLES = path.join(REPO, 'examples');
const CLEARING = path.join(EXAMPLES, 'clearing/build');

/** A capture as `ctxray record` writes it (SYNTHETIC), gzipped. */
const CAPTURE_LINE = JSON.stringify({
  provider: 'anthropic',
  request: { timestamp: '2026-12-01T10:00:00.000Z', method: 'POST', path: '/v1/messages', headers: { 'anthropic-version': '2023-06-01' }, body: { model: 'claude-sonnet-4-5-20250929', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] } },
  response: { timestamp: '2026-12-01T10:00:01.000Z', status: 200, headers: { 'content-type': 'text/event-stream' }, sse: 'event: message_start\ndata: {"type":"message_start","message":{"usage":{"input_tokens":9,"output_tokens":1}}}\n\n' },
  usage: { input_tokens: 9, output_tokens: 1 },
});

interface Attempt {
  what: string;
  pipe: string | null;
}

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxray-netfree-'));
  fs.writeFileSync(path.join(dir, 'capture.jsonl.gz'), gzipSync(`${CAPTURE_LINE}\n`));
  fs.mkdirSync(path.join(dir, 'folder'));
  fs.writeFileSync(path.join(dir, 'folder/capture.jsonl'), `${CAPTURE_LINE}\n`);
  fs.copyFileSync(path.join(EXAMPLES, 'synthetic-openai-responses-session.jsonl'), path.join(dir, 'folder/responses.jsonl'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let runs = 0;
function underPreload(args: string[], env: Record<string, string> = {}) {
  const log = path.join(dir, `attempts-${++runs}.log`);
  fs.writeFileSync(log, '');
  const result = spawnSync(process.execPath, [BIN, ...args], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, ANTHROPIC_API_KEY: '', OPENAI_API_KEY: '', ...env, NODE_OPTIONS: `--import=${PRELOAD}`, CTXRAY_NET_LOG: log },
  });
  const attempts = fs
    .readFileSync(log, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Attempt);
  return { status: result.status, stderr: result.stderr, attempts };
}

/**
 * The one socket allowed: tsx, which runs the TypeScript sources, looks for the IPC pipe of a `tsx watch` parent
 * (a Unix-domain path under the temp directory, never a network address) and carries on when there is none.
 */
function isTsxPipe(attempt: Attempt): boolean {
  return attempt.what === 'net.createConnection' && attempt.pipe !== null && attempt.pipe.startsWith(path.join(os.tmpdir(), 'tsx-'));
}

const networkAttempts = (attempts: Attempt[]) => attempts.filter((attempt) => !isTsxPipe(attempt));

describe('analyze, dupes, clearing and qualify touch no socket', () => {
  it.each([
    ['analyze (terminal, --json, --html)', ['analyze', path.join(EXAMPLES, 'synthetic-gateway-interleaved.jsonl'), '--json', 'a.json', '--html', 'a.html'], [0]],
    ['analyze a gzipped log', ['analyze', path.join(EXAMPLES, 'synthetic-anthropic-agent-cache-bust.jsonl.gz')], [0]],
    ['analyze a capture from ctxray record', ['analyze', 'capture.jsonl.gz', '--json', '-'], [0]],
    ['analyze a folder', ['analyze', 'folder'], [0]],
    ['dupes', ['dupes', path.join(EXAMPLES, 'synthetic-openai-chat-tools-reordered.jsonl'), '--markdown'], [0, 1]],
    ['dupes on a capture', ['dupes', 'capture.jsonl.gz'], [0, 1]],
    [
      'clearing',
      ['clearing', '--journals', path.join(CLEARING, 'journals'), '--sidecar', path.join(CLEARING, 'sidecar.sqlite'), '--routes', path.join(CLEARING, 'routes.json'), '--qualification', path.join(CLEARING, 'qualification.json'), '--agent-config', path.join(CLEARING, 'agent-config.json'), '--app-allowlist', path.join(CLEARING, 'app-allowlist.json')],
      [0],
    ],
    ['qualify', ['qualify', '--out', 'q.json'], [0]],
  ])('%s', (_name, args, statuses) => {
    const run = underPreload(args);
    expect(statuses, run.stderr).toContain(run.status);
    expect(networkAttempts(run.attempts)).toEqual([]);
  });

  it('controls: the preload stops record listening and analyze --calibrate calling Anthropic', () => {
    const record = underPreload(['record', '--out', 'control.jsonl', '--', process.execPath, '-e', '0']);
    expect(record.status).toBe(1);
    expect(networkAttempts(record.attempts).map((a) => a.what)).toContain('net.Server#listen');
    const calibrate = underPreload(['analyze', '--calibrate', path.join(EXAMPLES, 'synthetic-anthropic-file-reread.jsonl')], { ANTHROPIC_API_KEY: 'sk-ant-fake' });
    expect(calibrate.status).toBe(1);
    expect(networkAttempts(calibrate.attempts).map((a) => a.what)).toContain('fetch');
  });
});
