// The library entry (src/index.ts → `import … from 'ctxray'`) from the sources: every content shape gives the
// record the CLI prints, options map as the CLI's do, and bad input is refused with a clear message.
// tests/package/install.test.ts runs the same entry from an installed tarball.
import { spawnSync } from 'node:child_process';
import { createReadStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { analyze, clearing, dupes, UnreadableInputError, WorkLimitError } from '../../src/index.ts';

const ROOT = path.resolve(__dirname, '../..');
const BIN = path.join(ROOT, 'bin/ctxray.mjs');
const CHAT = path.join(ROOT, 'examples/synthetic-openai-chat-tools-reordered.jsonl');
const BUILD_CASE = path.join(ROOT, 'examples/clearing/build');

function cliJson(args: string[]): unknown {
  return JSON.parse(spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 }).stdout);
}

const sessionFiles = (record: unknown): string[] => ((record as { sessions?: { file: string }[] }).sessions ?? []).map((row) => row.file);

/** sessions[].file is the input's name (the CLI's file name, the library's `name` or "input"): compared apart. */
function withoutSessionFiles(record: unknown): unknown {
  const { sessions, ...rest } = record as { sessions?: { file: string }[] };
  return { ...rest, sessions: sessions?.map(({ file: _file, ...row }) => row) };
}

