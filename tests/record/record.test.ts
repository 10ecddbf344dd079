// `ctxray record` end to end: a stand-in agent (fixtures/client.mjs) behind the recorder, in front of a fake
// provider on 127.0.0.1 (fake-upstream.ts). Everything is SYNTHETIC; no request leaves the machine.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANTHROPIC_JSON, ANTHROPIC_STREAM, CHAT_JSON, CHAT_STREAM, RESPONSES_STREAM, startFakeUpstream, type FakeUpstream } from './fake-upstream.ts';
import { BIN, runCli, type Finished } from './helpers.ts';

const CLIENT = path.join(__dirname, 'fixtures/client.mjs');

/** Fake credentials, fresh per run so no other text can contain them by chance. */
const SECRETS = {
  FAKE_ANTHROPIC_KEY: `sk-ant-api03-${randomBytes(24).toString('hex')}`,
  FAKE_OPENAI_KEY: `sk-proj-${randomBytes(24).toString('hex')}`,
  FAKE_COOKIE: `sessionKey=${randomBytes(16).toString('hex')}`,
  FAKE_SESSION_TOKEN: randomBytes(16).toString('hex'),
};

/** Every 8-character piece of every secret: none may appear anywhere the recorder writes. */
function secretPieces(secrets: readonly string[] = Object.values(SECRETS)): string[] {
  const pieces = new Set<string>();
  for (const secret of secrets) {
    // Skip the public prefixes (sk-ant-api03-, sessionKey=): pieces of the random part only.
    const random = secret.replace(/^(sk-ant-api03-|sk-proj-|sessionKey=)/, '');
    for (let at = 0; at + 8 <= random.length; at++) pieces.add(random.slice(at, at + 8));
  }
  return [...pieces];
}

/** A capture line as docs/recording.md describes it. */
interface CaptureLine {
  provider: string;
  request: { timestamp: string; method: string; path: string; headers: Record<string, string>; body?: unknown };
  response: { timestamp: string; status: number | null; headers: Record<string, string>; body?: unknown; sse?: string };
  usage: unknown;
}

function captureLines(file: string): CaptureLine[] {
  const bytes = fs.readFileSync(file);
  const text = file.endsWith('.gz') ? gunzipSync(bytes).toString('utf8') : bytes.toString('utf8');
  return text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as CaptureLine);
}

const joined = (chunks: readonly string[]) => Buffer.concat(chunks.map((chunk) => Buffer.from(chunk, 'base64')));

let dir: string;
let upstream: FakeUpstream;
let run: Finished;
let report: { status: number; contentType: string | null; contentEncoding: string | null; chunks: string[] }[];
const capture = () => path.join(dir, 'capture.jsonl.gz');

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxray-record-'));
  upstream = await startFakeUpstream();
  run = await runCli(
    ['record', '--out', 'capture.jsonl.gz', '--upstream-anthropic', upstream.origin, '--upstream-openai', upstream.origin, '--', process.execPath, CLIENT, 'report.json'],
    { cwd: dir, env: { ...SECRETS, FAKE_UPSTREAM: upstream.origin } },
  ).done;
  report = JSON.parse(fs.readFileSync(path.join(dir, 'report.json'), 'utf8')) as typeof report;
}, 60_000);

