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
  return (h1 >>> 0).toString(16).padStart(8, '0') + (h2 >>> 0).toString(16).padStart(8, '0');
}
