// What the envelope readers and adapters hand to the measurement: ordered block texts plus where each came from.
import type { Refusal } from './codes.ts';

export const ADAPTERS = ['openai-chat-v1', 'conereplay-v1'] as const;
export type AdapterName = (typeof ADAPTERS)[number];

/** Which rule turned the input into blocks (documented in docs/dupes.md). */
export const MAPPINGS = [
  'envelope-blocks-v1',
  'openai-chat-messages-v1',
  'conereplay-events-v1',
  'request-log-last-requests-v1',
] as const;
export type MappingName = (typeof MAPPINGS)[number];

/** Structural position of a block in its input: indices and fixed field names only, never text. */
export interface BlockOrigin {
  /** Request index (request logs). */
  request?: number;
  /** Message index (openai-chat-v1; request logs, where -1 is the system prompt / instructions). */
  message?: number;
  /** Content part index inside the message, when the message content is an array. */
  part?: number;
  /** Trace event index (conereplay-v1). */
  event?: number;
  /** Which event string the block is (conereplay-v1). */
  field?: 'inputs' | 'outputs';
}

export interface SourceBlock {
  text: string;
  origin: BlockOrigin | null;
  /**
   * Blocks are duplicates only of blocks in the same scope (request logs: the request that carries them, so a
   * system prompt each conversation sends once is no duplicate). Absent: one scope for the whole input.
   */
  scope?: number;
}

/** Blocks ready to measure. */
export interface BlockSource {
  adapter: AdapterName | null;
  mapping: MappingName;
  blocks: SourceBlock[];
  /** Content the mapping leaves out of scope on purpose (non-text parts, media), counted so nothing vanishes. */
  ignoredParts: number;
}

/** A reader's answer: blocks, or a refusal that still says which adapter/mapping had been recognized. */
export type SourceOutcome =
  | { ok: true; source: BlockSource }
  | { ok: false; refusal: Refusal; adapter: AdapterName | null; mapping: MappingName | null };

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
