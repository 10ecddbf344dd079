// One TokenCounter per analysis. An agent loop resends its whole history every turn, so each distinct text
// (interned, so the Map key is one string object) is tokenized once and looked up afterwards.
import type { Category, ParsedRequest, Segment } from '../model.ts';
import {
  CLAUDE_ADAPTIVE_THINKING_TOKENS,
  CLAUDE_OUTPUT_FORMAT_TOKENS,
  CLAUDE_TASK_BUDGET_TOKENS,
  TASK_BUDGET_PATH,
  CLAUDE_PER_MESSAGE_TOKENS,
  CLAUDE_REQUEST_BASE_TOKENS,
  CLAUDE_TOOL_CALL_TOKENS,
  CLAUDE_THINKING_TOKENS,
  CLAUDE_TOKENS_PER_PDF_PAGE,
  CLAUDE_TEXT_DOCUMENT_TOKENS,
  CLAUDE_UNKNOWN_IMAGE_SIZE,
  NEW_TOKENIZER_FACTOR,
  claudeGeneration,
  claudeImageTokens,
  claudeToolSystemTokens,
  keepsEarlierThinking,
  claudeTokensFromO200k,
  isCodeLikeText,
  toolsReferencedByConversation,
  type ClaudeTextKind,
} from './claude.ts';
import { claudeEstimateBand, mediaShape, withBand } from './claude-band.ts';
import { attributeFraming } from './framing.ts';
import { imageDetailOf, pdfPageCount } from './media.ts';
import {
  NAMESPACE_CLOSE,
  NAMESPACE_OPEN,
  OPENAI_AUDIO_BYTES_PER_TOKEN,
  OPENAI_TOKENS_PER_PDF_PAGE,
  RESPONSE_FORMAT_DESCRIPTION_TOKENS,
  RESPONSE_FORMAT_TOKENS,
  TOOLS_PREAMBLE_TOKENS,
  TOOL_CALL_FRAMING_TOKENS,
  UNKNOWN_IMAGE_SIZE,
  encodingForModel,
  encryptedReasoningTokens,
  framingForModel,
  functionToolOf,
  loadEncoding,
  chatToolsAdjustment,
  framingRecorded,
  imageRuleForModel,
  openaiImageTokens,
  type FramingRule,
  type ImageRule,
  renderFunctionTool,
  renderResponseFormat,
  responsesToolsAdjustment,
  type OpenAIEncoding,
  type TokenCountFn,
} from './openai.ts';
import { RESPONSE_FORMAT_PATHS } from '../formats/response-format.ts';

export type { OverheadTokens, RequestTokens, TokenNoteCode, Tokenizer } from './types.ts';
import type { OverheadTokens, RequestTokens, TokenNoteCode, Tokenizer } from './types.ts';

const OPENAI_FORMATS = new Set(['openai-chat', 'openai-responses']);
/** Extra token a Chat message's `name` field costs beyond the name's own tokens. */
const MESSAGE_NAME_TOKENS = 1;

export class TokenCounter {
  private readonly encoders = new Map<OpenAIEncoding, TokenCountFn>();
  private readonly caches = new Map<Tokenizer, Map<string, number>>();
  private readonly pdfPages = new Map<string, number | null>();
  /**
   * The namespace rendering of each distinct tool wire (null: not a function tool). Tool lists are resent
   * every turn; each definition is parsed and rendered once.
   */
  private readonly renderedTools = new Map<string, string | null>();
  /** Chat `name` of a string-content message, read from its wire (the message JSON) once per distinct wire. */
  private readonly messageNames = new Map<string, string | null>();
  /** Whether a Claude tool definition's wire has `defer_loading: true`, by wire. */
  private readonly deferredTools = new Map<string, boolean>();
  /**
   * The Claude estimate of each segment and the notes it gave, per tokenizer generation: a resent element's segments
   * are the same objects request after request, or copies at another lookback position (segment-builder.ts), and
   * their count is a function of the fields sameCountInputs compares.
   */
  private readonly claudeSegments = [new SegmentCounts(), new SegmentCounts()] as const;

