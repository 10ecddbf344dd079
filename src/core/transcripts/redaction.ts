// Redaction placeholders. Some published transcripts (the Codex fixture among them) replace every text with
// `[REDACTED_<KIND> len=<N> sha=<hex>]`, keeping the original length N in characters. Counting the placeholder as
// written would make such a request look a few hundred tokens long when the provider billed a hundred thousand,
// so the hidden text is estimated from N instead — an estimate, always reported apart from the exact counts.
import type { ParsedRequest } from '../model.ts';

/**
 * Characters per token assumed for redacted text. Measured on the largest request of each real pi session
 * (../shared/fixtures/real/transcripts/pi) with ctxray's own counts: 3.36 and 3.23 characters per token over the
 * whole request (tool-call JSON 2.9–3.0, tool output 3.35–3.4, prose 3.5–3.7). See docs/transcripts.md.
 */
export const REDACTED_CHARS_PER_TOKEN = 3.3;

/**
 * Kinds whose N does not measure text the model reads: an encrypted reasoning blob's length is ciphertext, not
 * reasoning tokens (and earlier turns' reasoning is not billed again as input). Left as counted.
 */
const NOT_ESTIMATED = new Set(['ENCRYPTED_CONTENT']);

const PLACEHOLDER = /\[REDACTED_([A-Z_]+) len=(\d{1,12}) sha=[0-9a-fA-F]{1,64}\]/g;

/** What the placeholders of one text stand for. */
export interface TextRedaction {
  /** Placeholders estimated (kinds in NOT_ESTIMATED are skipped). */
  placeholders: number;
  /** Σ N over those placeholders: characters of hidden text. */
  hiddenChars: number;
  /** Characters of the placeholders themselves. */
  placeholderChars: number;
}

const NONE: TextRedaction = { placeholders: 0, hiddenChars: 0, placeholderChars: 0 };

export function redactionOf(text: string): TextRedaction {
  // Cheap pre-check: almost every text of an unredacted log stops here.
  if (!text.includes('[REDACTED_')) return NONE;
  let placeholders = 0;
  let hiddenChars = 0;
  let placeholderChars = 0;
  for (const match of text.matchAll(PLACEHOLDER)) {
    if (NOT_ESTIMATED.has(match[1] ?? '')) continue;
    placeholders++;
    hiddenChars += Number(match[2]);
    placeholderChars += match[0].length;
  }
  return placeholders === 0 ? NONE : { placeholders, hiddenChars, placeholderChars };
}

/** A request's redacted text: how many placeholders, and the tokens to add to its count for the hidden text. */
export interface RequestRedaction {
  placeholders: number;
  hiddenChars: number;
  /**
   * Estimated tokens of the hidden text minus the tokens the placeholders were counted as (their share of their
   * segment's count, by characters). Not exact.
   */
  extraTokens: number;
}

/**
 * Estimates per request. Segments and texts are shared between the requests of a conversation, so each distinct
 * text is scanned once (a 100-turn session resends the same blocks 100 times).
 */
export class RedactionEstimator {
  private readonly byText = new Map<string, TextRedaction>();

  estimate(request: ParsedRequest, segmentTokens: readonly number[]): RequestRedaction {
    let placeholders = 0;
    let hiddenChars = 0;
    let extra = 0;
    request.segments.forEach((segment, s) => {
      let found = this.byText.get(segment.text);
      if (found === undefined) {
        found = redactionOf(segment.text);
        this.byText.set(segment.text, found);
      }
      if (found.placeholders === 0) return;
      placeholders += found.placeholders;
      hiddenChars += found.hiddenChars;
      const counted = ((segmentTokens[s] ?? 0) * found.placeholderChars) / segment.text.length;
      extra += found.hiddenChars / REDACTED_CHARS_PER_TOKEN - counted;
    });
    return { placeholders, hiddenChars, extraTokens: Math.round(extra) };
  }
}
