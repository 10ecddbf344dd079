// Recorded provider usage → RecordedUsage in Anthropic's sense: `input` excludes every cache token.
// Anthropic reports uncached input directly; OpenAI's prompt/input totals include cached (and, from GPT-5.6,
// cache-write) tokens, which are subtracted here. Which convention applies is read from the fields present, and
// for the ambiguous bare `input_tokens` from the request's wire format.

import type { RecordedUsage, WireFormat } from '../model.ts';
import { isObject, numberField, objectField, type JsonObject } from './json-value.ts';

export function recordedUsage(usage: unknown, format: WireFormat): RecordedUsage | null {
  if (!isObject(usage)) return null;
  if (numberField(usage, 'prompt_tokens') !== null) return fromOpenAiTotals(usage, 'prompt_tokens', 'completion_tokens', 'prompt_tokens_details');
  const anthropicFields =
    numberField(usage, 'cache_read_input_tokens') !== null || numberField(usage, 'cache_creation_input_tokens') !== null;
  if (anthropicFields || (format === 'anthropic-messages' && objectField(usage, 'input_tokens_details') === null)) {
    return fromAnthropic(usage);
  }
  if (numberField(usage, 'input_tokens') !== null) return fromOpenAiTotals(usage, 'input_tokens', 'output_tokens', 'input_tokens_details');
  return null;
}

/**
 * Server-side compaction runs a summarizing pass before the answer, in the same request: the top-level usage is the
 * answer's pass alone, and `iterations` lists every pass (`compaction`, then `message`), each billed. The request's
 * usage is then their sum; without iterations (or an empty list, as Claude Code writes) it is the top level.
 */
function fromAnthropic(usage: JsonObject): RecordedUsage | null {
  const recorded = fromAnthropicPasses(usage);
  // Fast mode bills every token of the call at its own rates (pricing/lookup.ts, atFastPrice).
  if (recorded !== null && usage['speed'] === 'fast') recorded.speed = 'fast';
  return recorded;
}

function fromAnthropicPasses(usage: JsonObject): RecordedUsage | null {
  const iterations = usage['iterations'];
  if (Array.isArray(iterations) && iterations.length > 0) {
    const passes = iterations.map((pass) => (isObject(pass) ? fromAnthropicPass(pass) : null));
    if (passes.every((pass) => pass !== null)) return passes.reduce(addUsage);
  }
  return fromAnthropicPass(usage);
}

function addUsage(a: RecordedUsage, b: RecordedUsage): RecordedUsage {
  return { input: a.input + b.input, cacheRead: a.cacheRead + b.cacheRead, cacheWrite5m: a.cacheWrite5m + b.cacheWrite5m, cacheWrite1h: a.cacheWrite1h + b.cacheWrite1h, output: a.output + b.output };
}

function fromAnthropicPass(usage: JsonObject): RecordedUsage | null {
  const input = numberField(usage, 'input_tokens');
  if (input === null) return null;
  const cacheRead = numberField(usage, 'cache_read_input_tokens') ?? 0;
  const cacheWrite = numberField(usage, 'cache_creation_input_tokens') ?? 0;
  const split = objectField(usage, 'cache_creation');
  let write1h = 0;
  let write5m = cacheWrite;
  if (split !== null) {
    write1h = numberField(split, 'ephemeral_1h_input_tokens') ?? 0;
    const split5m = numberField(split, 'ephemeral_5m_input_tokens') ?? 0;
    // The split should add up to the total; whatever it does not cover is billed at the default 5m TTL.
    write5m = Math.max(split5m, cacheWrite - write1h);
  }
  return { input, cacheRead, cacheWrite5m: write5m, cacheWrite1h: write1h, output: numberField(usage, 'output_tokens') ?? 0 };
}

function fromOpenAiTotals(usage: JsonObject, inputKey: string, outputKey: string, detailsKey: string): RecordedUsage | null {
  const total = numberField(usage, inputKey);
  if (total === null) return null;
  const details = objectField(usage, detailsKey);
  const cached = details ? (numberField(details, 'cached_tokens') ?? 0) : 0;
  const written = details ? (numberField(details, 'cache_write_tokens') ?? 0) : 0;
  return {
    input: Math.max(0, total - cached - written),
    cacheRead: cached,
    // OpenAI has a single write TTL; it is recorded in the 5m slot, the one without a 1h surcharge.
    cacheWrite5m: written,
    cacheWrite1h: 0,
    output: numberField(usage, outputKey) ?? 0,
  };
}