  /** Loads the vocabularies these requests need (lazily: input without cl100k models never loads cl100k). */
  async prepare(requests: readonly ParsedRequest[], modelOf: (request: ParsedRequest) => string | null): Promise<void> {
    const needed = new Set<OpenAIEncoding>();
    for (const request of requests) {
      // The Claude estimate scales o200k_base counts.
      needed.add(OPENAI_FORMATS.has(request.format) ? encodingForModel(modelOf(request)).encoding : 'o200k_base');
    }
    for (const encoding of needed) {
      if (!this.encoders.has(encoding)) this.encoders.set(encoding, await loadEncoding(encoding));
    }
  }

  /** Number of distinct texts tokenized so far, per tokenizer. */
  distinctTexts(tokenizer: Tokenizer): number {
    return this.caches.get(tokenizer)?.size ?? 0;
  }

  private cached(tokenizer: Tokenizer, text: string, compute: (text: string) => number): number {
    let cache = this.caches.get(tokenizer);
    if (!cache) {
      cache = new Map();
      this.caches.set(tokenizer, cache);
    }
    const known = cache.get(text);
    if (known !== undefined) return known;
    const value = compute(text);
    cache.set(text, value);
    return value;
  }

  private openaiCount(encoding: OpenAIEncoding, text: string): number {
    if (text === '') return 0;
    const encode = this.encoders.get(encoding);
    if (!encode) throw new Error(`tokenizer ${encoding} was not loaded: call prepare() first`);
    return this.cached(encoding, text, encode);
  }

  /** Whether each distinct text is code-like (measured once per text). */
  private readonly codeLike = new Map<string, boolean>();

  /** A Claude text's estimate: its o200k_base count × the factor of its kind (prose or code unless given). */
  private claudeCount(text: string, newTokenizer: boolean, kind?: ClaudeTextKind): number {
    if (text === '') return 0;
    let textKind = kind;
    if (textKind === undefined) {
      let code = this.codeLike.get(text);
      if (code === undefined) {
        code = isCodeLikeText(text);
        this.codeLike.set(text, code);
      }
      textKind = code ? 'code' : 'prose';
    }
    return claudeTokensFromO200k(this.openaiCount('o200k_base', text), textKind, newTokenizer);
  }

  private renderedTool(wire: string): string | null {
    let rendered = this.renderedTools.get(wire);
    if (rendered === undefined) {
      const tool = functionToolOf(parseJson(wire));
      rendered = tool ? renderFunctionTool(tool) : null;
      this.renderedTools.set(wire, rendered);
    }
    return rendered;
  }

  /** A json_schema response format: its rendered schema, description and the fixed tokens around them. */
  private responseFormatTokens(wire: string, count: (text: string) => number): number {
    const rendered = renderResponseFormat(parseJson(wire));
    if (rendered === null) return count(wire);
    const description = rendered.description === null ? 0 : count(rendered.description) + RESPONSE_FORMAT_DESCRIPTION_TOKENS;
    return count(rendered.schema) + RESPONSE_FORMAT_TOKENS + description;
  }

  private messageNameOf(segment: Segment): string | null {
    // Only a string-content message's wire is the message itself; parts carry no `name`.
    if (!segment.path.endsWith('.content') || !segment.wire.includes('"name"')) return null;
    let name = this.messageNames.get(segment.wire);
    if (name === undefined) {
      const message = parseJson(segment.wire);
      const value = typeof message === 'object' && message !== null ? (message as { name?: unknown }).name : undefined;
      name = typeof value === 'string' && value !== '' ? value : null;
      this.messageNames.set(segment.wire, name);
    }
    return name;
  }

  private pagesOf(wire: string): number | null {
    if (!this.pdfPages.has(wire)) this.pdfPages.set(wire, pdfPageCount(wire));
    return this.pdfPages.get(wire) ?? null;
  }

  /** Counts one request as billed by `model` (the resolved id: the request's own or the override). */
  count(request: ParsedRequest, model: string | null): RequestTokens {
    return OPENAI_FORMATS.has(request.format) ? this.countOpenAI(request, model) : this.countClaude(request, model);
  }

