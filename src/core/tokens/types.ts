// What a token count says about a request: per block, the hidden overhead, and why it is not exact.
import type { Category } from '../model.ts';
import type { OpenAIEncoding } from './openai.ts';

export type Tokenizer = OpenAIEncoding | 'claude-estimate';

/** Why a count is not exact. Fixed codes, never payload text. */
export type TokenNoteCode =
  | 'claude_estimate'
  | 'encoding_assumed'
  | 'framing_unverified'
  | 'tools_rendering_estimated'
  | 'media_estimated'
  | 'server_tool_not_modelled'
  | 'multi_part_message'
  | 'reasoning_estimated'
  | 'response_format_estimated'
  | 'estimate_wide'
  | 'unknown_shapes';

/** Hidden tokens a request pays that belong to no block. */
export interface OverheadTokens {
  /** Message framing and reply priming (OpenAI), role markers (Claude), tool-call framing. */
  framing: number;
  /** OpenAI: the `namespace functions` wrapper and tools preamble around the rendered definitions. */
  toolsPreamble: number;
  /** Claude: the hidden tool-use system prompt (by tool_choice) and the extended-thinking instruction. */
  toolUseSystem: number;
}

export interface RequestTokens {
  /** Tokens per segment, aligned with `request.segments`. */
  segments: number[];
  overhead: OverheadTokens;
  /** Sum of the overhead parts. */
  overheadTotal: number;
  /**
   * Per segment (aligned with `segments`), the part of `overhead.framing` that frames it: a message's role marker
   * on its first block, a tool call's framing on the call (framing.ts). The rest of the overhead precedes every
   * block. Empty: all of it does.
   */
  framing: number[];
  /** Σ segments + overhead: the prompt size as the provider bills it. */
  total: number;
  exact: boolean;
  /** Segment tokens per category (overhead not included). */
  byCategory: Partial<Record<Category, number>>;
  tokenizer: Tokenizer;
  notes: TokenNoteCode[];
  /**
   * Claude: the estimate's relative half-width (0.2 = ±20%) where the request's shape misses the held-out target
   * (claudeEstimateBand); absent elsewhere. Such counts carry the note `estimate_wide`.
   */
  band?: number;
}
