// Claude token ESTIMATE. Anthropic publishes no tokenizer, so counts are a fitted heuristic, always flagged
// `exact: false` and shown with ≈. Constants were fitted on 95 requests with recorded usage; docs/tokens.md
// gives the fit, the held-out error and what is not modelled.
import type { ParsedRequest } from '../model.ts';

/** Characters per token for prose (no symbols) and for fully symbol-dense text (JSON, code). */
const PROSE_CHARS_PER_TOKEN = 4.0;
const SYMBOL_CHARS_PER_TOKEN = 2.5;
/** Symbol fraction (non-alphanumeric, non-space characters / length) at which text counts as fully dense. */
const DENSE_SYMBOL_FRACTION = 0.35;

/** Claude 4.7 and later use a newer tokenizer that yields about 30% more tokens for the same text. */
export const NEW_TOKENIZER_FACTOR = 1.3;
const NEW_TOKENIZER_MODELS = /claude-(?:opus-4-[7-9]|opus-[5-9]|sonnet-[5-9]|haiku-[5-9]|fable|mythos)/;

export function usesNewTokenizer(model: string | null): boolean {
  return model !== null && NEW_TOKENIZER_MODELS.test(model.toLowerCase());
}

/**
 * Whether a Claude request's recorded usage measures something other than the prompt in the file: server tools
 * (web search, web fetch, code execution, ...) run several server-side iterations whose prompts the usage sums,
 * and `context_management` may compact the context first. Such requests carry the notes
 * `server_tool_not_modelled` / `context_management` and are left out of every estimate-accuracy figure and of
 * calibration.
 */
export function usageMeasuresOtherPrompt(request: Pick<ParsedRequest, 'format' | 'segments' | 'notes'>): boolean {
  if (request.format !== 'anthropic-messages') return false;
  if (request.notes.some((note) => note.code === 'context_management')) return true;
  return request.segments.some((segment) => segment.category === 'tools' && segment.messageIndex < 0 && !segment.wire.includes('"input_schema"'));
}

/** Per-request framing: a constant plus tokens per message (role markers). */
export const CLAUDE_REQUEST_BASE_TOKENS = 4;
export const CLAUDE_PER_MESSAGE_TOKENS = 3;
/** Extended thinking enabled adds a hidden instruction (two recorded pairs differ by 28–29 tokens). */
export const CLAUDE_THINKING_TOKENS = 28;
/**
 * Adaptive thinking adds less: 17 on Opus 4.6 (the same question billed 14 without, 31 with), nothing measurable
 * on the newer tokenizer's models (Opus 4.7 / 4.8 with adaptive thinking billed 18 and 13 for that question).
 */
export const CLAUDE_ADAPTIVE_THINKING_TOKENS = 17;
/**
 * A json_schema output format (`output_config.format`) adds a hidden instruction beside its schema: one
 * recording (Sonnet 4.5, a one-property schema with anyOf) billed 222 for a 10-token question.
 */
export const CLAUDE_OUTPUT_FORMAT_TOKENS = 144;
/**
 * `output_config.task_budget` adds a hidden instruction: two recordings (Opus 4.7) billed 41 and 42 more, which
 * is this × the newer tokenizer's factor (segments are scaled by it).
 */
export const CLAUDE_TASK_BUDGET_TOKENS = 32;
/** Path of the segment that carries a task budget (the importer's; the count is the constant above). */
export const TASK_BUDGET_PATH = 'output_config.task_budget';
/**
 * Hidden tool-use system prompt, by tool_choice. Anthropic's docs quote 346 (auto/none) and 313 (any/tool);
 * the recorded usage (Sonnet 4.5/4.6, Haiku 4.5, Opus 4.6, Fable 5) fits 483 and 604 instead.
 */
export const CLAUDE_TOOL_SYSTEM_AUTO = 483;
export const CLAUDE_TOOL_SYSTEM_ANY = 604;
/**
 * A tool call round trip (tool_use with its id, the tool_result quoting it) costs this much beyond the
 * estimated name, input and result text: median of 780 one-call turn deltas in two real pi sessions was
 * 62 (Sonnet 4.5) and 70 (Opus 4.5).
 */
export const CLAUDE_TOOL_CALL_TOKENS = 65;
/** A tool definition is rendered more compactly than its JSON text: this many fewer tokens per definition. */
export const CLAUDE_TOOL_DEFINITION_DISCOUNT = 36;

function isAlphanumeric(code: number): boolean {
  return (
    (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code > 127
  );
}

function isSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13;
}

/**
 * Estimated tokens of one text on a pre-4.7 tokenizer: characters divided by a characters-per-token rate
 * interpolated between prose and symbol-dense text, since BPE splits more often on punctuation.
 * Non-ASCII characters count as alphanumeric here and as one character each.
 */
export function estimateClaudeTextTokens(text: string): number {
  if (text.length === 0) return 0;
  let symbols = 0;
  let length = 0;
  for (const char of text) {
    length++;
    const code = char.codePointAt(0) ?? 0;
    if (!isAlphanumeric(code) && !isSpace(code)) symbols++;
  }
  const density = Math.min(1, symbols / length / DENSE_SYMBOL_FRACTION);
  const charsPerToken = PROSE_CHARS_PER_TOKEN + (SYMBOL_CHARS_PER_TOKEN - PROSE_CHARS_PER_TOKEN) * density;
  return Math.max(1, Math.round(length / charsPerToken));
}

/** Longest edge and pixel budget Claude resizes images to before counting (≈ 1,600 tokens at most). */
const CLAUDE_IMAGE_MAX_EDGE = 1568;
const CLAUDE_IMAGE_MAX_PIXELS = 1_150_000;

/** Image tokens ≈ width × height / 750 after Claude's resize. */
export function claudeImageTokens(width: number, height: number): number {
  let w = width;
  let h = height;
  const edgeScale = Math.min(1, CLAUDE_IMAGE_MAX_EDGE / Math.max(w, h));
  w *= edgeScale;
  h *= edgeScale;
  const pixelScale = Math.min(1, Math.sqrt(CLAUDE_IMAGE_MAX_PIXELS / (w * h)));
  w *= pixelScale;
  h *= pixelScale;
  return Math.max(1, Math.round((w * h) / 750));
}

/**
 * Size assumed for an image whose pixels are not in the file (URL or file id): 512×384 (≈ 262 tokens); the
 * recorded URL images billed 250–300 tokens each.
 */
export const CLAUDE_UNKNOWN_IMAGE_SIZE = { width: 512, height: 384 } as const;

/** A PDF page is sent as its text plus an image of the page: ~1,600 tokens (one recorded one-page PDF). */
export const CLAUDE_TOKENS_PER_PDF_PAGE = 1600;