  private countOpenAI(request: ParsedRequest, model: string | null): RequestTokens {
    const { encoding, assumed } = encodingForModel(model);
    const framing = framingForModel(model);
    const notes = new Set<TokenNoteCode>();
    const rules: OpenAIRules = { model, framing, imageRule: imageRuleForModel(model), count: (text) => this.openaiCount(encoding, text), notes };
    if (assumed) notes.add('encoding_assumed');
    if (!framingRecorded(model)) notes.add('framing_unverified');
    if (request.format === 'openai-responses') notes.add('framing_unverified');

    const counted = this.openaiSegments(request, rules);
    let hasSystemMessage = counted.instructionsFramed;
    const messageFraming = messageRoles(request).map((role) => {
      const isSystem = role === 'system' || role === 'developer';
      hasSystemMessage ||= isSystem;
      return isSystem && !framing.billsSystemMessages ? 0 : framing.perMessage + rules.count(role);
    });
    const perSegment = attributeFraming(request, messageFraming, counted.own);
    let framingTotal = framing.priming + framing.fixed;
    for (const tokens of messageFraming) framingTotal += tokens;
    for (const tokens of counted.own) framingTotal += tokens;

    const toolsPreamble = counted.functionTools > 0 ? toolsPreambleTokens(request, rules, hasSystemMessage) : 0;
    const overhead: OverheadTokens = { framing: framingTotal, toolsPreamble, toolUseSystem: 0 };
    return finish(request, { segments: counted.segments, framing: perSegment }, overhead, { tokenizer: encoding, notes });
  }

  /** Each segment's tokens and the framing it carries itself; the function tools and whether instructions are framed. */
  private openaiSegments(request: ParsedRequest, rules: OpenAIRules): OpenAISegments {
    const { framing, count, notes } = rules;
    const segments: number[] = [];
    let functionTools = 0;
    const textPartsPerMessage = new Map<number, number>();
    // Framing a block carries itself: a participant name, a tool call's framing, the instructions' system frame.
    const own: number[] = [];
    let instructionsFramed = false;
    for (const segment of request.segments) {
      let ownFraming = 0;
      const name = request.format === 'openai-chat' && segment.category !== 'tool_result' ? this.messageNameOf(segment) : null;
      if (name !== null) {
        // OpenAI's cookbook: a participant name costs its tokens plus 1; no recording here has one.
        ownFraming += count(name) + MESSAGE_NAME_TOKENS;
        notes.add('framing_unverified');
      }
      segments.push(this.openaiSegment(segment, rules));
      if (segment.category === 'tools' && this.renderedTool(segment.wire) !== null) functionTools++;
      if (segment.category === 'tool_call') {
        ownFraming += TOOL_CALL_FRAMING_TOKENS + count(segment.toolName ?? '');
        notes.add('tools_rendering_estimated');
      }
      if (!instructionsFramed && segment.messageIndex < 0 && segment.path.startsWith('instructions')) {
        // Responses `instructions` is framed as one more system message, before the input.
        instructionsFramed = true;
        if (framing.billsSystemMessages) ownFraming += framing.perMessage + count('system');
      }
      own.push(ownFraming);
      if (segment.media === null && segment.category !== 'tools' && !RESPONSE_FORMAT_PATHS.has(segment.path)) {
        textPartsPerMessage.set(segment.messageIndex, (textPartsPerMessage.get(segment.messageIndex) ?? 0) + 1);
      }
    }
    // Joined parts may merge tokens across the seam; each part is counted alone.
    for (const parts of textPartsPerMessage.values()) if (parts > 1) notes.add('multi_part_message');
    return { segments, own, functionTools, instructionsFramed };
  }

