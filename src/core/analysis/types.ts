// The analysis result: a plain, serializable object graph (it is posted from the worker to the page).
import type { SessionLink } from '../formats/types.ts';
import type { Category, ParsedRequest, ReadError, WireFormat } from '../model.ts';
import type { MatchVia } from '../pricing/lookup.ts';
import type { DroppedCalls } from '../input/seen-calls.ts';
import type { PricedModel } from '../pricing/table.ts';
import type { RequestTokens } from '../tokens/counter.ts';
import type { Calibration } from '../cache/calibrate.ts';
import type { UsageWarning } from '../input/usage-check.ts';
import type { CacheAnalysis, Conversations, Finding, NearDuplicateGroup } from '../cache/index.ts';

/** Which model prices a request and where that id came from. */
export interface ResolvedModel {
  /** The id used: the `--model` override, else the request's own id, else null. */
  id: string | null;
  source: 'request' | 'override' | 'none';
  /** Table entry for `id`, or null when the id is unknown (reported, never priced as another model). */
  pricing: PricedModel | null;
  /** How `id` matched the table. */
  via: MatchVia | null;
  /** What the route changed in the price ("Bedrock regional endpoint, +10%"), when it did. */
  routeNote?: string;
  /** Set when `--prices` gave this model's rates: where they come from and their date. */
  priceSource?: { source: string; pricedOn: string };
  /** The call ran in fast mode (its usage says so): priced at the fast-mode rates where the table has them. */
  fastMode?: true;
}

export interface TokenTotals {
  requests: number;
  /** Σ request totals (segments + overhead). */
  tokens: number;
  /** Requests whose count is exact (OpenAI text-only Chat); the rest are estimates. */
  exactRequests: number;
  byCategory: Partial<Record<Category, number>>;
  overhead: number;
}

export interface AnalysisFile {
  /** As given (a path or a browser File name); shown to the user, never written to machine-readable output. */
  name: string;
  format: WireFormat | string | null;
  envelope: string;
  /** 'jsonl', 'json-array', 'json-document', 'batch-body', or null when unreadable. */
  layout: string | null;
  records: number;
  requests: number;
  errors: number;
  totals: TokenTotals;
  /**
   * Path relative to the folder it was found in (or the file's own name), with `/` separators: the one name the
   * JSON record may carry (sessions[].file). Absent when the caller gave none.
   */
  folderPath?: string;
  /** An agent transcript's place among its sessions (main session or subagent), when it records one. */
  session?: SessionLink;
}

export interface ModelUse {
  id: string | null;
  requests: number;
  known: boolean;
  pricedAs: string | null;
  /** Priced models only: how the id matched (api, snapshot, bedrock, vertex, openrouter, azure). */
  via?: MatchVia | null;
  /** Priced models only: the date of the prices used (the table row's, or the --prices file's). */
  pricedOn?: string;
  /** Priced models only: the built-in table or a --prices file. */
  priceSource?: 'table' | 'prices-file';
  /** Of `requests`, the calls that ran in fast mode (absent when none did). */
  fastRequests?: number;
}

export interface Analysis {
  generatedBy: string;
  pricedOn: string;
  files: AnalysisFile[];
  requests: ParsedRequest[];
  models: ResolvedModel[];
  tokens: RequestTokens[];
  /** Per request, tokens per segment (aligned with `requests[i].segments`): the cache simulation's input. */
  segmentTokens: number[][];
  /** Per request, hidden tokens outside any segment. */
  overheadTokens: number[];
  totals: TokenTotals;
  modelUse: ModelUse[];
  errors: ReadError[];
  distinctTexts: number;
  /** Recorded usage values refused as impossible, one per value (src/core/input/usage-check.ts); absent: none. */
  usageWarnings?: UsageWarning[];
  /** A calibration factor measured but refused as outside 0.5–2× (cache/calibrate.ts CALIBRATION_BAND); not applied. */
  calibrationRefused?: Calibration;
  /** Present when Claude estimates were rescaled (src/core/analysis/calibrate-analysis.ts). */
  calibration?: Calibration;
  /** The cache analysis (src/core/analysis/attach.ts); the three fields below are its parts, as named sections. */
  cache?: CacheAnalysis;
  conversations?: Conversations;
  findings?: Finding[];
  nearDuplicates?: NearDuplicateGroup[];
  /** Calls dropped as copies of calls an earlier file recorded (a resumed or copied session), per file. */
  duplicateCalls?: DroppedCalls[];
}
