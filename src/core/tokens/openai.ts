// OpenAI token counting: exact BPE counts with gpt-tokenizer plus the framing rules the API bills on top of
// message text. The framing constants were read off recorded `prompt_tokens` (docs/tokens.md shows the data).

export type OpenAIEncoding = 'o200k_base' | 'cl100k_base';

/** Counts tokens of one string; a loaded vocabulary. */
export type TokenCountFn = (text: string) => number;

/**
 * Loads a vocabulary on first use. Dynamic imports keep each vocabulary in its own chunk, so the web app
 * fetches the ~1 MB table only when an OpenAI request is analyzed.
 */
export async function loadEncoding(encoding: OpenAIEncoding): Promise<TokenCountFn> {
  const mod = encoding === 'o200k_base' ? await import('gpt-tokenizer/encoding/o200k_base') : await import('gpt-tokenizer/encoding/cl100k_base');
  return withClearedMergeCache(mod);
}

/** The parts of a gpt-tokenizer encoding module used here. */
interface EncodingModule {
  countTokens(text: string): number;
  setMergeCacheSize(size: number): void;
  clearMergeCache(): void;
}

/** Characters counted between two clears of the merge cache: it then holds at most this many pieces. */
const MERGE_CACHE_CHARS = 100_000;

/**
 * gpt-tokenizer memoizes the merges of pieces missing from the vocabulary in a Map of at most 100,000 entries,
 * evicting the oldest with `keys().next()`: in V8 that walks every entry deleted since the table was last rebuilt,
 * so once the cache is full each new piece costs time in proportion to the cache (random text: 4,000 texts of 600
 * characters took 24 s where 2,000 took 3.9 s). Here it has no size limit and is cleared after every
 * MERGE_CACHE_CHARS characters instead (a piece is at least one character, so the bound holds): O(1) per piece.
 */
function withClearedMergeCache(mod: EncodingModule): TokenCountFn {
  mod.setMergeCacheSize(Number.MAX_SAFE_INTEGER);
  let sinceClear = 0;
  return (text) => {
    sinceClear += text.length;
    if (sinceClear > MERGE_CACHE_CHARS) {
      mod.clearMergeCache();
      sinceClear = text.length;
    }
    return mod.countTokens(text);
  };
}

export interface EncodingChoice {
  encoding: OpenAIEncoding;
  /** True when the model id is not one tiktoken maps (GPT-6.x, unrecognized ids): o200k_base is assumed. */
  assumed: boolean;
}

const O200K_MODELS = /^(?:gpt-4o|gpt-4\.1|gpt-4\.5|o1|o3|o4|gpt-5|chatgpt-4o|codex-)/;
const CL100K_MODELS = /^(?:gpt-4(?![o.])|gpt-3\.5|text-embedding-)/;
const ASSUMED_O200K = /^gpt-6/;

/** tiktoken's model → encoding map, extended to GPT-6.x by assumption. */
export function encodingForModel(model: string | null): EncodingChoice {
  const id = (model ?? '').toLowerCase();
  if (O200K_MODELS.test(id)) return { encoding: 'o200k_base', assumed: false };
  if (CL100K_MODELS.test(id)) return { encoding: 'cl100k_base', assumed: false };
  if (ASSUMED_O200K.test(id)) return { encoding: 'o200k_base', assumed: true };
  return { encoding: 'o200k_base', assumed: true };
}

/** How the API frames messages around their text, per model family. */
export interface FramingRule {
  family: 'gpt-4o' | 'reasoning' | 'o1-mini' | 'search-preview' | 'cl100k';
  /** Tokens per message besides its role name and content (`<|start|>`, separator, `<|end|>`). */
  perMessage: number;
  /** Tokens that prime the reply (`<|start|>assistant<|message|>`). */
  priming: number;
  /** Constant extra tokens per request seen on this family. */
  fixed: number;
  /** Search-preview models do not bill system/developer messages. */
  billsSystemMessages: boolean;
}

// Measured on pai_text_only_requests (18 requests): gpt-4o/4o-mini/4.1-mini/4.5-preview bill 3 + role per
// message + 3; o3-mini/gpt-5 bill 3 + role per message + 2; o1-mini needs 8 more (one request); the
// search-preview models bill only non-system messages with the reasoning-family framing.
export function framingForModel(model: string | null): FramingRule {
  const id = (model ?? '').toLowerCase();
  if (id.includes('search-preview')) {
    return { family: 'search-preview', perMessage: 3, priming: 2, fixed: 0, billsSystemMessages: false };
  }
  if (/^o1-(?:mini|preview)/.test(id)) {
    return { family: 'o1-mini', perMessage: 3, priming: 2, fixed: 8, billsSystemMessages: true };
  }
  if (/^(?:o\d|gpt-5|gpt-6|codex-)/.test(id)) {
    return { family: 'reasoning', perMessage: 3, priming: 2, fixed: 0, billsSystemMessages: true };
  }
  if (encodingForModel(model).encoding === 'cl100k_base') {
    return { family: 'cl100k', perMessage: 3, priming: 3, fixed: 0, billsSystemMessages: true };
  }
  return { family: 'gpt-4o', perMessage: 3, priming: 3, fixed: 0, billsSystemMessages: true };
}