  private openaiSegment(segment: Segment, rules: OpenAIRules): number {
    const { count, notes } = rules;
    switch (segment.category) {
      case 'system':
        if (RESPONSE_FORMAT_PATHS.has(segment.path)) {
          notes.add('response_format_estimated');
          return this.responseFormatTokens(segment.wire, count);
        }
        return rules.framing.billsSystemMessages ? count(segment.text) : 0;
      case 'tools': {
        const rendered = this.renderedTool(segment.wire);
        if (rendered !== null) return count(rendered);
        notes.add('server_tool_not_modelled');
        return count(segment.text);
      }
      case 'tool_call':
        return count(segment.text);
      case 'thinking':
        if (segment.wire.includes('"encrypted_content"') && segment.text !== '') {
          notes.add('reasoning_estimated');
          return encryptedReasoningTokens(segment.text.length);
        }
        return count(segment.text);
      case 'image': {
        notes.add('media_estimated');
        const media = segment.media;
        const width = media?.width ?? UNKNOWN_IMAGE_SIZE.width;
        const height = media?.height ?? UNKNOWN_IMAGE_SIZE.height;
        return openaiImageTokens(width, height, imageDetailOf(segment.wire), rules.imageRule);
      }
      case 'document':
        notes.add('media_estimated');
        return OPENAI_TOKENS_PER_PDF_PAGE * (this.pagesOf(segment.wire) ?? 1);
      case 'audio':
        notes.add('media_estimated');
        return Math.max(1, Math.round((segment.media?.dataBytes ?? 0) / OPENAI_AUDIO_BYTES_PER_TOKEN));
      default:
        return count(segment.text);
    }
  }

  private countClaude(request: ParsedRequest, model: string | null): RequestTokens {
    const notes = new Set<TokenNoteCode>(['claude_estimate']);
    // MCP servers' tool definitions are fetched server-side: not in the file, not modelled.
    if (request.options.mcpServers) notes.add('server_tool_not_modelled');
    const generation = claudeGeneration(model);
    const newTokenizer = generation === 'newer-tokenizer';
    const segments: number[] = [];
    let tools = 0;
    let toolCalls = 0;
    const strippedBefore = keepsEarlierThinking(model) ? -1 : lastUserTurn(request);
    const deferred = request.segments.some((segment) => this.isDeferredTool(segment));
    const loaded = deferred ? toolsReferencedByConversation(request.segments) : null;
    for (const segment of request.segments) {
      if (segment.category === 'tools') tools++;
      if (segment.category === 'tool_call') toolCalls++;
      // Models before Opus 4.5 / Sonnet 4.6 drop thinking blocks of turns before the latest user turn.
      const stripped = segment.category === 'thinking' && segment.messageIndex < strippedBefore;
      // A deferred tool's definition enters the prompt only once a tool search has referenced it.
      const notLoaded = loaded !== null && this.isDeferredTool(segment) && !loaded.has(segment.toolName ?? '');
      segments.push(stripped || notLoaded ? 0 : this.claudeSegmentOnce(segment, newTokenizer, notes));
    }
    let toolUseSystem = 0;
    if (tools > 0) toolUseSystem += claudeToolSystemTokens(model, request.options.toolChoice ?? 'auto');
    // `enabled` / `adaptive` extended thinking (optionally `:<effort>`); an effort setting alone adds nothing.
    const thinking = request.options.thinking ?? '';
    if (/^enabled\b/.test(thinking)) toolUseSystem += CLAUDE_THINKING_TOKENS;
    else if (/^adaptive\b/.test(thinking) && !newTokenizer) toolUseSystem += CLAUDE_ADAPTIVE_THINKING_TOKENS;
    const overhead: OverheadTokens = {
      framing: CLAUDE_REQUEST_BASE_TOKENS + CLAUDE_PER_MESSAGE_TOKENS * request.messageCount + CLAUDE_TOOL_CALL_TOKENS * toolCalls,
      toolsPreamble: 0,
      toolUseSystem,
    };
    const own = request.segments.map((segment) => (segment.category === 'tool_call' ? CLAUDE_TOOL_CALL_TOKENS : 0));
    const perSegment = attributeFraming(request, new Array<number>(request.messageCount).fill(CLAUDE_PER_MESSAGE_TOKENS), own);
    const counted = finish(request, { segments, framing: perSegment }, overhead, { tokenizer: 'claude-estimate', notes });
    return withBand(counted, claudeEstimateBand({ ...mediaShape(request, (wire) => this.pagesOf(wire)), newTokenizer, total: counted.total }));
  }

