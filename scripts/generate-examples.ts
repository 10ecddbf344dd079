// Writes the synthetic example inputs in examples/ (run: npm run examples). Deterministic: the same
// seeds give byte-identical files, and every file name and index entry says "synthetic".
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'fflate';
import { rng, systemPrompt, type Rng } from './examples/synthetic-text.ts';
import { TOOLS, agentSession, anthropicRequests, chatRequests, clock, responsesRequests, type Json } from './examples/sessions.ts';

const EXAMPLES_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'examples');

// ---- writing ----------------------------------------------------------------------------------------------
interface ExampleEntry { id: string; title: string; file: string; format: string; requests: number; synthetic: true; description: string }
const index: ExampleEntry[] = [];

function write(id: string, title: string, format: string, description: string, lines: unknown[], gzip: boolean): void {
  const text = lines.map((line) => JSON.stringify(line)).join('\n') + '\n';
  const file = `synthetic-${id}.jsonl${gzip ? '.gz' : ''}`;
  const bytes = new TextEncoder().encode(text);
  writeFileSync(join(EXAMPLES_DIR, file), gzip ? gzipSync(bytes, { level: 9, mtime: 0 }) : bytes);
  index.push({ id, title, file, format, requests: lines.length, synthetic: true, description });
  console.log(`${file}: ${lines.length} records, ${(bytes.length / 1e6).toFixed(2)} MB uncompressed`);
}

mkdirSync(EXAMPLES_DIR, { recursive: true });
const SONNET = 'claude-sonnet-4-5-20250929';
const flagship = agentSession(20261130, 24, [380, 800]);
const flagshipSystem = systemPrompt(rng(11), 28);

write('anthropic-agent-cache-bust', 'Coding agent, 24 turns: timestamp busts the cache', 'anthropic-messages',
  'A 24-turn Anthropic coding-agent session whose system prompt ends with the current time, so the prefix changes on every request; one breakpoint on the system prompt and none on the growing tail.',
  anthropicRequests(flagship, { model: SONNET, system: flagshipSystem, volatileClock: clock('2026-11-02T09:14:05Z', 41), tailBreakpoint: false }), true);
write('anthropic-agent-cache-fixed', 'Coding agent, 24 turns: the fixed twin', 'anthropic-messages',
  'The same session with the timestamp removed and a second breakpoint rolling forward on the latest turn of every request.',
  anthropicRequests(flagship, { model: SONNET, system: flagshipSystem, tailBreakpoint: true }), true);
write('anthropic-file-reread', 'Agent that re-reads the same file', 'anthropic-messages',
  'A 10-turn session that reads src/shipment/tracker.ts three times with identical contents: near-duplicate content in one conversation.',
  anthropicRequests(agentSession(4242, 10, [120, 220], 'src/shipment/tracker.ts'), { model: SONNET, system: systemPrompt(rng(12), 8), tailBreakpoint: true }), false);

const reordered = [...TOOLS.slice(0, 8)];
const swapped = [reordered[0]!, reordered[2]!, reordered[1]!, ...reordered.slice(3)];
write('openai-chat-tools-reordered', 'OpenAI Chat session whose tools get reordered', 'openai-chat',
  'An 8-turn gpt-4o Chat Completions agent loop; from the fourth request on its tool list is rebuilt in another order (read_file and grep_search swap places), which breaks the cached prefix.',
  chatRequests(agentSession(777, 8, [80, 160]), 'gpt-4o-2024-08-06', systemPrompt(rng(13), 10), (k) => (k >= 3 ? swapped : reordered)), false);

write('openai-responses-session', 'OpenAI Responses session with reasoning', 'openai-responses',
  'A 6-turn gpt-5 Responses API agent loop with instructions, encrypted reasoning items, function calls and their outputs (store: false, so every request carries the whole history).',
  responsesRequests(agentSession(31337, 6, [80, 160]), 'gpt-5', systemPrompt(rng(14), 10)), false);

// A gateway log: three conversations of one application interleaved, each record wrapped with its timestamp.
{
  const system = systemPrompt(rng(15), 9);
  const convs = [agentSession(1, 6, [60, 120]), agentSession(2, 5, [60, 120]), agentSession(3, 6, [60, 120])].map((s) => anthropicRequests(s, { model: SONNET, system, tailBreakpoint: true }));
  const records: Json[] = [];
  let t = Date.parse('2026-11-03T14:00:00Z');
  const r: Rng = rng(5);
  for (let k = 0; k < 6; k++) {
    convs.forEach((conv, c) => {
      const body = conv[k];
      if (!body) return;
      // Conversation 2 pauses for seven minutes before its fourth request: its 5-minute entries expire.
      t += (c === 1 && k === 3 ? 420 : r.int(4, 40)) * 1000;
      records.push({ timestamp: new Date(t).toISOString(), request: body });
    });
  }
  write('gateway-interleaved', 'Gateway log: three interleaved conversations', 'anthropic-messages',
    'A proxy log wrapping each request body in {timestamp, request}: three conversations of one application interleaved, one of which pauses for seven minutes.',
    records, false);
}

// Mixed models: the fixed loop on Sonnet with a small Haiku side request after every second turn,
// and a switch to Opus for the last three turns of the main loop.
{
  const session = agentSession(8080, 12, [200, 320]);
  const main = anthropicRequests(session, { model: SONNET, system: systemPrompt(rng(16), 14), tailBreakpoint: true });
  const records: Json[] = [];
  main.forEach((body, k) => {
    records.push(k >= 9 ? { ...body, model: 'claude-opus-4-6' } : body);
    if (k % 2 === 1) records.push({ model: 'claude-haiku-4-5-20251001', max_tokens: 64, messages: [{ role: 'user', content: `Give this session a five-word title: ${session.task}` }] });
  });
  write('mixed-models', 'Mixed models: side requests and a mid-session switch', 'anthropic-messages',
    'A 12-turn Sonnet session with a Haiku title request after every second turn; the main loop switches to Opus 4.6 for its last three requests.',
    records, false);
}

writeFileSync(join(EXAMPLES_DIR, 'index.json'), JSON.stringify(index, null, 2) + '\n');
console.log(`examples/index.json: ${index.length} examples`);
