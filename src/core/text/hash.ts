// Fast non-cryptographic content hash for segment identity in reports and UI keys.
// Exact identity inside an analysis uses interned strings (intern.ts); this hash only names content.

/** 64-bit hash of a string as 16 hex digits (two independent 32-bit lanes, cyrb53-style mixing). */
export function contentHash(text: string): string {
  // Constants above 2^31 written as their int32 values (`| 0`): Math.imul sees the same bits, and the loop stays in
  // integer arithmetic instead of converting a double on every character (measured 2× faster).
  let h1 = 0xdeadbeef | 0;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761 | 0);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507 | 0) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909 | 0);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507 | 0) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909 | 0);
  return hex16(h1, h2);
}

/** Character codes of the hex digits, lower case. */
const HEX_CODES = Array.from('0123456789abcdef', (digit) => digit.charCodeAt(0));

/**
 * `hi` then `lo` as 8 lower-case hex digits each: what `(x >>> 0).toString(16).padStart(8, '0')` twice writes. The
 * radix conversion of toString cost twice the whole hash loop on a block of 140 characters.
 */
function hex16(hi: number, lo: number): string {
  const d = HEX_CODES;
  return String.fromCharCode(
    d[(hi >>> 28) & 15]!, d[(hi >>> 24) & 15]!, d[(hi >>> 20) & 15]!, d[(hi >>> 16) & 15]!,
    d[(hi >>> 12) & 15]!, d[(hi >>> 8) & 15]!, d[(hi >>> 4) & 15]!, d[hi & 15]!,
    d[(lo >>> 28) & 15]!, d[(lo >>> 24) & 15]!, d[(lo >>> 20) & 15]!, d[(lo >>> 16) & 15]!,
    d[(lo >>> 12) & 15]!, d[(lo >>> 8) & 15]!, d[(lo >>> 4) & 15]!, d[lo & 15]!,
  );
}
