// The system prompt and tools a transcript does not record: which parts a request lacks, and its tokens without
// the size the cache analysis inferred for them (analysis/with-unrecorded-setup.ts adds that size to the counts).
import type { ParsedRequest } from '../model.ts';
import type { RequestTokens } from '../tokens/counter.ts';

/**
 * What the `setup_inferred` part of a request stands for: the system prompt and/or tools the transcript did not
 * record, and on a rollout that carries encrypted reasoning (Codex) also that reasoning, whose tokens are only
 * estimated from its length, so the difference to the recorded prompt holds its error (it grows along the
 * conversation). Fixed codes, in this order; empty for a request whose log records its whole setup.
 */
export const UNRECORDED_PARTS = ['system_prompt', 'tools', 'hidden_reasoning'] as const;
export type UnrecordedPart = (typeof UNRECORDED_PARTS)[number];

export function unrecordedParts(request: ParsedRequest): UnrecordedPart[] {
  const parts: UnrecordedPart[] = [];
  if (request.notes.some((note) => note.code === 'transcript_missing_system')) parts.push('system_prompt');
  if (request.notes.some((note) => note.code === 'transcript_missing_tools')) parts.push('tools');
  if (parts.length > 0 && request.segments.some((segment) => segment.wire.includes('"encrypted_content"'))) parts.push('hidden_reasoning');
  return parts;
}

/** Tokens of the request rebuilt from the log: its segments and overhead, without the inferred setup. */
export const reconstructedTokens = (tokens: RequestTokens): number => tokens.total - (tokens.byCategory.setup_inferred ?? 0);
