// The typed message protocol between the page and the analysis worker.
// The page sends input bytes (File/Blob, never parsed on the main thread) and questions; the worker answers with a
// text-free view of the analysis, progress, query results and errors. Every request carries an id so answers,
// progress and cancellation are matched without shared state.
import type { AnalysisView } from './view-model.ts';
import type { FolderView } from './folder.ts';
import type { WireFormat } from '../core/model.ts';
import type { InputBlob, ProgressInfo } from './inputs.ts';

export interface AnalyzeOptions {
  /** Override format detection for this input; 'auto' (or absent) detects. */
  format?: WireFormat | 'auto';
  /** Price and tokenize as this model id instead of the one the requests name. */
  model?: string;
}

export type ToWorker =
  | { type: 'analyze'; id: number; inputs: InputBlob[]; options: AnalyzeOptions }
  /**
   * A folder's sessions as the rows of its folder table: one at a time here (src/worker/folder.ts), or, with
   * `ports` (one to each session worker of the page's pool), on the pool, with views posted as it fills in.
   */
  | { type: 'analyze-folder'; id: number; inputs: InputBlob[]; ports?: MessagePort[] }
  | { type: 'cancel'; id: number }
  /**
   * A named question answered by a handler registered in src/worker/handlers.ts. The page sends a `QueryName`
   * (./queries.ts); the worker checks the name and the params all the same, since a message is only data.
   */
  | { type: 'query'; id: number; name: string; params: unknown };

/** `protocol`: the message itself was malformed (a field of the wrong type, an unknown type, a reused id). */
export type ErrorKind = 'cancelled' | 'input' | 'no-analysis' | 'unknown-query' | 'protocol' | 'internal';

export interface WorkerError {
  kind: ErrorKind;
  message: string;
}

export type FromWorker =
  | { type: 'progress'; id: number; progress: ProgressInfo }
  | { type: 'analyzed'; id: number; view: AnalysisView }
  | { type: 'folder-analyzed'; id: number; folder: FolderView }
  /** The rows of a folder read on a pool so far (its `progress` set); its answer is 'folder-analyzed'. */
  | { type: 'folder-view'; id: number; folder: FolderView }
  | { type: 'answer'; id: number; value: unknown }
  | { type: 'failed'; id: number; error: WorkerError };

export function isFromWorker(value: unknown): value is FromWorker {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as { type?: unknown; id?: unknown };
  return (
    typeof record.id === 'number' &&
    (record.type === 'progress' || record.type === 'analyzed' || record.type === 'folder-analyzed' || record.type === 'folder-view' || record.type === 'answer' || record.type === 'failed')
  );
}