describe('analyze', () => {
  const text = readFileSync(CHAT, 'utf8');
  const cli = cliJson(['analyze', CHAT, '--json', '-']);

  it('gives the CLI\'s record for a string, bytes, a web stream, a Node stream and string chunks alike', async () => {
    const half = text.length >> 1;
    const records = await Promise.all([
      analyze(text),
      analyze(new Uint8Array(readFileSync(CHAT))),
      analyze(Readable.toWeb(createReadStream(CHAT)) as ReadableStream<Uint8Array>),
      analyze({ name: 'chat.jsonl', content: createReadStream(CHAT, { highWaterMark: 1024 }) }),
      analyze((async function* () {
        yield text.slice(0, half);
        yield text.slice(half);
      })()),
    ]);
    for (const record of records) expect(withoutSessionFiles(record)).toEqual(withoutSessionFiles(cli));
    expect(records.map((record) => sessionFiles(record))).toEqual([['input'], ['input'], ['input'], ['chat.jsonl'], ['input']]);
    expect(records[0]!.requests).toHaveLength(8);
  });

  it('takes several named inputs as one analysis, as several files on the command line are', async () => {
    const record = await analyze([
      { name: 'a.jsonl', content: text },
      { name: 'b.jsonl', content: text },
    ]);
    expect(withoutSessionFiles(record)).toEqual(withoutSessionFiles(cliJson(['analyze', CHAT, CHAT, '--json', '-'])));
    expect(record.files).toHaveLength(2);
    expect(sessionFiles(record)).toEqual(['a.jsonl', 'b.jsonl']);
  });

  it('maps --format and --model as the CLI does', async () => {
    const record = await analyze(text, { format: 'openai', model: 'gpt-4.1' });
    expect(withoutSessionFiles(record)).toEqual(withoutSessionFiles(cliJson(['analyze', CHAT, '--format', 'openai', '--model', 'gpt-4.1', '--json', '-'])));
    expect(new Set(record.requests.map((request) => request.model))).toEqual(new Set(['gpt-4.1']));
  });

  it('rescales Claude estimates by recorded usage by default, as the CLI does, and not when told not to', async () => {
    // A synthetic gateway capture whose responses record 80 and 140 prompt tokens (≈1.4× the estimates of 57 and 102,
    // inside the 0.5–2× band calibration accepts).
    const capture = [80, 140]
      .map((input, i) =>
        JSON.stringify({
          request: { timestamp: `2026-03-01T10:00:0${i}.000Z`, method: 'POST', path: '/v1/messages', body: { model: 'claude-sonnet-4-5', max_tokens: 64, messages: [{ role: 'user', content: `synthetic question ${'lorem ipsum '.repeat(20 * (i + 1))}` }] } },
          response: { timestamp: `2026-03-01T10:00:0${i}.500Z`, status: 200, body: { usage: { input_tokens: input, output_tokens: 5, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 } } },
        }),
      )
      .join('\n');
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ctxray-library-'));
    const file = path.join(dir, 'synthetic-capture.jsonl');
    writeFileSync(file, `${capture}\n`);
    try {
      const calibrated = await analyze({ name: 'synthetic-capture.jsonl', content: capture });
      const plain = await analyze({ name: 'synthetic-capture.jsonl', content: capture }, { usageCalibration: false });
      expect(calibrated).toEqual(cliJson(['analyze', file, '--json', '-']));
      expect(plain).toEqual(cliJson(['analyze', file, '--no-usage-calibration', '--json', '-']));
      const tokens = (record: { requests: { tokens: { total: number } }[] }) => record.requests.reduce((sum, request) => sum + request.tokens.total, 0);
      expect(tokens(calibrated)).toBeGreaterThan(1.3 * tokens(plain));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses an unknown format, content of the wrong type, and inputs that yield no request as the CLI does', async () => {
    await expect(analyze(text, { format: 'openai-batch' as never })).rejects.toThrow('format must be one of anthropic, anthropic-messages, openai');
    await expect(analyze(42 as never)).rejects.toThrow('content must be a Uint8Array, a string, a ReadableStream or an async iterable');
    const gz = await analyze({ name: 'log.jsonl.gz', content: text }).catch((error: unknown) => error);
    expect(gz).toBeInstanceOf(UnreadableInputError);
    expect((gz as UnreadableInputError).problems).toEqual(['log.jsonl.gz: the file name ends in .gz but the data does not start with the gzip magic bytes 1f 8b']);
    const words = await analyze([{ name: 'notes.txt', content: 'x' }, { name: 'chat.jsonl', content: text }]).catch((error: unknown) => error);
    expect((words as UnreadableInputError).problems).toEqual(['notes.txt:1: not JSON, JSONL or YAML: the first non-blank line starts with a letter']);
  });

  it('takes the CLI\'s work limits: a read past one rejects with its code', async () => {
    const limited = await analyze(text, { limits: { maxRecords: 3 } }).catch((error: unknown) => error);
    expect(limited).toBeInstanceOf(WorkLimitError);
    expect([(limited as WorkLimitError).code, (limited as WorkLimitError).limit, (limited as WorkLimitError).line]).toEqual(['LIMIT_RECORDS', 3, 4]);
  });

  it('takes an array of plain contents too, naming them input-1, input-2', async () => {
    const bytes = new TextEncoder().encode(text);
    const record = await analyze([bytes, bytes]);
    expect(withoutSessionFiles(record)).toEqual(withoutSessionFiles(cliJson(['analyze', CHAT, CHAT, '--json', '-'])));
    expect(sessionFiles(record)).toEqual(['input-1', 'input-2']);
  });

  it('stops when its signal is aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(analyze(text, { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
  });
});

/** A stream that never yields a byte, and whether it was told to stop. */
function stalledStream(): { stream: ReadableStream<Uint8Array>; cancelled: () => boolean } {
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>({
    pull: () => new Promise<void>(() => undefined),
    cancel: () => {
      cancelled = true;
    },
  });
  return { stream, cancelled: () => cancelled };
}

