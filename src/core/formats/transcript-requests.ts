// Shared by the transcript importers: a rebuilt request body goes through the same wire importer as a logged one,
// then gets what only the transcript knows (recorded usage, send time, what the transcript did not record).

import type { ParsedRequest, RecordedUsage, RequestNote, WireFormat } from '../model.ts';
import type { JsonObject } from '../input/json-value.ts';
import type { TranscriptContext } from './types.ts';
import { WIRE_IMPORTERS } from './wire.ts';
import { note } from './notes.ts';

export interface RebuiltRequest {
  format: WireFormat;
  body: JsonObject;
  /** 1-based line of the record the request was rebuilt at (the response that answered it). */
  line: number;
  timestamp: number | null;
  recorded: RecordedUsage | null;
  /** What the request contained that the transcript does not hold. */
  missing: ('transcript_missing_tools' | 'transcript_missing_system')[];
  /** The agent thread of the file (ParsedRequest.thread), when the transcript holds several. */
  thread?: number;
  /** The transcript records a compaction of the history since the call before (`transcript_compacted`). */
  compacted?: boolean;
}

export function importRebuilt(rebuilt: RebuiltRequest, ctx: TranscriptContext): ParsedRequest {
  const request = WIRE_IMPORTERS[rebuilt.format](rebuilt.body, { store: ctx.store, file: ctx.file, line: rebuilt.line, index: 0 });
  const notes: RequestNote[] = [...request.notes, ...rebuilt.missing.map((code) => note(code))];
  if (rebuilt.compacted === true) notes.push(note('transcript_compacted'));
  const rebuiltRequest: ParsedRequest = { ...request, notes, timestamp: rebuilt.timestamp, recorded: rebuilt.recorded };
  if (rebuilt.thread !== undefined && rebuilt.thread > 0) rebuiltRequest.thread = rebuilt.thread;
  ctx.budget?.addRequest(rebuiltRequest);
  return rebuiltRequest;
}
