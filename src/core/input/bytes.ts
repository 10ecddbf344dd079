// Joining byte chunks: the one copy every reader that needs a whole buffer makes.

/** The chunks as one array (the lone chunk itself when there is one); `total` when the caller counted already. */
export function concatBytes(chunks: readonly Uint8Array[], total?: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(total ?? chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

/** Every chunk of a stream, joined. */
export async function collectBytes(chunks: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of chunks) {
    parts.push(chunk);
    total += chunk.byteLength;
  }
  return concatBytes(parts, total);
}
