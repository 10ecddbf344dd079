// The native envelope `{"suite":"v1","blocks":[{"text":"..."}]}` and the adapter envelopes
// `{"adapter":"openai-chat-v1","messages":[...]}` / `{"adapter":"conereplay-v1","trace":{"events":[...]}}`,
// validated strictly: size, UTF-8 and depth are checked on the bytes before anything is parsed.
import { refuse, type ReasonCode, type RefusalDetail } from './codes.ts';
import { MAX_BLOCKS } from './limits.ts';
import { parseBoundedJson } from './bounded-json.ts';
import { openAiChatBlocks } from './adapters/openai-chat-v1.ts';
import { coneReplayBlocks } from './adapters/conereplay-v1.ts';
import { ADAPTERS, isPlainObject, type AdapterName, type SourceBlock, type SourceOutcome } from './types.ts';

export const SUITE = 'v1';

function refused(reason: ReasonCode, detail: RefusalDetail = {}, adapter: AdapterName | null = null): SourceOutcome {
  return { ok: false, refusal: refuse(reason, detail), adapter, mapping: adapter === null ? null : mappingOf(adapter) };
}

function mappingOf(adapter: AdapterName): 'openai-chat-messages-v1' | 'conereplay-events-v1' {
  return adapter === 'openai-chat-v1' ? 'openai-chat-messages-v1' : 'conereplay-events-v1';
}

/**
 * Envelope bytes (already gzip-decompressed) → blocks or a refusal. Checks run cheapest-first and each names
 * its cap: size, then UTF-8, then nesting depth, then JSON syntax, then the envelope's structure.
 */
export function readEnvelopeBytes(bytes: Uint8Array): SourceOutcome {
  const parsed = parseBoundedJson(bytes);
  if (!parsed.ok) return { ok: false, refusal: parsed.refusal, adapter: null, mapping: null };
  return readEnvelopeValue(parsed.value);
}

/**
 * A parsed envelope → blocks or a refusal. Callers that parse themselves must have bounded the depth first.
 * Keys the contract does not define are ignored (not measured, not echoed): that keeps envelopes
 * forward-compatible and lets chat messages carry their usual extra fields.
 */
export function readEnvelopeValue(value: unknown): SourceOutcome {
  if (!isPlainObject(value)) return refused('NOT_AN_OBJECT');
  const suite = value['suite'];
  if ('adapter' in value) {
    const adapter = value['adapter'];
    const known = ADAPTERS.find((name) => name === adapter);
    if (known === undefined) return refused('UNKNOWN_ADAPTER', { field: 'adapter' });
    // An adapter envelope may omit the suite; when it names one, it must be this one.
    if (suite !== undefined && suite !== SUITE) return refused('UNKNOWN_SUITE', { field: 'suite' }, known);
    return known === 'openai-chat-v1' ? openAiChatBlocks(value) : coneReplayBlocks(value);
  }
  if (suite !== SUITE) return refused('UNKNOWN_SUITE', { field: 'suite' });
  const blocks = value['blocks'];
  if (!Array.isArray(blocks)) return refused('BLOCKS_NOT_ARRAY', { field: 'blocks' });
  if (blocks.length > MAX_BLOCKS) {
    return refused('TOO_MANY_BLOCKS', { field: 'blocks', limit: MAX_BLOCKS, actual: blocks.length });
  }
  const out: SourceBlock[] = [];
  for (let b = 0; b < blocks.length; b++) {
    const block: unknown = blocks[b];
    if (!isPlainObject(block)) return refused('BLOCK_NOT_OBJECT', { field: 'blocks', blockIndex: b });
    const text = block['text'];
    if (typeof text !== 'string') return refused('BLOCK_TEXT_NOT_STRING', { field: 'text', blockIndex: b });
    out.push({ text, origin: null });
  }
  return { ok: true, source: { adapter: null, mapping: 'envelope-blocks-v1', blocks: out, ignoredParts: 0 } };
}
