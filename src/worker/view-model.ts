// The text-free view of an analysis that the worker posts to the page. Payload text stays in the worker and is
// fetched on demand (the `segment-text` query), so a log of hundreds of MB never crosses into the page.
import type { UnrecordedPart } from '../core/cache/unrecorded-setup.ts';
import type { CacheMarker, Category, ReadError, RequestNoteCode, WireFormat } from '../core/model.ts';

/**
 * One block of a request; or, with category `setup_inferred` (last, after the request's own blocks), the system
 * prompt and tools the transcript did not record, sized from recorded usage: no path, bytes, hash or text.
 */
export interface SegmentView {
  category: Category;
  /** JSON path inside the request body, e.g. `messages[3].content[1]`. */
  path: string;
  tokens: number;
  bytes: number;
  hash: string;
  cacheMarker: CacheMarker | null;
  messageIndex: number;
  role: string | null;
  toolName: string | null;
}

export interface RequestView {
  index: number;
  /** 1-based line (JSONL) or record number (array) in its file. */
  line: number;
  file: number;
  format: WireFormat;
  /** Model id as written in the request, or the override; null when absent. */
  model: string | null;
  /** False for estimates (every Claude count): the UI prefixes them with ≈. */
  exact: boolean;
  /** Tokens of the whole request as billed: segments plus overhead. */
  total: number;
  /** Framing and hidden prompt tokens not attributable to a segment. */
  overhead: number;
  byCategory: Partial<Record<Category, number>>;
  segments: SegmentView[];
  /** What its `setup_inferred` segment stands for (core/cache/unrecorded-setup.ts); empty when it has none. */
  unrecorded: UnrecordedPart[];
  messageCount: number;
  notes: RequestNoteCode[];
  /** The prompt size the provider recorded for this request (input + cache reads + cache writes), when the log has it. */
  recordedPrompt: number | null;
  /** Claude: the estimate's relative half-width where its shape misses the held-out target (docs/tokens.md); null elsewhere. */
  band: number | null;
}

export interface FileView {
  name: string;
  /** Detected format (or transcript kind), null when nothing could be read. */
  format: string | null;
  envelope: string;
  records: number;
  requests: number;
  errors: number;
}

export interface AnalysisView {
  files: FileView[];
  requests: RequestView[];
  errors: ReadError[];
  /** Sum over all requests. */
  totals: { total: number; exact: boolean; byCategory: Partial<Record<Category, number>> };
  /** Distinct formats seen, in order of first appearance. */
  formats: WireFormat[];
  /** Names of the optional analysis sections present (e.g. `cache`, `findings`): panels declare which they need. */
  sections: SectionName[];
  /** Every request recorded usage but no body (a Cline ui_messages.json alone): there is nothing to break down. */
  usageOnly: boolean;
  /**
   * Where the near-duplicate search stopped at its pair budget (groups from that request on may be missing), else
   * null: the Duplicates panel says so beside the groups, as the CLI and the HTML report do.
   */
  nearDuplicatesCut: { request: number; requestsNotCompared: number } | null;
  /** The request the view opens on: the last of one growing conversation, else the largest. */
  initialRequest: number;
  /** Each model id the requests name (or the override), with whether it has a pricing entry. */
  models: { id: string | null; requests: number; known: boolean; pricedAs: string | null }[];
  /** Date the pricing table was checked. */
  pricedOn: string;
  /** Every model id the pricing table knows, for the model picker. */
  knownModels: { id: string; displayName: string; provider: 'anthropic' | 'openai' }[];
}

/** The core Analysis' optional sections (its fields beyond the base view); src/worker/view.ts checks the list. */
export type SectionName = 'calibration' | 'calibrationRefused' | 'usageWarnings' | 'cache' | 'conversations' | 'findings' | 'nearDuplicates';
