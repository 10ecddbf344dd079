// Claude token ESTIMATE. Anthropic publishes no tokenizer, so counts are o200k_base counts times fitted factors plus
// fitted hidden prompts, always flagged `exact: false` and shown with ≈. Constants are checked against 693 requests
// with recorded usage from 15 projects (tests/tokens/claude-fit.test.ts refits them leaving each project out);
// docs/tokens.md gives the fit, the held-out error and what is not modelled.
import { isUsageOnly, type ParsedRequest, type Segment } from '../model.ts';

/**
 * Claude 4.7 and later use a newer tokenizer. Its text factors are in CLAUDE_TEXT_FACTORS; images, documents and the
 * fixed hidden instructions (output format, task budget) are scaled by this.
 */
export const NEW_TOKENIZER_FACTOR = 1.3;
const NEW_TOKENIZER_MODELS = /claude-(?:opus-4-[7-9]|opus-[5-9]|sonnet-[5-9]|haiku-[5-9]|fable|mythos)/;

export function usesNewTokenizer(model: string | null): boolean {
  return model !== null && NEW_TOKENIZER_MODELS.test(model.toLowerCase());
}

/**
 * Model generations whose hidden tool-use prompt differs (recorded usage, docs/tokens.md): Claude 3 / 3.5, the
 * Claude 4.0 era (Sonnet 3.7, Sonnet 4, Opus 4, Opus 4.1), the 4.5 era (Haiku 4.5, Sonnet 4.5 / 4.6,
 * Opus 4.5 / 4.6: also any id not recognized) and the newer tokenizer's models.
 */
export type ClaudeGeneration = 'claude-3' | 'claude-4.0' | 'claude-4.5' | 'newer-tokenizer';

export function claudeGeneration(model: string | null): ClaudeGeneration {
  if (usesNewTokenizer(model)) return 'newer-tokenizer';
  const id = (model ?? '').toLowerCase();
  if (/claude-3-7|claude-(?:sonnet|opus)-4(?:-(?:0|1|20\d{6})|$|[^-\d])/.test(id)) return 'claude-4.0';
  if (/claude-(?:3|2|instant)/.test(id)) return 'claude-3';
  return 'claude-4.5';
}

/**
 * Whether a Claude request's recorded usage measures something other than the prompt in the file: server tools
 * (web search, web fetch, code execution, ...) and MCP servers (`mcp_servers`, whose tool definitions the server
 * fetches) run several server-side iterations whose prompts the usage sums,
 * and `context_management` may compact the context first. Such requests carry the notes
 * `server_tool_not_modelled` / `context_management` and are left out of every estimate-accuracy figure and of
 * calibration.
 */
export function usageMeasuresOtherPrompt(request: Pick<ParsedRequest, 'format' | 'segments' | 'notes' | 'options'>): boolean {
  // A usage-only call has no prompt in the file at all.
  if (isUsageOnly(request)) return true;
  if (request.format !== 'anthropic-messages') return false;
  if (request.notes.some((note) => note.code === 'context_management') || request.options.mcpServers) return true;
  return request.segments.some((segment) => segment.category === 'tools' && segment.messageIndex < 0 && !segment.wire.includes('"input_schema"'));
}