/**
 * Model ids whose Chat framing recorded usage confirms (docs/tokens.md: the fixtures' 18 text-only requests and
 * 505 text-only requests of six projects' cassettes): gpt-4o / 4o-mini (and their search previews), gpt-4.1 /
 * mini / nano, gpt-4.5-preview, gpt-4, gpt-3.5-turbo, the gpt-5 family and o3-mini, with or without a date
 * suffix. Others (o1, o3, o4-mini, chatgpt-*, audio and realtime models, gpt-4-turbo, ...) share a family's rule
 * but have no recording, so their counts are not called exact.
 */
const FRAMING_RECORDED = /^(?:gpt-4o(?:-mini)?(?:-search-preview)?|gpt-4\.1(?:-mini|-nano)?|gpt-4\.5-preview|gpt-4|gpt-3\.5-turbo|gpt-5(?:\.\d+)?(?:-(?!audio|realtime)[a-z]+)?|o3-mini)(?:-\d{4}(?:-\d{2}-\d{2})?)?$/;

export function framingRecorded(model: string | null): boolean {
  return FRAMING_RECORDED.test((model ?? '').toLowerCase());
}

/** Tokens a request with function tools pays besides the rendered definitions (hmarr/openai-chat-tokens: 9). */
export const TOOLS_PREAMBLE_TOKENS = 9;
/**
 * A tool call in history costs its name and arguments plus about 4 tokens of call framing, and the tool
 * result repeats the function name (fitted on the Chat tool-loop fixtures; docs/tokens.md).
 */
export const TOOL_CALL_FRAMING_TOKENS = 4;

/**
 * The Responses API bills function tools a few tokens below Chat's rendering: 7 fewer on gpt-4o / gpt-4.1
 * (two requests, both then exact), about 1 fewer on the reasoning family (gpt-5: +2, gpt-5.5: −4 before this).
 */
export function responsesToolsAdjustment(framing: FramingRule): number {
  return framing.family === 'gpt-4o' ? -7 : -1;
}

/**
 * Chat Completions bills GPT-5-family requests with function tools about 81 tokens beyond the rendered
 * definitions (a hidden tool instruction): 32 recorded requests of pydantic-ai's and crewAI's cassettes on gpt-5,
 * gpt-5-mini, gpt-5-nano and gpt-5.4-mini were 76–118 under without it, median 81, whatever the tool count or
 * tool_choice. Neither o3-mini in Chat (6 under) nor gpt-5 in Responses (within 2) shows it.
 */
export const GPT5_CHAT_TOOLS_TOKENS = 81;

export function chatToolsAdjustment(model: string | null): number {
  return /^gpt-5/.test((model ?? '').toLowerCase()) ? GPT5_CHAT_TOOLS_TOKENS : 0;
}

/**
 * Encrypted reasoning items are billed as the reasoning tokens they carry, not as their base64 text. Two
 * recorded round trips (1,356 chars ↔ 63 reasoning tokens, 9,572 chars ↔ 1,792) give length ≈ 1,056 + 4.75 × tokens.
 */
export function encryptedReasoningTokens(encryptedLength: number): number {
  return Math.max(0, Math.round((encryptedLength - ENCRYPTED_REASONING_BASE_CHARS) / ENCRYPTED_REASONING_CHARS_PER_TOKEN));
}
const ENCRYPTED_REASONING_BASE_CHARS = 1056;
const ENCRYPTED_REASONING_CHARS_PER_TOKEN = 4.75;

export const NAMESPACE_OPEN = 'namespace functions {\n\n';
export const NAMESPACE_CLOSE = '} // namespace functions';

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A function tool as it appears in either API: Chat `{type, function:{...}}` or Responses' flat form; or a custom
 * (freeform) tool, Chat `{type: "custom", custom:{...}}` or flat, whose input is text, optionally a grammar.
 */
export interface FunctionTool {
  name: string;
  description: string | null;
  parameters: JsonObject | null;
  /** Custom tools only: the grammar definition the input must follow ('' when the input is free text). */
  grammar?: string;
}