  /** A top-level Claude tool definition with `defer_loading: true` (tool search). */
  private isDeferredTool(segment: Segment): boolean {
    if (segment.category !== 'tools' || segment.messageIndex >= 0) return false;
    // Looked up before scanning: a tool list is resent every turn, its definitions are scanned once each.
    let deferred = this.deferredTools.get(segment.wire);
    if (deferred === undefined) {
      const tool = segment.wire.includes('"defer_loading"') ? parseJson(segment.wire) : null;
      deferred = typeof tool === 'object' && tool !== null && (tool as { defer_loading?: unknown }).defer_loading === true;
      this.deferredTools.set(segment.wire, deferred);
    }
    return deferred;
  }

  /** claudeSegment, once per segment (and its copies at other positions): the notes it gave are added again. */
  private claudeSegmentOnce(segment: Segment, newTokenizer: boolean, notes: Set<TokenNoteCode>): number {
    const known = this.claudeSegments[newTokenizer ? 1 : 0];
    const slot = segment.wireId;
    const last = known.segments[slot];
    if (last !== undefined && sameCountInputs(last, segment)) {
      for (const note of known.notes[slot]!) notes.add(note);
      return known.tokens[slot]!;
    }
    const own = new Set<TokenNoteCode>();
    const tokens = this.claudeSegment(segment, newTokenizer, own);
    for (const note of own) notes.add(note);
    known.segments[slot] = segment;
    known.tokens[slot] = tokens;
    known.notes[slot] = own.size === 0 ? NO_NOTES : [...own];
    return tokens;
  }

  private claudeSegment(segment: Segment, newTokenizer: boolean, notes: Set<TokenNoteCode>): number {
    // Media and fixed hidden instructions are scaled as a whole on the newer tokenizer; text by its kind's factor.
    // (Helpers, not closures made per segment: under tsx each named closure costs a defineProperty.)
    const scale = newTokenizer ? scaleToNewTokenizer : unscaled;
    if (RESPONSE_FORMAT_PATHS.has(segment.path)) {
      notes.add('response_format_estimated');
      const rendered = renderResponseFormat(parseJson(segment.wire));
      return this.claudeCount(rendered?.schema ?? segment.text, newTokenizer) + scale(CLAUDE_OUTPUT_FORMAT_TOKENS);
    }
    if (segment.path === TASK_BUDGET_PATH) {
      notes.add('response_format_estimated');
      return scale(CLAUDE_TASK_BUDGET_TOKENS);
    }
    switch (segment.category) {
      case 'tools':
        // Server tools (web search, code execution, ...) carry hidden prompts of their own, not modelled.
        if (!segment.wire.includes('"input_schema"')) notes.add('server_tool_not_modelled');
        return this.claudeCount(segment.text, newTokenizer, 'tools');
      case 'tool_call':
        return this.claudeCount(segment.toolName ?? '', newTokenizer) + this.claudeCount(segment.text, newTokenizer);
      case 'thinking':
        return this.claudeCount(segment.text, newTokenizer, 'thinking');
      case 'image': {
        const media = segment.media;
        return scale(claudeImageTokens(media?.width ?? CLAUDE_UNKNOWN_IMAGE_SIZE.width, media?.height ?? CLAUDE_UNKNOWN_IMAGE_SIZE.height));
      }
      case 'document': {
        const pages = this.pagesOf(segment.wire);
        if (pages === null && segment.text !== '') return this.claudeCount(segment.text, newTokenizer) + scale(CLAUDE_TEXT_DOCUMENT_TOKENS);
        return scale(CLAUDE_TOKENS_PER_PDF_PAGE * (pages ?? 1));
      }
      default:
        return this.claudeCount(segment.text, newTokenizer);
    }
  }
}

/**
 * Whether two segments count the same: every field claudeSegment reads is the same (a copy of a segment at another
 * lookback position differs only in its position). Strings are interned, so most comparisons are of pointers.
 */
