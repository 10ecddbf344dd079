// Facts about media blocks that token estimates need and the importer does not record: an OpenAI image's
// `detail` setting and a PDF's page count. Both are read from the block's wire JSON, never from its text.

const DETAIL = /"detail"\s*:\s*"(low|high|auto)"/;
/** How far from each end of the wire JSON to look for `detail`, so a multi-MB base64 image is not scanned. */
const DETAIL_WINDOW = 256;

export function imageDetailOf(wire: string): 'low' | 'high' | 'auto' {
  const match = DETAIL.exec(wire.slice(0, DETAIL_WINDOW)) ?? DETAIL.exec(wire.slice(-DETAIL_WINDOW));
  const detail = match?.[1];
  return detail === 'low' || detail === 'high' ? detail : 'auto';
}

const BASE64_RUN = /(?:base64,|"data"\s*:\s*"|"file_data"\s*:\s*")([A-Za-z0-9+/=]{16,})/;
// `/Type /Page` objects, not the `/Pages` tree nodes.
const PDF_PAGE_OBJECT = /\/Type\s*\/Page(?![A-Za-z])/g;

/** Pages of an inline base64 PDF in a block's wire JSON, or null when there is no inline PDF to read. */
export function pdfPageCount(wire: string): number | null {
  const match = BASE64_RUN.exec(wire);
  const data = match?.[1];
  if (data === undefined) return null;
  let binary: string;
  try {
    binary = atob(data);
  } catch {
    return null;
  }
  if (!binary.startsWith('%PDF')) return null;
  const pages = binary.match(PDF_PAGE_OBJECT)?.length ?? 0;
  return pages > 0 ? pages : null;
}
