// How far a Claude estimate can be trusted, by the request's shape: the shapes whose held-out error misses the
// target (median 3%, p90 15% on projects the fit did not see) get a relative band and the note `estimate_wide`,
// so the count says it is approximate instead of looking as sure as the rest (docs/tokens.md).
import type { ParsedRequest } from '../model.ts';

/** What about a Claude request makes its estimate less certain than the rest (the band's inputs). */
export interface ClaudeEstimateShape {
  /** An image or document whose size the file does not give (URL, file id): its tokens are assumed. */
  unknownMedia: boolean;
  pdf: boolean;
  image: boolean;
  newTokenizer: boolean;
  /** The estimate's total. */
  total: number;
}

/**
 * Relative half-width of the estimate for shapes that miss the target (median 3%, p90 15%) on projects the fit
 * did not see: each is the held-out p90 |error| of its requests, rounded up (leave-one-project-out over 693
 * recorded requests of 15 projects, tests/tokens/claude-fit.test.ts re-measures them). Text, tool and thinking
 * requests of the older tokenizer have none: p90 11% held out.
 */
export const CLAUDE_ESTIMATE_BANDS = {
  /** 20 requests: a URL image assumed 512×384 billed 34–450; a PDF by URL or file id assumed one page billed ~2,650 and 73,842. */
  unknownMedia: 1,
  /** 16 inline PDFs: p90 32% (PDFs a tool returns bill ~45% more than the page rule). */
  pdf: 0.35,
  /** 26 inline images: p90 20% (an image under ~60 tokens by width × height / 750 bills 5–11 more). */
  image: 0.2,
  /** 24 requests on the newer tokenizer: median 4.9%, p90 15.4%. */
  newerTokenizer: 0.2,
  /** 124 prompts under 30 tokens: p90 17.6% (a few tokens). */
  short: 0.2,
} as const;
/** Below this many tokens an estimate is short (its error is a few tokens but a large fraction). */
export const CLAUDE_SHORT_PROMPT_TOKENS = 30;

/** The estimate's relative band for a request's shape, or null when it is within the target held out. */
export function claudeEstimateBand(shape: ClaudeEstimateShape): number | null {
  const bands: number[] = [];
  if (shape.unknownMedia) bands.push(CLAUDE_ESTIMATE_BANDS.unknownMedia);
  if (shape.pdf) bands.push(CLAUDE_ESTIMATE_BANDS.pdf);
  if (shape.image) bands.push(CLAUDE_ESTIMATE_BANDS.image);
  if (shape.newTokenizer) bands.push(CLAUDE_ESTIMATE_BANDS.newerTokenizer);
  if (shape.total < CLAUDE_SHORT_PROMPT_TOKENS) bands.push(CLAUDE_ESTIMATE_BANDS.short);
  return bands.length > 0 ? Math.max(...bands) : null;
}

/** Which media of a Claude request make its estimate uncertain: sizes not in the file, inline PDFs and images. */
export function mediaShape(request: ParsedRequest, pagesOf: (wire: string) => number | null): Pick<ClaudeEstimateShape, 'unknownMedia' | 'pdf' | 'image'> {
  const shape = { unknownMedia: false, pdf: false, image: false };
  for (const segment of request.segments) {
    if (segment.category === 'image') {
      if (segment.media?.width == null) shape.unknownMedia = true;
      else shape.image = true;
    } else if (segment.category === 'document') {
      if (pagesOf(segment.wire) !== null) shape.pdf = true;
      else if (segment.text === '') shape.unknownMedia = true;
    }
  }
  return shape;
}

/** The count with its band and the note `estimate_wide`, or unchanged when the shape has no band. */
export function withBand<T extends { notes: string[]; band?: number }>(tokens: T, band: number | null): T {
  if (band === null) return tokens;
  return { ...tokens, band, notes: [...tokens.notes, 'estimate_wide'].sort() };
}
