// unicode-whitespace v1.0: the deterministic, provider-neutral token count of the duplicate-context contract
// (docs/unicode-whitespace-v1.md). A token is a maximal run of code points that are not Unicode White_Space.

/** The label every report carries next to these counts; bump it if the definition ever changes. */
export const WHITESPACE_TOKENIZER = 'unicode-whitespace v1.0';

/**
 * True when the UTF-16 code unit is a White_Space code point. Every White_Space code point lies in the BMP and
 * none is a surrogate, so testing code units is the same as testing code points: a surrogate pair (astral
 * character) or a lone surrogate is never white space, exactly as the definition requires.
 * Zero-width characters (U+200B, U+200C, U+200D, U+2060, U+FEFF) are deliberately NOT white space.
 */
export function isUnicodeWhitespace(unit: number): boolean {
  if (unit <= 0x20) return unit === 0x20 || (unit >= 0x09 && unit <= 0x0d);
  if (unit < 0x85) return false;
  if (unit === 0x85 || unit === 0xa0 || unit === 0x1680) return true;
  if (unit < 0x2000) return false;
  if (unit <= 0x200a) return true;
  return unit === 0x2028 || unit === 0x2029 || unit === 0x202f || unit === 0x205f || unit === 0x3000;
}

/** Number of unicode-whitespace v1.0 tokens in `text`: one pass over code units, no allocation. */
export function countWhitespaceTokens(text: string): number {
  let tokens = 0;
  let inToken = false;
  for (let i = 0; i < text.length; i++) {
    if (isUnicodeWhitespace(text.charCodeAt(i))) inToken = false;
    else if (!inToken) {
      inToken = true;
      tokens++;
    }
  }
  return tokens;
}