/** Reads a tool definition's JSON; null when it is not a function or custom tool (e.g. a hosted tool such as `mcp`). */
export function functionToolOf(definition: unknown): FunctionTool | null {
  if (!isObject(definition)) return null;
  const custom = definition.type === 'custom';
  const inner = isObject(definition.function) ? definition.function : custom && isObject(definition.custom) ? definition.custom : definition;
  if (typeof inner.name !== 'string') return null;
  if (definition.type !== undefined && definition.type !== 'function' && !custom) return null;
  const description = typeof inner.description === 'string' ? inner.description : null;
  if (custom) {
    const format = isObject(inner.format) ? inner.format : null;
    // Responses puts the definition on the format, Chat inside `format.grammar`.
    const source = format !== null && isObject(format.grammar) ? format.grammar : format;
    const grammar = source !== null && typeof source.definition === 'string' ? source.definition : '';
    return { name: inner.name, description, parameters: null, grammar };
  }
  return { name: inner.name, description, parameters: isObject(inner.parameters) ? inner.parameters : null };
}

function formatType(schema: JsonObject, indent: number): string {
  const enumValues = Array.isArray(schema.enum) ? schema.enum : null;
  switch (schema.type) {
    case 'string':
      return enumValues ? enumValues.map((v) => JSON.stringify(v)).join(' | ') : 'string';
    case 'number':
    case 'integer':
      return enumValues ? enumValues.map((v) => String(v)).join(' | ') : 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array':
      return isObject(schema.items) ? `${formatType(schema.items, indent)}[]` : 'any[]';
    case 'object':
      return ['{', formatProperties(schema, indent + 2), '}'].join('\n');
    default:
      return 'any';
  }
}

function formatProperties(schema: JsonObject, indent: number): string {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required : [];
  const lines: string[] = [];
  for (const [name, value] of Object.entries(properties)) {
    const property = isObject(value) ? value : {};
    if (typeof property.description === 'string' && property.description !== '' && indent < 2) {
      lines.push(`// ${property.description}`);
    }
    const optional = required.includes(name) ? '' : '?';
    lines.push(`${name}${optional}: ${formatType(property, indent)},`);
  }
  return lines.map((line) => ' '.repeat(indent) + line).join('\n');
}

/**
 * One tool's part of the hidden TypeScript-namespace rendering the model reads:
 * `// description` then `type name = (_: { ... }) => any;` and a blank line.
 */
export function renderFunctionTool(tool: FunctionTool): string {
  const lines: string[] = [];
  if (tool.description) lines.push(`// ${tool.description}`);
  if (tool.grammar !== undefined) {
    // A custom tool takes text; a grammar it must follow is shown with it.
    lines.push(`type ${tool.name} = (_: string) => any;`);
    if (tool.grammar !== '') lines.push(tool.grammar);
    lines.push('', '');
    return lines.join('\n');
  }
  const properties = tool.parameters && isObject(tool.parameters.properties) ? tool.parameters.properties : {};
  if (tool.parameters && Object.keys(properties).length > 0) {
    lines.push(`type ${tool.name} = (_: {`, formatProperties(tool.parameters, 0), '}) => any;');
  } else {
    lines.push(`type ${tool.name} = () => any;`);
  }
  lines.push('', '');
  return lines.join('\n');
}

/**
 * How a model bills an image (OpenAI's "calculating costs" for vision): 512-px tiles at a base plus a cost per
 * tile, or 32-px patches times a multiplier. The same 640×480 image was recorded at 425 tokens on gpt-4o,
 * 14,167 on gpt-4o-mini and 516 on o4-mini (crewAI cassettes).
 */
export type ImageRule = { kind: 'tiles'; base: number; perTile: number } | { kind: 'patches'; multiplier: number };

const GPT_4O_TILES: ImageRule = { kind: 'tiles', base: 85, perTile: 170 };
const IMAGE_RULES: readonly [RegExp, ImageRule][] = [
  [/^gpt-4o-mini/, { kind: 'tiles', base: 2833, perTile: 5667 }],
  [/^gpt-4\.1-mini/, { kind: 'patches', multiplier: 1.62 }],
  [/^gpt-4\.1-nano/, { kind: 'patches', multiplier: 2.46 }],
  [/^o4-mini/, { kind: 'patches', multiplier: 1.72 }],
  [/^o1(?!-mini)|^o3(?!-mini)/, { kind: 'tiles', base: 75, perTile: 150 }],
  [/^computer-use-preview/, { kind: 'tiles', base: 65, perTile: 129 }],
  [/^gpt-5/, { kind: 'tiles', base: 70, perTile: 140 }],
];