afterAll(async () => {
  await upstream?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('ctxray record -- node client.mjs', () => {
  it('runs the command to completion and exits with its status', () => {
    expect(run.stderr).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+/);
    expect(run.stderr).toContain('5 exchanges written to');
    expect(run.stderr).toContain('1 forwarded without recording, 1 refused (sent nowhere)');
    expect(run.status).toBe(0);
  });

  it('forwards each request unchanged to the upstream, credentials included, and the unknown path nowhere', () => {
    expect(upstream.received.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /v1/messages?beta=true',
      'POST /v1/messages?beta=true',
      'POST /v1/chat/completions',
      'POST /v1/chat/completions',
      'POST /v1/responses',
      'GET /v1/models',
    ]);
    const [anthropic, , chat] = upstream.received;
    expect(anthropic!.headers['x-api-key']).toBe(SECRETS.FAKE_ANTHROPIC_KEY);
    // A cookie is never passed on: cookies ignore ports, so it may be another local app's session.
    expect(anthropic!.headers['cookie']).toBeUndefined();
    expect(anthropic!.headers['x-session-token']).toBe(SECRETS.FAKE_SESSION_TOKEN);
    expect(anthropic!.headers['anthropic-version']).toBe('2023-06-01');
    expect(chat!.headers['authorization']).toBe(`Bearer ${SECRETS.FAKE_OPENAI_KEY}`);
    expect(chat!.headers['accept-encoding']).toBe('gzip');
    // The Host is the upstream's, not the proxy's.
    expect(anthropic!.headers['host']).toBe(new URL(upstream.origin).host);
    expect(report[6]!.status).toBe(404);
  });

  it('gives the client byte-identical responses, streams in the same chunks in the same order', () => {
    expect(report.slice(0, 6).map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    for (let i = 0; i < 6; i++) expect(joined(report[i]!.chunks).equals(Buffer.concat(upstream.sent[i]!.chunks)), `exchange ${i}`).toBe(true);
    // The compressed Chat response reached the client still compressed, as sent.
    expect(report[2]!.contentEncoding).toBe('gzip');
    // Streams: each event was sent only after the client had acknowledged the one before (the upstream gates
    // on it), so the client's chunks are the upstream's writes, one for one.
    for (const [i, events] of [[1, ANTHROPIC_STREAM], [3, CHAT_STREAM], [4, RESPONSES_STREAM]] as const) {
      expect(report[i]!.contentType).toBe('text/event-stream; charset=utf-8');
      expect(report[i]!.chunks.map((chunk) => Buffer.from(chunk, 'base64').toString('utf8'))).toEqual(events);
    }
  });

  it('writes every request-body exchange with its usage, as sent (a stream\'s pieces merged)', () => {
    const records = captureLines(capture());
    expect(records).toHaveLength(5);
    expect(records.map((r) => r.provider)).toEqual(['anthropic', 'anthropic', 'openai', 'openai', 'openai']);
    for (let i = 0; i < 5; i++) {
      const record = records[i]!;
      expect(record.request.method).toBe('POST');
      expect(record.request.path).toBe(upstream.received[i]!.path);
      expect(record.request.body).toEqual(JSON.parse(upstream.received[i]!.body.toString('utf8')));
      expect(Date.parse(record.request.timestamp)).toBeLessThanOrEqual(Date.parse(record.response.timestamp));
      expect(record.response.status).toBe(200);
    }
    expect(records[0]!.response.body).toEqual(ANTHROPIC_JSON);
    expect(records[1]!.response.sse).toBe(ANTHROPIC_STREAM.join(''));
    // Decompressed for the capture, byte for byte what the upstream compressed.
    expect(records[2]!.response.body).toEqual(CHAT_JSON);
    expect(records[3]!.response.sse).toBe(CHAT_STREAM.join(''));
    expect(records[4]!.response.sse).toBe(RESPONSES_STREAM.join(''));
    expect(records.map((r) => r.usage)).toEqual([
      ANTHROPIC_JSON.usage,
      // message_start's input and cache tokens, message_delta's output
      { input_tokens: 3, cache_creation_input_tokens: 0, cache_read_input_tokens: 1200, output_tokens: 9 },
      CHAT_JSON.usage,
      { prompt_tokens: 1520, completion_tokens: 4, total_tokens: 1524, prompt_tokens_details: { cached_tokens: 1408 } },
      { input_tokens: 900, input_tokens_details: { cached_tokens: 768 }, output_tokens: 12, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 912 },
    ]);
  });

  it('writes no credential nor any piece of one, and only allowlisted headers', () => {
    const records = captureLines(capture());
    expect(records[0]!.request.headers).toEqual({ 'anthropic-version': '2023-06-01', 'anthropic-beta': 'prompt-caching-2024-07-31', 'content-type': 'application/json' });
    expect(records[2]!.request.headers).toEqual({ 'content-type': 'application/json' });
    const written = [gunzipSync(fs.readFileSync(capture())).toString('utf8'), fs.readFileSync(capture()).toString('latin1'), run.stdout, run.stderr];
    const pieces = secretPieces();
    expect(pieces.length).toBeGreaterThan(100);
    for (const text of written) {
      const leaked = pieces.filter((piece) => text.includes(piece));
      expect(leaked).toEqual([]);
    }
    // The control: the same pieces are found where the secrets are (the upstream got them, all but the cookie).
    const forwarded = secretPieces([SECRETS.FAKE_ANTHROPIC_KEY, SECRETS.FAKE_OPENAI_KEY, SECRETS.FAKE_SESSION_TOKEN]);
    expect(forwarded.filter((piece) => JSON.stringify(upstream.received.map((r) => r.headers)).includes(piece)).length).toBe(forwarded.length);
  });

  it('creates the capture with owner-only permissions and a complete gzip stream', () => {
    expect(fs.statSync(capture()).mode & 0o777).toBe(0o600);
    expect(() => gunzipSync(fs.readFileSync(capture()))).not.toThrow();
  });

  it('analyze reads the capture as a gateway log with the recorded usage on every request', async () => {
    const analyzed = await runCli(['analyze', 'capture.jsonl.gz', '--json', '-'], { cwd: dir }).done;
    expect(analyzed.status).toBe(0);
    const record = JSON.parse(analyzed.stdout) as {
      files: { envelope: string; requests: number; errors: number }[];
      requests: { recorded: Record<string, number> | null; cache: { basis: string; read: number; write5m: number; write1h: number; uncached: number } }[];
      totals: { cost: { basis: { recordedRequests: number; simulatedRequests: number } } };
    };
    expect(record.files[0]).toMatchObject({ envelope: 'gateway:request', requests: 5, errors: 0 });
    // Converted to Anthropic's sense (input excludes cache tokens), by hand from the usage above.
    expect(record.requests.map((r) => r.recorded)).toEqual([
      { input: 21, cacheRead: 0, cacheWrite5m: 1200, cacheWrite1h: 0, output: 5, prompt: 1221 },
      { input: 3, cacheRead: 1200, cacheWrite5m: 0, cacheWrite1h: 0, output: 9, prompt: 1203 },
      { input: 220, cacheRead: 1280, cacheWrite5m: 0, cacheWrite1h: 0, output: 7, prompt: 1500 },
      { input: 112, cacheRead: 1408, cacheWrite5m: 0, cacheWrite1h: 0, output: 4, prompt: 1520 },
      { input: 132, cacheRead: 768, cacheWrite5m: 0, cacheWrite1h: 0, output: 12, prompt: 900 },
    ]);
    // Observed first: every request's cache figures are the recorded ones, on the recorded basis.
    expect(record.requests.map((r) => r.cache.basis)).toEqual(Array(5).fill('recorded'));
    expect(record.requests.map((r) => [r.cache.read, r.cache.write5m, r.cache.write1h, r.cache.uncached])).toEqual([
      [0, 1200, 0, 21],
      [1200, 0, 0, 3],
      [1280, 0, 0, 220],
      [1408, 0, 0, 112],
      [768, 0, 0, 132],
    ]);
    expect(record.totals.cost.basis).toEqual({ recordedRequests: 5, simulatedRequests: 0 });
  }, 60_000);
});

/** The SDKs come with @mariozechner/pi-ai (a dependency); the test says so and skips when they cannot be loaded. */
const sdksAvailable = await Promise.all([import('@anthropic-ai/sdk'), import('openai')]).then(
  () => true,
  () => false,
);

describe('ctxray record -- node sdk-client.mjs (the official Anthropic and OpenAI SDKs)', () => {
  it.skipIf(!sdksAvailable)('the SDKs reach the provider through the variables record sets, and each exchange is written with its usage', async () => {
    const finished = await runCli(
      ['record', '--out', 'sdk.jsonl', '--upstream-anthropic', upstream.origin, '--upstream-openai', upstream.origin, '--', process.execPath, path.join(__dirname, 'fixtures/sdk-client.mjs'), 'sdk-report.json'],
      { cwd: dir, env: { ANTHROPIC_API_KEY: SECRETS.FAKE_ANTHROPIC_KEY, OPENAI_API_KEY: SECRETS.FAKE_OPENAI_KEY, ANTHROPIC_BASE_URL: 'https://must-not-be-used.invalid', OPENAI_BASE_URL: 'https://must-not-be-used.invalid/v1' } },
    ).done;
    expect(finished.status, finished.stderr).toBe(0);
    const seen = JSON.parse(fs.readFileSync(path.join(dir, 'sdk-report.json'), 'utf8')) as unknown[];
    const records = captureLines(path.join(dir, 'sdk.jsonl'));
    expect(records.map((r) => `${r.request.method} ${r.request.path}`)).toEqual(['POST /v1/messages', 'POST /v1/messages', 'POST /v1/chat/completions', 'POST /v1/responses']);
    expect(records.map((r) => r.usage)).toEqual([
      ANTHROPIC_JSON.usage,
      { input_tokens: 3, cache_creation_input_tokens: 0, cache_read_input_tokens: 1200, output_tokens: 9 },
      { prompt_tokens: 1520, completion_tokens: 4, total_tokens: 1524, prompt_tokens_details: { cached_tokens: 1408 } },
      { input_tokens: 900, input_tokens_details: { cached_tokens: 768 }, output_tokens: 12, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 912 },
    ]);
    // What the SDKs parsed out of the forwarded responses is what the capture says the provider sent.
    expect(seen[0]).toMatchObject(ANTHROPIC_JSON.usage);
    expect(seen[1]).toMatchObject({ input_tokens: 3, cache_read_input_tokens: 1200, output_tokens: 9 });
    expect(seen[2]).toEqual(records[2]!.usage);
    expect(seen[3]).toEqual(records[3]!.usage);
    const text = fs.readFileSync(path.join(dir, 'sdk.jsonl'), 'utf8');
    expect(secretPieces().filter((piece) => text.includes(piece))).toEqual([]);
  }, 60_000);
});

describe('ctxray record: exit status, refusals', () => {
  const record = (args: string[]) => runCli(['record', ...args], { cwd: dir }).done;

  it("passes the command's exit status through, and 128 + the signal that ended it", async () => {
    const exited = await record(['--out', 'exit7.jsonl', '--', process.execPath, '-e', 'process.exit(7)']);
    expect(exited.status).toBe(7);
    expect(fs.readFileSync(path.join(dir, 'exit7.jsonl'), 'utf8')).toBe('');
    const killed = await record(['--out', 'killed.jsonl', '--', process.execPath, '-e', "process.kill(process.pid, 'SIGTERM')"]);
    expect(killed.status).toBe(128 + os.constants.signals.SIGTERM);
  });

  it('refuses an existing --out before the command starts, leaving the file as it was', async () => {
    const existing = path.join(dir, 'existing.jsonl');
    fs.writeFileSync(existing, 'keep me\n');
    const marker = path.join(dir, 'command-ran');
    const refused = await record(['--out', 'existing.jsonl', '--', process.execPath, '-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, 'x')`]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('(OUTPUT_EXISTS)');
    expect(fs.existsSync(marker)).toBe(false);
    expect(fs.readFileSync(existing, 'utf8')).toBe('keep me\n');
    fs.symlinkSync(path.join(dir, 'nowhere.jsonl'), path.join(dir, 'link.jsonl'));
    const symlink = await record(['--out', 'link.jsonl', '--', process.execPath, '-e', '0']);
    expect(symlink.status).toBe(1);
    expect(symlink.stderr).toContain('(OUTPUT_SYMLINK)');
    expect(fs.existsSync(path.join(dir, 'nowhere.jsonl'))).toBe(false);
  });

  it('prints the capture name through the terminal sanitizer', async () => {
    const name = 'evil\u001b]52;c;aGk=\u0007.jsonl';
    const finished = await record(['--out', name, '--', process.execPath, '-e', '0']);
    expect(finished.status).toBe(0);
    expect(finished.stderr).not.toContain('\u001b');
    expect(finished.stderr).toContain('evil\\u001b]52;c;aGk=\\u0007.jsonl');
  });

  it('exits 127 when the command cannot be found, 1 on bad arguments, with no capture left behind by bad arguments', async () => {
    const missing = await record(['--out', 'missing.jsonl', '--', 'ctxray-no-such-command-xyz']);
    expect(missing.status).toBe(127);
    expect(missing.stderr).toContain('cannot run the command (not found)');
    const bad = await record(['--out', 'bad.jsonl', '--upstream-openai', 'https://api.openai.com/v1', '--', process.execPath, '-e', '0']);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('--upstream-openai must be an origin without a path');
    expect(fs.existsSync(path.join(dir, 'bad.jsonl'))).toBe(false);
  });
});

const hasUlimit = spawnSync('sh', ['-c', 'ulimit -f 4'], { encoding: 'utf8' }).status === 0;

describe.skipIf(!hasUlimit)('ctxray record: a capture that cannot be written', () => {
  it('keeps forwarding, says so once, and exits 1 although the command succeeded', async () => {
    // Every file record writes is capped at 512 bytes (ulimit -f 1): the second record cannot fit.
    const finished = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn('sh', ['-c', 'ulimit -f 1; exec "$@"', 'sh', process.execPath, BIN, 'record', '--out', 'full.jsonl', '--upstream-anthropic', upstream.origin, '--upstream-openai', upstream.origin, '--', process.execPath, CLIENT, '-'], {
        cwd: dir,
        env: { ...process.env, ...SECRETS, FAKE_UPSTREAM: upstream.origin },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      child.on('close', (status) => resolve({ status, stdout, stderr }));
    });
    // The client's report comes on standard output: the size limit holds for its files too.
    const got = JSON.parse(finished.stdout) as { status: number }[];
    expect(got.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200, 404]);
    expect(finished.stderr.match(/the capture cannot be written \(EFBIG\)/g)).toHaveLength(1);
    expect(finished.stderr).toMatch(/is incomplete \(EFBIG\)/);
    expect(finished.status).toBe(1);
    expect(fs.statSync(path.join(dir, 'full.jsonl')).size).toBeLessThanOrEqual(512);
  }, 60_000);
});

describe('ctxray record: stopping', () => {
  it('plain proxy: prints the variables to set, records, and on SIGTERM closes the gzip file and exits 0', async () => {
    const running = runCli(['record', '--out', 'plain.jsonl.gz', '--upstream-anthropic', upstream.origin], { cwd: dir });
    const [, base] = await running.waitForStdout(/export ANTHROPIC_BASE_URL=(http:\/\/127\.0\.0\.1:\d+)\n/);
    expect((await running.waitForStdout(/export OPENAI_BASE_URL=(\S+)\n/))[1]).toBe(`${base}/v1`);
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const request = http.request(`${base}/v1/messages`, { method: 'POST', headers: { 'anthropic-version': '2023-06-01', 'content-type': 'application/json' } }, (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode));
      });
      request.on('error', reject);
      request.end(JSON.stringify({ model: 'claude-sonnet-4-5-20250929', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] }));
    });
    expect(status).toBe(200);
    // The record is appended once the exchange is complete; give the proxy its turn before stopping it.
    await new Promise((resolve) => setTimeout(resolve, 200));
    process.kill(running.pid, 'SIGTERM');
    const finished = await running.done;
    expect(finished.status).toBe(0);
    const records = captureLines(path.join(dir, 'plain.jsonl.gz'));
    expect(records).toHaveLength(1);
    expect(records[0]!.usage).toEqual(ANTHROPIC_JSON.usage);
  });

  it('SIGINT to record ends the child, and record exits with its status after closing the file', async () => {
    const script = [
      "const http = require('http');",
      'const request = http.request(process.env.ANTHROPIC_BASE_URL + "/v1/messages", { method: "POST", headers: { "anthropic-version": "2023-06-01", "content-type": "application/json" } }, (response) => {',
      '  response.resume(); response.on("end", () => { console.log("ready"); setInterval(() => {}, 1000); });',
      '});',
      'request.end(JSON.stringify({ model: "claude-sonnet-4-5-20250929", max_tokens: 8, messages: [{ role: "user", content: "hi" }] }));',
    ].join('\n');
    const running = runCli(['record', '--out', 'interrupted.jsonl.gz', '--upstream-anthropic', upstream.origin, '--', process.execPath, '-e', script], { cwd: dir });
    await running.waitForStdout(/ready/);
    await new Promise((resolve) => setTimeout(resolve, 200));
    process.kill(running.pid, 'SIGINT');
    const finished = await running.done;
    expect(finished.status).toBe(128 + os.constants.signals.SIGINT);
    expect(finished.stderr).toContain('1 exchange written to');
    expect(captureLines(path.join(dir, 'interrupted.jsonl.gz'))).toHaveLength(1);
  });
});
