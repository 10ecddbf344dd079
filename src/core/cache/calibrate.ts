// Calibrating Claude token estimates. There is no public Claude tokenizer, so Claude counts are estimates; two
// measured sources can rescale them: the provider's recorded usage beside the requests (offline: the median of
// recorded prompt ÷ estimated prompt), or one exact `count_tokens` call on the largest request (CLI, opt-in;
// the network part lives in src/node/calibrate.ts). Either way one factor multiplies every Claude estimate.

import { providerOf, recordedPromptTokens } from '../model.ts';
import type { ParsedRequest, Segment } from '../model.ts';
import { usageMeasuresOtherPrompt } from '../tokens/claude.ts';
import { hasUnrecordedSetup } from './inferred.ts';

export interface Calibration {
  /** Multiply every Claude estimate by this. */
  factor: number;
  source: 'recorded-usage' | 'count-tokens';
  /** Requests the factor was measured on. */
  requests: number;
}

/**
 * The factors a calibration may apply. The Claude estimate is within a few percent of recorded counts on every
 * recording (docs/tokens.md); a factor outside 0.5–2× says the usage measures something else (a corrupt log,
 * another prompt), so it is refused rather than multiplied into every count.
 */
export const CALIBRATION_BAND = { min: 0.5, max: 2 } as const;

export function inCalibrationBand(factor: number): boolean {
  return Number.isFinite(factor) && factor >= CALIBRATION_BAND.min && factor <= CALIBRATION_BAND.max;
}

/** Claude counts are estimates; OpenAI counts come from the exact tokenizer and are never rescaled. */
export function isClaudeEstimate(request: ParsedRequest): boolean {
  return providerOf(request.format) === 'anthropic';
}

