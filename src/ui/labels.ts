// How an input is named on screen: its source, and the formats or transcript kinds it was read as.
import { TRANSCRIPT_LABELS, WIRE_FORMAT_LABELS } from '../core/formats/labels.ts';
import type { Source } from './screen.ts';

/** "pi session" (the kinds read) when every file is a transcript, else null: the wire formats say more then. */
export function transcriptKinds(files: readonly { format: string | null }[]): string | null {
  const kinds = files.map((f) => (f.format === null ? undefined : TRANSCRIPT_LABELS[f.format]));
  if (kinds.length === 0 || kinds.some((k) => k === undefined)) return null;
  return [...new Set(kinds)].join(', ');
}

/** The wire formats by name (the core's table, which the terminal and the HTML report use too). */
export const FORMAT_LABELS = WIRE_FORMAT_LABELS;

export function sourceLabel(source: Source): string {
  if (source.kind === 'example') return `${source.entry.title} (synthetic example)`;
  if (source.kind === 'paste') return 'Pasted text';
  const [first] = source.inputs;
  return source.inputs.length === 1 && first ? first.name : `${source.inputs.length} files`;
}