describe('a signal stops every entry promptly, whatever the source is doing', () => {
  const entries: [string, (content: ReadableStream<Uint8Array>, signal: AbortSignal) => Promise<unknown>][] = [
    ['analyze', (content, signal) => analyze(content, { signal })],
    ['dupes', (content, signal) => dupes(content, { signal })],
    ['clearing', (content, signal) => clearing({ journals: [content], sidecar: new Uint8Array(0), routes: '{}', qualification: '{}', signal })],
  ];
  it.each(entries)('%s rejects with an AbortError within 100 ms of the abort and cancels a stalled stream', async (_name, run) => {
    const { stream, cancelled } = stalledStream();
    const controller = new AbortController();
    const started = run(stream, controller.signal).then(
      () => 'resolved',
      (error: unknown) => error,
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    const abortedAt = performance.now();
    controller.abort();
    const error = await started;
    expect(performance.now() - abortedAt).toBeLessThan(100);
    expect(error).toMatchObject({ name: 'AbortError' });
    expect(cancelled()).toBe(true);
  });

  it('AbortSignal.timeout gives an AbortError too, its TimeoutError as the cause', async () => {
    const { stream, cancelled } = stalledStream();
    const error = await analyze(stream, { signal: AbortSignal.timeout(200) }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'AbortError' });
    expect((error as { cause?: { name?: string } }).cause?.name).toBe('TimeoutError');
    expect(cancelled()).toBe(true);
  });

  it('a slow Node stream is destroyed at the abort, not at its next chunk', async () => {
    const slow = new Readable({ read() {} });
    slow.push('{"model":"gpt-4o","messages":[]}\n');
    const controller = new AbortController();
    const pending = analyze(slow, { signal: controller.signal }).catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort();
    expect(await pending).toMatchObject({ name: 'AbortError' });
    expect(slow.destroyed).toBe(true);
  });
});

describe('dupes', () => {
  it('gives the CLI\'s record: fail for the re-read example, unknown for text that is no input it knows', async () => {
    const reread = path.join(ROOT, 'examples/synthetic-anthropic-file-reread.jsonl');
    const record = await dupes(createReadStream(reread));
    expect(record.result).toBe('fail');
    expect(record).toEqual(cliJson(['dupes', reread]));
    const limited = await dupes(createReadStream(reread), { limits: { maxRecords: 3 } });
    expect([limited.result, limited.reason]).toEqual(['unknown', 'LIMIT_RECORDS']);
    const unknown = await dupes('not json at all');
    expect([unknown.result, unknown.reason]).toEqual(['unknown', expect.any(String)]);
  });
});

describe('clearing', () => {
  const file = (name: string) => readFileSync(path.join(BUILD_CASE, name));
  const journals = ['session-1.jsonl', 'session-2.jsonl', 'session-3.jsonl', 'session-4.jsonl'].map((name) => file(`journals/${name}`));
  const inputs = {
    journals,
    sidecar: file('sidecar.sqlite'),
    routes: file('routes.json').toString('utf8'),
    qualification: JSON.parse(file('qualification.json').toString('utf8')) as unknown,
    agentConfig: file('agent-config.json'),
    appAllowlist: file('app-allowlist.json'),
  };

  it('gives the CLI\'s BUILD record for the BUILD example case (JSON as text, bytes or parsed)', async () => {
    const record = await clearing(inputs);
    expect(record.verdict).toBe('BUILD');
    expect(record).toEqual(
      cliJson([
        'clearing', '--journals', path.join(BUILD_CASE, 'journals'), '--sidecar', path.join(BUILD_CASE, 'sidecar.sqlite'),
        '--routes', path.join(BUILD_CASE, 'routes.json'), '--qualification', path.join(BUILD_CASE, 'qualification.json'),
        '--agent-config', path.join(BUILD_CASE, 'agent-config.json'), '--app-allowlist', path.join(BUILD_CASE, 'app-allowlist.json'),
      ]),
    );
  });

  it('locates routes that are not JSON and refuses a sidecar with a companion, as the CLI does', async () => {
    const broken = await clearing({ ...inputs, routes: '{ not json' });
    expect(broken.complete).toBe(false);
    expect(broken.inputErrors).toContainEqual({ input: 'routes', reason: 'not_json', at: '' });
    const companion = await clearing({ ...inputs, sidecarHasCompanion: true });
    expect(companion.codes).toContain('SIDECAR_NOT_OFFLINE');
  });
});