export function estimatedPrompt(tokens: readonly number[], overhead: number): number {
  let total = overhead;
  for (const t of tokens) total += t;
  return total;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * Offline calibration: over Claude requests with recorded usage, the median of recorded prompt
 * (input + cache read + cache writes) ÷ estimated prompt. `calibration` is null when no request qualifies or the
 * factor is outside CALIBRATION_BAND; `refused` then holds that factor.
 */
export function usageCalibration(
  requests: readonly ParsedRequest[],
  segmentTokens: readonly (readonly number[])[],
  overheadTokens: readonly number[],
): { calibration: Calibration | null; refused: Calibration | null } {
  const ratios: number[] = [];
  requests.forEach((request, i) => {
    const usage = request.recorded;
    // Usage that sums server-side iterations or a compaction pass does not measure this prompt.
    // Usage of a transcript that left out the system prompt and tools measures a prompt the estimate lacks a part
    // of (that part is inferred from this usage, src/core/cache/inferred.ts): no measure of the estimator.
    if (usage === null || !isClaudeEstimate(request) || usageMeasuresOtherPrompt(request) || hasUnrecordedSetup(request)) return;
    const estimate = estimatedPrompt(segmentTokens[i] ?? [], overheadTokens[i] ?? 0);
    const recorded = recordedPromptTokens(usage);
    if (estimate > 0 && recorded > 0) ratios.push(recorded / estimate);
  });
  if (ratios.length === 0) return { calibration: null, refused: null };
  const found: Calibration = { factor: median(ratios), source: 'recorded-usage', requests: ratios.length };
  return inCalibrationBand(found.factor) ? { calibration: found, refused: null } : { calibration: null, refused: found };
}

/** The calibration `usageCalibration` applies (null: none, or refused as outside the band). */
export function calibrationFromUsage(
  requests: readonly ParsedRequest[],
  segmentTokens: readonly (readonly number[])[],
  overheadTokens: readonly number[],
): Calibration | null {
  return usageCalibration(requests, segmentTokens, overheadTokens).calibration;
}

/** Calibration from one exact count; null when either number is not a positive finite count. */
export function calibrationFromCount(exact: number, estimated: number): Calibration | null {
  if (!Number.isFinite(exact) || !Number.isFinite(estimated) || exact <= 0 || estimated <= 0) return null;
  return { factor: exact / estimated, source: 'count-tokens', requests: 1 };
}

/** Claude token arrays multiplied by the factor (rounded to whole tokens); other requests unchanged. */
export function applyCalibration(
  requests: readonly ParsedRequest[],
  segmentTokens: readonly (readonly number[])[],
  overheadTokens: readonly number[],
  factor: number,
): { segmentTokens: number[][]; overheadTokens: number[] } {
  const scaled = requests.map((request, i) => {
    const tokens = segmentTokens[i] ?? [];
    return isClaudeEstimate(request) ? tokens.map((t) => Math.round(t * factor)) : [...tokens];
  });
  const overhead = requests.map((request, i) => {
    const value = overheadTokens[i] ?? 0;
    return isClaudeEstimate(request) ? Math.round(value * factor) : value;
  });
  return { segmentTokens: scaled, overheadTokens: overhead };
}

/** Index of the Claude request with the largest estimated prompt that names a model, or null. */
export function largestClaudeRequest(
  requests: readonly ParsedRequest[],
  segmentTokens: readonly (readonly number[])[],
  overheadTokens: readonly number[],
): number | null {
  let best: number | null = null;
  let bestTokens = -1;
  requests.forEach((request, i) => {
    if (!isClaudeEstimate(request) || request.model === null) return;
    const tokens = estimatedPrompt(segmentTokens[i] ?? [], overheadTokens[i] ?? 0);
    if (tokens > bestTokens) {
      best = i;
      bestTokens = tokens;
    }
  });
  return best;
}

const TOOL_PATH = /^tools\[\d+\]$/;
const SYSTEM_BLOCK_PATH = /^system\[\d+\]$/;
const MESSAGE_STRING_PATH = /^messages\[(\d+)\]\.content$/;
const MESSAGE_BLOCK_PATH = /^messages\[(\d+)\]\.content\[\d+\]$/;

/**
 * A `count_tokens` body rebuilt from the request's segments (each segment's wire is its block as sent, markers
 * removed): tools, system and messages in order, plus tool_choice (the tool-use system prompt it selects is part of the count). Blocks nested inside
 * another (images in a tool result) are already part of their parent. Null when the request names no model.
 */
export function countTokensBody(request: ParsedRequest): Record<string, unknown> | null {
  if (request.model === null) return null;
  const parts: BodyParts = { tools: [], system: undefined, systemBlocks: [], messages: [], messageAt: new Map() };
  for (const segment of request.segments) addSegment(parts, segment);
  const body: Record<string, unknown> = { model: request.model, messages: parts.messages };
  if (parts.tools.length > 0) body['tools'] = parts.tools;
  if (parts.systemBlocks.length > 0) body['system'] = parts.systemBlocks;
  else if (parts.system !== undefined) body['system'] = parts.system;
  const choice = toolChoiceOf(request.options.toolChoice);
  if (choice !== undefined) body['tool_choice'] = choice;
  return body;
}

/** The parts of a count_tokens body, filled segment by segment. */
interface BodyParts {
  tools: unknown[];
  system: unknown;
  systemBlocks: unknown[];
  messages: { role: string; content: unknown }[];
  messageAt: Map<number, { role: string; content: unknown[] }>;
}

function addSegment(parts: BodyParts, segment: Segment): void {
  if (TOOL_PATH.test(segment.path)) parts.tools.push(JSON.parse(segment.wire));
  // The wire of a string system prompt is the one text block it renders as.
  else if (segment.path === 'system') parts.system = [JSON.parse(segment.wire)];
  else if (SYSTEM_BLOCK_PATH.test(segment.path)) parts.systemBlocks.push(JSON.parse(segment.wire));
  else if (MESSAGE_STRING_PATH.test(segment.path)) {
    const message = JSON.parse(segment.wire) as { role?: unknown; content?: unknown };
    parts.messages.push({ role: typeof message.role === 'string' ? message.role : (segment.role ?? 'user'), content: message.content });
  } else if (MESSAGE_BLOCK_PATH.test(segment.path)) addMessageBlock(parts, segment);
}

function addMessageBlock(parts: BodyParts, segment: Segment): void {
  let message = parts.messageAt.get(segment.messageIndex);
  if (message === undefined) {
    message = { role: segment.role ?? 'user', content: [] };
    parts.messageAt.set(segment.messageIndex, message);
    parts.messages.push(message);
  }
  // A message's first block carries the message around it (its wire is the rendered identity, model.ts).
  const block = JSON.parse(segment.wire) as { role?: unknown; content?: unknown };
  if (typeof block.role === 'string' && Array.isArray(block.content)) message.content.push(...(block.content as unknown[]));
  else message.content.push(block);
}

/** The tool_choice of the body (the tool-use system prompt it selects is part of the count), if any. */
function toolChoiceOf(choice: ParsedRequest['options']['toolChoice']): Record<string, string> | undefined {
  if (choice === 'auto' || choice === 'any' || choice === 'none') return { type: choice };
  if (choice?.startsWith('tool:') === true) return { type: 'tool', name: choice.slice(5) };
  return undefined;
}
