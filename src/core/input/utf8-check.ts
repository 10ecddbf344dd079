// Locate the first invalid UTF-8 sequence, so a decode failure can say exactly which byte is wrong.
// Only called after TextDecoder({fatal:true}) has already refused the bytes, so speed does not matter here.

/** Offset of the first byte that starts an invalid or truncated UTF-8 sequence, or -1 if all bytes are valid. */
export function firstInvalidUtf8Offset(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b0 = bytes[i]!;
    if (b0 < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let min: number;
    if (b0 >= 0xc2 && b0 <= 0xdf) {
      need = 1;
      min = 0x80;
    } else if (b0 >= 0xe0 && b0 <= 0xef) {
      need = 2;
      min = 0x800;
    } else if (b0 >= 0xf0 && b0 <= 0xf4) {
      need = 3;
      min = 0x10000;
    } else return i;
    // A sequence cut off by the end of the record is as invalid as a wrong continuation byte.
    if (i + need >= bytes.length) return i;
    let cp = b0 & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const b = bytes[i + k]!;
      if ((b & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (b & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return -1;
}
