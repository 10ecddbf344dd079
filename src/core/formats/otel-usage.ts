// What a GenAI span says of its call: whether it is a model call at all (not an agent run, a tool, an embedding;
// OpenInference's span kinds), and its recorded usage in Anthropic's sense (input without the cache), by the
// conventions and by what each instrumentation actually writes (the AI SDK by version, OpenLIT on Anthropic).

import type { RecordedUsage } from '../model.ts';
import { isObject, type JsonObject } from '../input/json-value.ts';
import { jsonObject, NO_ORIGIN, type Attributes, type SpanOrigin } from './otel-documents.ts';

export const num = (attrs: Attributes, ...keys: string[]): number | null => {
  for (const key of keys) {
    const value = attrs.get(key);
    if (typeof value === 'number' && Number.isFinite(value)) return value;
  }
  return null;
};
export const str = (attrs: Attributes, key: string): string | null => (typeof attrs.get(key) === 'string' ? (attrs.get(key) as string) : null);

/** OpenInference (Arize Phoenix's instrumentations) marks its model calls `openinference.span.kind: LLM`; its other kinds (CHAIN, AGENT, TOOL, EMBEDDING, …) are no call. */
export const isOpenInference = (attrs: Attributes): boolean => attrs.has('openinference.span.kind');

export function isLlmSpan(attrs: Attributes): boolean {
  if (isOpenInference(attrs)) return attrs.get('openinference.span.kind') === 'LLM';
  return ['gen_ai.system', 'gen_ai.provider.name', 'gen_ai.request.model'].some((key) => attrs.has(key)) || num(attrs, 'gen_ai.usage.input_tokens', 'gen_ai.usage.prompt_tokens') !== null;
}

/**
 * GenAI operations that are no model call, though their spans carry gen_ai.* attributes (a provider, a model, even
 * usage): an agent run sums the usage of the calls under it (the AI SDK's `invoke_agent` root span, pydantic-ai's
 * agent run), a tool run or an embedding is no chat request. `gen_ai.operation.name` per the conventions,
 * OpenLLMetry's older `llm.request.type`.
 */
const NOT_A_CALL = new Set(['invoke_agent', 'create_agent', 'execute_tool', 'invoke_workflow', 'embeddings', 'embedding', 'rerank', 'retrieval']);

export function operationOf(attrs: Attributes): string | null {
  const operation = str(attrs, 'gen_ai.operation.name') ?? str(attrs, 'llm.request.type');
  return operation !== null && NOT_A_CALL.has(operation) ? operation : null;
}

const nested = (object: JsonObject | null, ...path: string[]): number | null => {
  let value: unknown = object;
  for (const key of path) value = isObject(value) ? value[key] : undefined;
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
};

/**
 * The AI SDK's cache split of its input count, by version. v6 writes it out (`ai.usage.inputTokenDetails.*`: the
 * count includes the cache). v5 gives `ai.usage.cachedInputTokens` (reads) and v4 only the provider's metadata
 * (`ai.response.providerMetadata`); there the count is the provider's own: Anthropic's and Bedrock's exclude the
 * cache, the others' (OpenAI, Google) include the reads. Null when the span is no AI SDK span.
 */
function aiSdkInput(attrs: Attributes, total: number): { input: number; cacheRead: number; cacheWrite: number } | null {
  const noCache = num(attrs, 'ai.usage.inputTokenDetails.noCacheTokens');
  if (noCache !== null) {
    return { input: noCache, cacheRead: num(attrs, 'ai.usage.inputTokenDetails.cacheReadTokens') ?? 0, cacheWrite: num(attrs, 'ai.usage.inputTokenDetails.cacheWriteTokens') ?? 0 };
  }
  if (!attrs.has('ai.operationId') && !attrs.has('ai.model.provider')) return null;
  const meta = jsonObject(attrs.get('ai.response.providerMetadata'));
  const cacheRead = num(attrs, 'ai.usage.cachedInputTokens') ?? nested(meta, 'anthropic', 'cacheReadInputTokens') ?? nested(meta, 'openai', 'cachedPromptTokens') ?? 0;
  const cacheWrite = nested(meta, 'anthropic', 'cacheCreationInputTokens') ?? nested(meta, 'bedrock', 'usage', 'cacheWriteInputTokens') ?? 0;
  const provider = (str(attrs, 'ai.model.provider') ?? str(attrs, 'gen_ai.system') ?? '').toLowerCase();
  const excludesCache = /^(anthropic|amazon-bedrock|bedrock)/.test(provider);
  return excludesCache ? { input: total, cacheRead, cacheWrite } : { input: Math.max(0, total - cacheRead - cacheWrite), cacheRead, cacheWrite };
}

/**
 * Recorded usage in Anthropic's sense (input without the cache). The conventions' input count includes the cached
 * tokens, so they come out of it; OpenLIT writes Anthropic's own count (without the cache) under the same name, and
 * a count smaller than its cache tokens can only be one without them. The AI SDK: aiSdkInput.
 */
export function spanRecorded(attrs: Attributes, source: SpanOrigin = NO_ORIGIN): RecordedUsage | null {
  const total = num(attrs, 'gen_ai.usage.input_tokens', 'gen_ai.usage.prompt_tokens', 'ai.usage.inputTokens', 'ai.usage.promptTokens', 'llm.token_count.prompt');
  if (total === null) return null;
  const output = num(attrs, 'gen_ai.usage.output_tokens', 'gen_ai.usage.completion_tokens', 'ai.usage.outputTokens', 'ai.usage.completionTokens', 'llm.token_count.completion') ?? 0;
  const aiSdk = aiSdkInput(attrs, total);
  if (aiSdk !== null) return { input: aiSdk.input, cacheRead: aiSdk.cacheRead, cacheWrite5m: aiSdk.cacheWrite, cacheWrite1h: 0, output };
  // OpenInference's llm.token_count.prompt includes the cache as well (its anthropic instrumentation adds it in).
  const cacheRead = num(attrs, 'gen_ai.usage.cache_read_input_tokens', 'gen_ai.usage.cache_read.input_tokens', 'llm.token_count.prompt_details.cache_read') ?? 0;
  const cacheWrite = num(attrs, 'gen_ai.usage.cache_creation_input_tokens', 'gen_ai.usage.cache_creation.input_tokens', 'llm.token_count.prompt_details.cache_write') ?? 0;
  const openLit = source.sdk === 'openlit' || source.scope.startsWith('openlit');
  const provider = (str(attrs, 'gen_ai.system') ?? str(attrs, 'gen_ai.provider.name') ?? '').toLowerCase();
  const excludesCache = (openLit && provider.includes('anthropic')) || total < cacheRead + cacheWrite;
  return { input: excludesCache ? total : total - cacheRead - cacheWrite, cacheRead, cacheWrite5m: cacheWrite, cacheWrite1h: 0, output };
}
