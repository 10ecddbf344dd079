// What the worker keeps about the current input: the full analysis (with payload text) that the page never sees.
import type { ParsedRequest } from '../core/model.ts';
import type { InputBlob } from './inputs.ts';
import type { DupesRecord } from '../core/dupes/index.ts';

export interface WorkerSession {
  /** Parsed requests with their segment text, aligned by index with `AnalysisView.requests`. */
  requests: ParsedRequest[];
  /**
   * Optional analysis sections by name (`cache`, `conversations`, `findings`, ...): the top-level fields of the
   * core Analysis other than the per-request data. Panels read them through the `section` query or a handler.
   */
  sections: Record<string, unknown>;
  /** The core Analysis object itself, for handlers that need more than the sections. */
  analysis: unknown;
  /** The inputs as the page sent them (Blobs), for handlers that re-read bytes (e.g. a sidecar). */
  inputs: InputBlob[];
  /**
   * The loaded log's ctxray.dupes/1 record, measured in the background from the moment the analysis is posted
   * (src/worker/handlers/dupes.ts), so the Duplicates panel answers at once; absent until started.
   */
  dupes?: Promise<DupesRecord>;
}

/** A failure the page shows as is (bad params, nothing loaded). Any other exception is reported as internal. */
export class QueryError extends Error {}

/** Longest name quoted back in a refusal: enough to recognize it, too short to carry a payload. */
const QUOTE_CHARS = 40;

/** A name from a message (a query, a section, a type) as a refusal quotes it: JSON-escaped and cut. */
export function quoteName(name: string): string {
  return JSON.stringify(name.length > QUOTE_CHARS ? `${name.slice(0, QUOTE_CHARS)}…` : name);
}

/** Shared guard: most handlers need an analyzed input. */
export function requireSession(session: WorkerSession | null): WorkerSession {
  if (session === null) throw new QueryError('No input has been analyzed yet.');
  return session;
}
