// Anthropic strips earlier thinking blocks on some models: with extended thinking on, a request whose newest user
// turn is not (only) tool results makes the API drop every earlier assistant turn's thinking from the context, so
// a cached prefix that contained them no longer matches, and the dropped blocks are not billed. Opus 4.5+,
// Sonnet 4.6+ and newer generations keep them; earlier Opus and Sonnet models and every Haiku up to 4.5 strip.

import type { ParsedRequest } from '../model.ts';
import type { ModelPricing } from '../pricing/types.ts';

/** Priced model ids (see src/core/pricing/table.ts) that strip earlier thinking on a non-tool-result user turn. */
const STRIPPING_MODELS: ReadonlySet<string> = new Set([
  'claude-opus-4-1',
  'claude-opus-4-0',
  'claude-sonnet-4-5',
  'claude-sonnet-4-0',
  'claude-3-7-sonnet',
  'claude-haiku-4-5',
  'claude-3-5-haiku',
]);

/** Extended thinking is on (`thinking.type` enabled or adaptive; an effort setting alone is not thinking). */
function thinkingEnabled(request: ParsedRequest): boolean {
  const setting = request.options.thinking;
  return setting !== null && (setting.startsWith('enabled') || setting.startsWith('adaptive'));
}

/**
 * Index of the newest user message when it holds anything other than tool results, else null (a tool-use loop
 * turn keeps earlier thinking).
 */
function newestPlainUserMessage(request: ParsedRequest): number | null {
  let newest = -1;
  for (const segment of request.segments) {
    if (segment.role === 'user' && segment.messageIndex > newest) newest = segment.messageIndex;
  }
  if (newest < 0) return null;
  const plain = request.segments.some(
    (segment) => segment.messageIndex === newest && segment.category !== 'tool_result' && segment.category !== 'image' && segment.category !== 'document',
  );
  return plain ? newest : null;
}

/**
 * Segment indices the API drops before caching and billing this request: the thinking blocks of earlier turns,
 * when the model strips them. Empty for every other request.
 */
export function strippedThinking(request: ParsedRequest, pricing: ModelPricing | null): ReadonlySet<number> {
  if (pricing === null || !STRIPPING_MODELS.has(pricing.id) || !thinkingEnabled(request)) return EMPTY;
  const newest = newestPlainUserMessage(request);
  if (newest === null) return EMPTY;
  const dropped = new Set<number>();
  request.segments.forEach((segment, index) => {
    if (segment.category === 'thinking' && segment.messageIndex < newest) dropped.add(index);
  });
  return dropped;
}

const EMPTY: ReadonlySet<number> = new Set();
