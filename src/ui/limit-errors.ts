// Which read errors mean that a file stopped at a resource limit (the reader's own wording, src/core/input):
// decompressed size (a gzip bomb), plain file size, and one whole-document JSON file over the document limit.
// After one of these the app refuses the input as a whole and replaces the worker that read it. A record over the
// record or nesting limit is different: that record alone is skipped without being buffered, and the rest opens.
import type { ReadError } from '../core/model.ts';

const FILE_LIMIT_MESSAGES = [
  /^decompressed size exceeds the limit of /,
  /^the file is larger than the limit of /,
  /^a single JSON document larger than the limit of /,
];

export function isFileLimitError(error: ReadError): boolean {
  return FILE_LIMIT_MESSAGES.some((pattern) => pattern.test(error.message));
}