/** A `tool_reference` block's tool name, in either key order (JSON string contents, escapes kept). */
const TOOL_REFERENCE_NAME = /"type"\s*:\s*"tool_reference"[^{}]*?"tool_name"\s*:\s*"((?:[^"\\]|\\.)*)"|"tool_name"\s*:\s*"((?:[^"\\]|\\.)*)"[^{}]*?"type"\s*:\s*"tool_reference"/g;

/**
 * Tool names a tool search has loaded: the `tool_reference` blocks in the conversation. A definition marked
 * `defer_loading` is left out of the prompt until one references it, and calling it does not load it (pydantic-ai
 * recordings, Sonnet 4.5: a request with two unreferenced deferred tools billed 759, 877 when counting them; a
 * deferred tool called without a reference billed 1,010, 998 without its definition and 1,072 with; referenced
 * ones billed with theirs).
 */
export function toolsReferencedByConversation(segments: readonly Pick<Segment, 'wire'>[]): Set<string> {
  const referenced = new Set<string>();
  for (const segment of segments) {
    if (!segment.wire.includes('tool_reference')) continue;
    for (const match of segment.wire.matchAll(TOOL_REFERENCE_NAME)) referenced.add(JSON.parse(`"${match[1] ?? match[2] ?? ''}"`) as string);
  }
  return referenced;
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
 * is this × the newer tokenizer's factor.
 */
export const CLAUDE_TASK_BUDGET_TOKENS = 32;
/** Path of the segment that carries a task budget (the importer's; the count is the constant above). */
export const TASK_BUDGET_PATH = 'output_config.task_budget';
/**
 * Groups of models whose hidden tool-use system prompt differs: Anthropic's table gives Claude 3 Opus, Sonnet and
 * Haiku their own (530 / 281, 159 / 235, 264 / 340 for auto / any); the rest follow the generations above, with
 * Sonnet 5 apart from the newer tokenizer's other models.
 */
export type ClaudeToolPromptGroup = 'claude-3-opus' | 'claude-3-sonnet' | 'claude-3-haiku' | ClaudeGeneration | 'sonnet-5';

export function claudeToolPromptGroup(model: string | null): ClaudeToolPromptGroup {
  const id = (model ?? '').toLowerCase();
  if (/claude-sonnet-5/.test(id)) return 'sonnet-5';
  const generation = claudeGeneration(model);
  if (generation !== 'claude-3') return generation;
  // Claude 3.0 ids (claude-3-opus-20240229, Bedrock's anthropic.claude-3-haiku-...); 3.5 stays `claude-3`.
  const family = /claude-3-(opus|sonnet|haiku)/.exec(id)?.[1];
  return family ? (`claude-3-${family}` as ClaudeToolPromptGroup) : 'claude-3';
}

/**
 * Hidden tool-use system prompt by model group and tool_choice (`auto`/`none`, `any`/`tool`). Claude 3.0 models:
 * Anthropic's documented counts. The others: fitted on recorded requests of 15 projects (docs/tokens.md);
 * Anthropic quotes 346 / 313 for Claude 4-era models: the 4.0 era bills about that, the 4.5 era more (the prompt
 * grew server-side in November 2025). Sonnet 5 bills more than Opus 5 / Fable 5 for the same tool request (three
 * pairs of identical bodies billed 68, 55 and 55 more).
 */
export const CLAUDE_TOOL_SYSTEM: Readonly<Record<ClaudeToolPromptGroup, { auto: number; any: number }>> = {
  'claude-3-opus': { auto: 530, any: 281 },
  'claude-3-sonnet': { auto: 159, any: 235 },
  'claude-3-haiku': { auto: 264, any: 340 },
  'claude-3': { auto: 279, any: 386 },
  'claude-4.0': { auto: 329, any: 306 },
  'claude-4.5': { auto: 502, any: 610 },
  'newer-tokenizer': { auto: 393, any: 500 },
  'sonnet-5': { auto: 452, any: 559 },
};

export function claudeToolSystemTokens(model: string | null, toolChoice: string): number {
  const prompt = CLAUDE_TOOL_SYSTEM[claudeToolPromptGroup(model)];
  // The importer writes `auto`, `none`, `any` or `tool:<name>`.
  return /^(?:any|tool)\b/.test(toolChoice) ? prompt.any : prompt.auto;
}

/** Opus 4.5+, Sonnet 4.6+ and every model on the newer tokenizer keep earlier turns' thinking in context. */
export function keepsEarlierThinking(model: string | null): boolean {
  if (usesNewTokenizer(model)) return true;
  return model !== null && /claude-(?:opus-4-[5-9]|sonnet-4-[6-9])/.test(model.toLowerCase());
}

/**
 * A tool call round trip (tool_use with its id, the tool_result quoting it) costs this much beyond the
 * estimated name, input and result text (fit: 58; the pi sessions' one-call turn deltas gave 62 and 70).
 */
export const CLAUDE_TOOL_CALL_TOKENS = 58;

/** What a Claude text is, for its factor over o200k_base: tool definitions and thinking have factors of their own. */
export type ClaudeTextKind = 'prose' | 'code' | 'tools' | 'thinking';

/**
 * Claude tokens per o200k_base token, by text kind, for the tokenizer before Claude 4.7 and the newer one.
 * Least-squares fit on recorded usage (docs/tokens.md): Claude's vocabulary splits English ~13% finer than
 * o200k, JSON and code ~17–20% finer (1.17 keeps the growth of both real pi sessions within 2%); the newer
 * tokenizer splits prose ~40% finer than o200k.
 */
export const CLAUDE_TEXT_FACTORS: Readonly<Record<'older' | 'newer', Readonly<Record<ClaudeTextKind, number>>>> = {
  older: { prose: 1.13, code: 1.17, tools: 1.14, thinking: 0.88 },
  newer: { prose: 1.42, code: 1.22, tools: 1.29, thinking: 1.0 },
};

/** Symbol fraction (non-alphanumeric, non-space characters / length) above which a text counts as code. */
const CODE_SYMBOL_FRACTION = 0.1;

function isAlphanumeric(code: number): boolean {
  return (
    (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code > 127
  );
}

function isSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13;
}

/**
 * Whether a text is code-like (JSON, source, markup): more than 10% of its characters are neither letters,
 * digits nor whitespace. Non-ASCII characters count as letters (non-Latin prose bills like prose over o200k).
 */
export function isCodeLikeText(text: string): boolean {
  let symbols = 0;
  let length = 0;
  for (const char of text) {
    length++;
    const code = char.codePointAt(0) ?? 0;
    if (!isAlphanumeric(code) && !isSpace(code)) symbols++;
  }
  return length > 0 && symbols / length > CODE_SYMBOL_FRACTION;
}

/** Estimated Claude tokens of a text whose o200k_base count is `o200kTokens`. */
export function claudeTokensFromO200k(o200kTokens: number, kind: ClaudeTextKind, newTokenizer: boolean): number {
  if (o200kTokens === 0) return 0;
  const factor = CLAUDE_TEXT_FACTORS[newTokenizer ? 'newer' : 'older'][kind];
  return Math.max(1, Math.round(o200kTokens * factor));
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
 * recorded URL and file images of 15 projects billed 34–450 (claude-band.ts gives such requests a ±100% band).
 */
export const CLAUDE_UNKNOWN_IMAGE_SIZE = { width: 512, height: 384 } as const;

/**
 * A document the model reads as text (a `text` or `content` source) bills a hidden wrapper beyond its text: two
 * recordings (Sonnet 4.5, pydantic-ai) billed 37 and 43 more than the text and the framing; the smaller is taken,
 * the larger holds ~650 text tokens whose own estimate is uncertain by more than the difference.
 */
export const CLAUDE_TEXT_DOCUMENT_TOKENS = 37;

/** A PDF page is sent as its text plus an image of the page: ~1,600 tokens (one recorded one-page PDF). */
export const CLAUDE_TOKENS_PER_PDF_PAGE = 1600;