function sameCountInputs(a: Segment, b: Segment): boolean {
  return a.wire === b.wire && a.text === b.text && a.category === b.category && a.path === b.path && a.toolName === b.toolName && a.media === b.media;
}

/** Counts memoized by a segment's wire id: a slot is trusted only for a segment that counts as the one it holds. */
class SegmentCounts {
  readonly segments: (Segment | undefined)[] = [];
  readonly tokens: number[] = [];
  readonly notes: (readonly TokenNoteCode[])[] = [];
}

const NO_NOTES: readonly TokenNoteCode[] = [];

function scaleToNewTokenizer(tokens: number): number {
  return Math.round(tokens * NEW_TOKENIZER_FACTOR);
}

function unscaled(tokens: number): number {
  return tokens;
}

/** Message index of the latest user turn that is not only tool results; -1 when there is none. */
function lastUserTurn(request: ParsedRequest): number {
  let last = -1;
  for (const segment of request.segments) {
    if (segment.role === 'user' && segment.category !== 'tool_result' && segment.messageIndex > last) last = segment.messageIndex;
  }
  return last;
}

function finish(
  request: ParsedRequest,
  { segments, framing }: { segments: number[]; framing: number[] },
  overhead: OverheadTokens,
  { tokenizer, notes }: { tokenizer: Tokenizer; notes: Set<TokenNoteCode> },
): RequestTokens {
  const byCategory: Partial<Record<Category, number>> = {};
  let segmentTotal = 0;
  request.segments.forEach((segment, i) => {
    const tokens = segments[i] ?? 0;
    segmentTotal += tokens;
    byCategory[segment.category] = (byCategory[segment.category] ?? 0) + tokens;
  });
  const overheadTotal = overhead.framing + overhead.toolsPreamble + overhead.toolUseSystem;
  if (request.unknownShapes.length > 0) notes.add('unknown_shapes');
  return {
    segments,
    overhead,
    overheadTotal,
    framing,
    total: segmentTotal + overheadTotal,
    exact: notes.size === 0,
    byCategory,
    tokenizer,
    notes: [...notes].sort(),
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/**
 * The role of each message the request holds, in order. Messages with no segment (an assistant turn whose
 * content is empty) still pay framing; their role is taken as assistant.
 */
function messageRoles(request: ParsedRequest): string[] {
  const roles: (string | null)[] = new Array<string | null>(request.messageCount).fill(null);
  for (const segment of request.segments) {
    if (segment.messageIndex >= 0 && segment.messageIndex < roles.length && roles[segment.messageIndex] === null) {
      roles[segment.messageIndex] = segment.role ?? roleOfCategory(segment.category);
    }
  }
  return roles.map((role) => role ?? 'assistant');
}

function roleOfCategory(category: Category): string {
  if (category === 'tool_result') return 'tool';
  if (category === 'system') return 'system';
  if (category === 'user') return 'user';
  return 'assistant';
}

/** How one request is counted for an OpenAI model: its framing and image rules, its tokenizer, the notes it gets. */
interface OpenAIRules {
  model: string | null;
  framing: FramingRule;
  imageRule: ImageRule;
  count: (text: string) => number;
  notes: Set<TokenNoteCode>;
}

interface OpenAISegments {
  segments: number[];
  own: number[];
  functionTools: number;
  instructionsFramed: boolean;
}

/** The preamble that function tool definitions add. */
function toolsPreambleTokens(request: ParsedRequest, rules: OpenAIRules, hasSystemMessage: boolean): number {
  const { count, framing } = rules;
  rules.notes.add('tools_rendering_estimated');
  // With a system message the definitions join it and the preamble is 4 tokens shorter (hmarr's rule).
  const preamble = count(NAMESPACE_OPEN) + count(NAMESPACE_CLOSE) + TOOLS_PREAMBLE_TOKENS - (hasSystemMessage ? 4 : 0);
  return preamble + (request.format === 'openai-responses' ? responsesToolsAdjustment(framing) : chatToolsAdjustment(rules.model));
}
