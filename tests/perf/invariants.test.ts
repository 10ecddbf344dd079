// Invariants that keep the analysis linear and streaming on large logs (no timing asserted):
// - each distinct text is tokenized once, however often an agent loop re-sends it;
// - JSONL (plain or gzip) is read record by record: the reader never pulls far ahead of the records it has
//   handed on, so a log is never held whole;
// - the element cache's fingerprint tells apart ids that differ in a single character.
// Inputs are synthetic (scripts/examples sessions).
import { describe, expect, it, vi } from 'vitest';
import { analyzeInput } from '../../src/core/analysis/analyze.ts';
import { readRequests } from '../../src/core/input/index.ts';
import { jsonFingerprint } from '../../src/core/formats/json-fingerprint.ts';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { agentSession, anthropicRequests } from '../../scripts/examples/sessions.ts';
import { rng, systemPrompt } from '../../scripts/examples/synthetic-text.ts';

// The Claude estimate scales o200k_base counts: the spy sees every text the counter tokenizes.
vi.mock('gpt-tokenizer/encoding/o200k_base', async (importOriginal) => {
  const actual = await importOriginal<typeof import('gpt-tokenizer/encoding/o200k_base')>();
  return { ...actual, countTokens: vi.fn(actual.countTokens) };
});

/** A synthetic 40-turn Claude agent loop: every request re-sends the whole history before it. */
function agentLoopJsonl(turns: number): string {
  const bodies = anthropicRequests(agentSession(11, turns, [20, 40]), {
    model: 'claude-sonnet-4-5-20250929',
    system: systemPrompt(rng(11), 4),
    tailBreakpoint: true,
  });
  return bodies.map((body) => JSON.stringify(body)).join('\n') + '\n';
}

const encoder = new TextEncoder();

describe('tokenizing', () => {
  it('counts each distinct text once over a whole agent loop', async () => {
    const jsonl = agentLoopJsonl(40);
    const estimate = vi.mocked(countTokens);
    estimate.mockClear();
    const analysis = await analyzeInput([{ name: 'synthetic-loop.jsonl', bytes: encoder.encode(jsonl) }]);
    expect(analysis.requests).toHaveLength(40);
    const calls = estimate.mock.calls.map(([text]) => text);
    const texts = new Set(analysis.requests.flatMap((request) => request.segments.map((segment) => segment.text)));
    texts.delete('');
    expect(new Set(calls).size).toBe(calls.length); // no text twice
    for (const text of texts) expect(calls.includes(text)).toBe(true);
    // The loop re-sends its history: far more segments than distinct texts, each text estimated once.
    const segments = analysis.requests.reduce((sum, request) => sum + request.segments.length, 0);
    expect(segments).toBeGreaterThan(5 * texts.size);
  });
});

/**
 * A pull-driven stream over `bytes` in fixed chunks that records how far it has been read; highWaterMark 0, so a
 * chunk is produced only when the reader asks for it.
 */
function meteredStream(bytes: Uint8Array, chunkBytes: number): { stream: ReadableStream<Uint8Array>; pulled: () => number } {
  let at = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (at >= bytes.byteLength) {
          controller.close();
          return;
        }
        const end = Math.min(at + chunkBytes, bytes.byteLength);
        controller.enqueue(bytes.slice(at, end));
        at = end;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, pulled: () => at };
}

async function gzip(bytes: Uint8Array): Promise<Uint8Array> {
  const compressed = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new CompressionStream('gzip'));
  return new Uint8Array(await new Response(compressed).arrayBuffer());
}

describe('streaming', () => {
  // 1,200 records of a 30-turn loop repeated: about 5 MB of JSONL.
  const loop = agentLoopJsonl(30).split('\n').filter((line) => line.length > 0);
  const lines = Array.from({ length: 1200 }, (_, i) => loop[i % loop.length]!);
  const plain = encoder.encode(lines.join('\n') + '\n');
  /** Bytes of the first n records, newlines included. */
  const recordEnd: number[] = [];
  lines.reduce((end, line, i) => (recordEnd[i] = end + encoder.encode(line).byteLength + 1), 0);
  const CHUNK = 16 * 1024;

  it('plain JSONL: when record n is reported, at most two chunks beyond it have been pulled', async () => {
    const { stream, pulled } = meteredStream(plain, CHUNK);
    const ahead: number[] = [];
    const read = await readRequests([{ name: 'synthetic.jsonl', bytes: stream, size: plain.byteLength }], {
      onProgress: (progress) => {
        if (progress.records > 0 && progress.records < lines.length) ahead.push(pulled() - recordEnd[progress.records - 1]!);
      },
    });
    expect(read.requests).toHaveLength(lines.length);
    expect(ahead.length).toBeGreaterThanOrEqual(4); // progress every 256 records
    const longest = Math.max(...lines.map((line) => encoder.encode(line).byteLength));
    for (const bytes of ahead) expect(bytes).toBeLessThanOrEqual(2 * CHUNK + longest);
  });

  it('gzip JSONL: the first progress comes before a tenth of the compressed file has been pulled', async () => {
    const compressed = await gzip(plain);
    const { stream, pulled } = meteredStream(compressed, 4 * 1024);
    const pulledAtProgress: number[] = [];
    const read = await readRequests([{ name: 'synthetic.jsonl.gz', bytes: stream, size: compressed.byteLength }], {
      onProgress: () => pulledAtProgress.push(pulled()),
    });
    expect(read.requests).toHaveLength(lines.length);
    expect(pulledAtProgress[0]!).toBeLessThan(compressed.byteLength / 10);
    // Monotone and reaching the end: the stream was consumed progressively, not at once.
    expect(pulledAtProgress.at(-1)).toBe(compressed.byteLength);
  });
});

describe('element cache fingerprint', () => {
  it('tells apart ids that differ in one character (any position of a short string)', () => {
    const base = 'toolu_5el000';
    const fingerprints = new Set<number>();
    for (let i = 0; i < base.length; i++) {
      const id = base.slice(0, i) + (base[i] === 'x' ? 'y' : 'x') + base.slice(i + 1);
      fingerprints.add(jsonFingerprint({ type: 'tool_result', tool_use_id: id, content: 'ok' }));
    }
    fingerprints.add(jsonFingerprint({ type: 'tool_result', tool_use_id: base, content: 'ok' }));
    expect(fingerprints.size).toBe(base.length + 1);
  });

  it('tells apart same-length long texts that differ in one character (a message stamped with its time)', () => {
    // Synthetic: one 600-character text after a per-request header; only the header's seconds differ.
    const body = 'synthetic message '.repeat(40).slice(0, 580);
    const fingerprints = new Set<number>();
    for (let s = 10; s < 60; s++) fingerprints.add(jsonFingerprint({ role: 'user', content: `[2026-11-01T00:00:${s}Z] ${body}` }));
    expect(fingerprints.size).toBe(50);
  });

  it('samples a string past the budget of fully hashed characters: two 20,000-character texts may collide', () => {
    // Character 5 is not among the 16 sampled ones of a 20,000-character string (0, 1333, 2666, ...).
    const long = 'a'.repeat(20_000);
    const other = long.slice(0, 5) + 'b' + long.slice(6);
    expect(jsonFingerprint({ content: other })).toBe(jsonFingerprint({ content: long }));
    expect(jsonFingerprint({ content: long.slice(1) })).not.toBe(jsonFingerprint({ content: long }));
  });
});
