// An inline image's preview as a data: URL, found in the block's JSON as sent: Anthropic's base64 `source`
// ({data, media_type}) or an OpenAI `data:image/...;base64,` URL. Only raster types browsers decode without
// scripting (SVG is excluded), only well-formed base64, and only up to a size limit.

const RASTER = /^image\/(png|jpeg|gif|webp)$/;
const DATA_URL = /^data:(image\/(?:png|jpeg|gif|webp));base64,([A-Za-z0-9+/]+=*)$/;
const BASE64 = /^[A-Za-z0-9+/]+=*$/;
/** Largest preview passed to the page (base64 characters). */
export const MAX_PREVIEW_CHARS = 8 * 1024 * 1024;
const MAX_DEPTH = 5;

function find(value: unknown, depth: number): string | null {
  if (depth > MAX_DEPTH) return null;
  if (typeof value === 'string') {
    const match = value.length <= MAX_PREVIEW_CHARS + 64 ? DATA_URL.exec(value) : null;
    return match ? value : null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const record = value as Record<string, unknown>;
  const data = record['data'];
  const mediaType = record['media_type'];
  if (typeof data === 'string' && typeof mediaType === 'string' && RASTER.test(mediaType)) {
    if (data.length <= MAX_PREVIEW_CHARS && BASE64.test(data)) return `data:${mediaType};base64,${data}`;
  }
  for (const child of Array.isArray(value) ? value : Object.values(record)) {
    const found = find(child, depth + 1);
    if (found !== null) return found;
  }
  return null;
}

export function imagePreview(wire: string): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(wire);
  } catch {
    return null;
  }
  return find(parsed, 0);
}