/** The image rule of a model id; the GPT-4o tiles (85 + 170 per tile) for ids not listed. */
export function imageRuleForModel(model: string | null): ImageRule {
  const id = (model ?? '').toLowerCase();
  return IMAGE_RULES.find(([pattern]) => pattern.test(id))?.[1] ?? GPT_4O_TILES;
}

/** Most 32-px patches an image is billed for; a larger image is scaled down to fit. */
const MAX_IMAGE_PATCHES = 1536;

/**
 * Image tokens under `rule`. Tiles: fit within 2048×2048, scale the shortest side down to 768, base + per-tile
 * cost per 512-px tile (base alone at `detail: low`). Patches: 32-px patches covering the image, scaled down to
 * at most 1,536, times the multiplier (`detail` is ignored).
 */
export function openaiImageTokens(width: number, height: number, detail: 'low' | 'high' | 'auto', rule: ImageRule = GPT_4O_TILES): number {
  if (rule.kind === 'patches') return Math.round(imagePatches(width, height) * rule.multiplier);
  if (detail === 'low') return rule.base;
  let w = width;
  let h = height;
  const fit = Math.min(1, 2048 / Math.max(w, h));
  w *= fit;
  h *= fit;
  const shortest = Math.min(w, h);
  if (shortest > 768) {
    w *= 768 / shortest;
    h *= 768 / shortest;
  }
  const tiles = Math.ceil(w / 512) * Math.ceil(h / 512);
  return rule.base + rule.perTile * tiles;
}

/** 32-px patches covering a width × height image, after OpenAI's scale-down to at most 1,536 patches. */
export function imagePatches(width: number, height: number): number {
  const patches = Math.ceil(width / 32) * Math.ceil(height / 32);
  if (patches <= MAX_IMAGE_PATCHES) return patches;
  let scale = Math.sqrt((32 * 32 * MAX_IMAGE_PATCHES) / (width * height));
  // Shrink further so whole patches cover the width and the height.
  scale *= Math.min(Math.floor((width * scale) / 32) / ((width * scale) / 32), Math.floor((height * scale) / 32) / ((height * scale) / 32));
  // The binding side lands on a whole number of patches; the epsilon keeps float error from adding one.
  return Math.ceil((width * scale) / 32 - 1e-9) * Math.ceil((height * scale) / 32 - 1e-9);
}

/** Size assumed when an image's pixels are not in the file (a URL or file id); one recorded URL image billed 425. */
export const UNKNOWN_IMAGE_SIZE = { width: 768, height: 512 } as const;
/** Input audio: ~1 token per 1,230 decoded bytes (one recorded request: 54,000 bytes → 44 audio tokens). */
export const OPENAI_AUDIO_BYTES_PER_TOKEN = 1230;
/** PDF file parts: ~220 tokens per page (one recorded one-page PDF billed 219 tokens beyond its prompt). */
export const OPENAI_TOKENS_PER_PDF_PAGE = 220;

/**
 * Schema keywords a structured-output schema is rendered without: counting the schema's compact JSON without them
 * reproduced recorded usage where the whole JSON ran up to 50% over (openai/openai-cookbook#2140, and the
 * pydantic-ai recordings in docs/tokens.md).
 */
const SCHEMA_KEYWORDS_NOT_RENDERED = new Set(['required', 'additionalProperties', '$schema']);
/** Tokens a json_schema response format costs beyond its rendered schema (measured on five recordings: ±2). */
export const RESPONSE_FORMAT_TOKENS = 9;
/** A response format's description costs its tokens plus this much. */
export const RESPONSE_FORMAT_DESCRIPTION_TOKENS = 2;

/** What a json_schema response format renders: its description and the schema's JSON without the keywords above. */
export interface RenderedResponseFormat {
  description: string | null;
  schema: string;
}

/** Reads a Chat `response_format` or a Responses `text.format` value; null when it holds no json_schema. */
export function renderResponseFormat(format: unknown): RenderedResponseFormat | null {
  if (!isObject(format) || format.type !== 'json_schema') return null;
  const named = isObject(format.json_schema) ? format.json_schema : format;
  const description = typeof named.description === 'string' && named.description !== '' ? named.description : null;
  return { description, schema: JSON.stringify(renderedSchema(named.schema)) ?? '' };
}

function renderedSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(renderedSchema);
  if (!isObject(schema)) return schema;
  // fromEntries defines own properties, so a key named "__proto__" stays a key.
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key]) => !SCHEMA_KEYWORDS_NOT_RENDERED.has(key))
      // Property names are data, not keywords: a property called "required" stays.
      .map(([key, value]) => [
        key,
        key === 'properties' && isObject(value)
          ? Object.fromEntries(Object.entries(value).map(([name, property]) => [name, renderedSchema(property)]))
          : renderedSchema(value),
      ]),
  );
}
