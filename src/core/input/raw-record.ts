// One record of a file as the record readers (records.ts, yaml.ts) hand it on: the parsed value or why it could not
// be parsed. `line` as in ReadError. `cut`: the document breaks before its end (its errors come first); the value is
// what was read before the break. `listLines`: where the items of the document's lists start (list-lines.ts).
import type { ListLines } from './list-lines.ts';

export type RawRecord = { line: number; value: unknown; cut?: boolean; listLines?: ListLines } | { line: number; error: string };
