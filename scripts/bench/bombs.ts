// The bomb shapes of the hostile-input bench (scripts/bench-bombs.ts): each a generator of the file's text, synthetic.
export interface BombShape {
  name: string;
  /** File name under .bench/bombs/. */
  file: string;
  gzip: boolean;
  chunks: () => Iterable<string>;
  /** CLI argument lists to run on the bomb and on the normal input (the file name is appended; `{html}` becomes a fresh report path). */
  commands: string[][];
}

const MIB = 1024 * 1024;
const TINY = '{"model":"claude-sonnet-4-5","messages":[{"role":"user","content":"hi"}]}\n';

function* repeated(unit: string, totalBytes: number): Generator<string> {
  const block = unit.repeat(Math.max(1, Math.floor(MIB / unit.length)));
  for (let written = 0; written < totalBytes; written += block.length) yield block;
}

/** One request of 16,000 blocks that share 60 words and differ in 8: every pair just under Jaccard 0.85. */
function* nearDuplicateSet(): Generator<string> {
  const common = Array.from({ length: 60 }, (_, i) => `w${i}`).join(' ');
  const content = Array.from({ length: 16_000 }, (_, k) => ({ type: 'text', text: `${common} ${Array.from({ length: 8 }, (_, j) => `x${k}_${j}`).join(' ')}` }));
  yield JSON.stringify({ model: 'claude-sonnet-4-5', messages: [{ role: 'user', content }] }) + '\n';
}

/** 41 requests of one conversation, each holding 20,000 blocks rotated against the previous one: 40 broken prefixes. */
function* reorderedHistories(): Generator<string> {
  const blocks = Array.from({ length: 20_000 }, (_, i) => ({ type: 'text', text: `synthetic block ${i}` }));
  for (let r = 0; r < 41; r++) {
    const shift = (r * 7919) % blocks.length;
    const content = [{ type: 'text', text: 'synthetic task' }, ...blocks.slice(shift), ...blocks.slice(0, shift)];
    yield JSON.stringify({ model: 'claude-sonnet-4-5', system: 'synthetic system prompt', messages: [{ role: 'user', content }] }) + '\n';
  }
}

/** The same as OpenAI Chat: 41 requests of 20,000 messages, each request's messages rotated against the previous one. */
function* reorderedChatHistories(): Generator<string> {
  const messages = Array.from({ length: 20_000 }, (_, i) => ({ role: i % 2 === 0 ? 'user' : 'assistant', content: `synthetic message ${i}` }));
  for (let r = 0; r < 41; r++) {
    const shift = (r * 7919) % messages.length;
    const rotated = [...messages.slice(shift), ...messages.slice(0, shift)];
    yield JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'system', content: 'synthetic system prompt' }, ...rotated, { role: 'user', content: 'synthetic task' }] }) + '\n';
  }
}

export function bombShapes(): BombShape[] {
  return [
    // ~7 MB of gzip inflating to 2 GiB of tiny requests (29 M records).
    { name: 'tiny-records-gz', file: 'tiny-2gib.jsonl.gz', gzip: true, chunks: () => repeated(TINY, 2 * 1024 * MIB), commands: [['analyze'], ['dupes']] },
    // 1 M tiny requests, plain (74 MB).
    { name: 'tiny-records-plain', file: 'tiny-1m.jsonl', gzip: false, chunks: () => repeated(TINY, 1_000_000 * TINY.length), commands: [['analyze'], ['dupes']] },
    // ~4 MB of gzip inflating to 4 GiB of newlines.
    { name: 'newlines-gz', file: 'newlines-4gib.jsonl.gz', gzip: true, chunks: () => repeated('\n', 4 * 1024 * MIB), commands: [['analyze'], ['dupes']] },
    // One request of 16,000 blocks, every pair just under the near-duplicate threshold (5 MB).
    { name: 'near-duplicate-set', file: 'near-dup-16000.jsonl', gzip: false, chunks: nearDuplicateSet, commands: [['analyze']] },
    // 41 requests of 20,000 reordered blocks under --html: 40 diffs past the Myers work budget (38 MB).
    { name: 'reordered-histories', file: 'reordered-41x20000.jsonl', gzip: false, chunks: reorderedHistories, commands: [['analyze', '--html', '{html}']] },
    // The same as OpenAI Chat, each block a message (44 MB): the element cache meets 820,000 messages out of place.
    { name: 'reordered-chat-histories', file: 'reordered-chat-41x20000.jsonl', gzip: false, chunks: reorderedChatHistories, commands: [['analyze', '--html', '{html}']] },
    // 3 M records that are not objects ("1"), plain (6 MB): every one a located error until the record limit.
    { name: 'non-object-records', file: 'ones-3m.jsonl', gzip: false, chunks: () => repeated('1\n', 6_000_000), commands: [['analyze'], ['dupes']] },
  ];
}
