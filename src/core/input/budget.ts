// The work limits of one read (limits.ts) that span files: requests, segments (all, and built anew) and distinct texts. Every request
// the reader keeps, from a wire log or rebuilt from a transcript, is counted here as it is made, so a bomb stops
// at the limit instead of after it has filled the heap.

import type { ParsedRequest } from '../model.ts';
import type { TextStore } from '../text/store.ts';
import { WorkLimitError } from './errors.ts';
import type { InputLimits } from './limits.ts';

export class WorkBudget {
  private requests = 0;
  private segments = 0;

  constructor(
    private readonly limits: InputLimits,
    private readonly store: TextStore,
  ) {}

  /** Count one kept request; throws WorkLimitError (at the request's line) once a limit is passed. */
  addRequest(request: ParsedRequest): void {
    this.requests++;
    this.segments += request.segments.length;
    const { maxRequests, maxSegments, maxBuiltSegments, maxDistinctTexts } = this.limits;
    if (this.requests > maxRequests) throw new WorkLimitError('LIMIT_REQUESTS', 'requests per input', maxRequests, { line: request.line, file: request.file });
    if (this.segments > maxSegments) throw new WorkLimitError('LIMIT_SEGMENTS', 'segments per input', maxSegments, { line: request.line, file: request.file });
    if (this.store.builtSegments > maxBuiltSegments) {
      throw new WorkLimitError('LIMIT_SEGMENTS', 'segments built anew (not resent from an earlier request) per input', maxBuiltSegments, { line: request.line, file: request.file });
    }
    if (this.store.distinctTexts > maxDistinctTexts) {
      throw new WorkLimitError('LIMIT_TEXTS', 'distinct texts per input', maxDistinctTexts, { line: request.line, file: request.file });
    }
  }
}

