// How an input is named on screen: its source, and the formats or transcript kinds it was read as.
import type { WireFormat } from '../core/model.ts';
import type { Source } from './screen.ts';

/** Transcript kinds a file can be read as: the header says the requests were rebuilt from them. */
const TRANSCRIPT_LABELS: Record<string, string> = {
  'pi-session': 'pi session',
  'claude-code': 'Claude Code transcript',
  'codex-rollout': 'Codex rollout',
};

/** "pi session" (the kinds read) when every file is a transcript, else null: the wire formats say more then. */
export function transcriptKinds(files: readonly { format: string | null }[]): string | null {
  const kinds = files.map((f) => (f.format === null ? undefined : TRANSCRIPT_LABELS[f.format]));
  if (kinds.length === 0 || kinds.some((k) => k === undefined)) return null;
  return [...new Set(kinds)].join(', ');
}

export const FORMAT_LABELS: Record<WireFormat, string> = {
  'anthropic-messages': 'Anthropic Messages',
  'openai-chat': 'OpenAI Chat Completions',
  'openai-responses': 'OpenAI Responses',
};

export function sourceLabel(source: Source): string {
  if (source.kind === 'example') return `${source.entry.title} (synthetic example)`;
  if (source.kind === 'paste') return 'Pasted text';
  const [first] = source.inputs;
  return source.inputs.length === 1 && first ? first.name : `${source.inputs.length} files`;
}
