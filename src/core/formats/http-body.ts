// A recorded HTTP body as text: captures keep it as text, as base64 (HAR `encoding: "base64"`, vcrpy `!!binary`;
// Polly.JS: a JSON array of base64 chunks), and often still compressed the way it travelled (Content-Encoding:
// gzip). Decoded with the platform's atob, DecompressionStream (input/gzip.ts) and TextDecoder: the same in the
// browser worker and Node.

import { collectBytes, concatBytes } from '../input/bytes.ts';
import { gunzipChunks, hasGzipMagic } from '../input/gzip.ts';
import { DEFAULT_LIMITS } from '../input/limits.ts';
import { awsEventStreamText } from './aws-event-stream.ts';

export interface RecordedBody {
  text?: string | null;
  bytes?: Uint8Array | null;
  /** The text is base64 of the bytes. */
  base64?: boolean;
  /** The Content-Encoding header the capture recorded, when known. */
  contentEncoding?: string | null;
}

export type DecodedBody = { text: string } | { error: string } | null;

function base64Bytes(text: string): Uint8Array | null {
  const chunks = base64Chunks(text);
  if (chunks === null) return plainBase64(text);
  const parts: Uint8Array[] = [];
  for (const chunk of chunks) {
    const part = plainBase64(chunk);
    if (part === null) return null;
    parts.push(part);
  }
  return concatBytes(parts);
}

function plainBase64(text: string): Uint8Array | null {
  try {
    const binary = atob(text.replace(/\s+/g, ''));
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  } catch {
    return null;
  }
}

/**
 * Polly.JS records a chunked response as a JSON array of base64 strings, one per chunk as it arrived (each padded
 * on its own; together often one gzip stream): the chunks, or null when the text is no such array.
 */
function base64Chunks(text: string): string[] | null {
  if (!text.trimStart().startsWith('[')) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  return Array.isArray(value) && value.every((chunk) => typeof chunk === 'string') ? (value as string[]) : null;
}

/** Bytes written as hex (nock's binary responses, cassetter's `binary` bodies), or null when the text is not hex. */
export function hexBytes(hex: string): Uint8Array | null {
  if (hex.length % 2 !== 0 || !/^[0-9a-f]*$/i.test(hex)) return null;
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

async function gunzip(bytes: Uint8Array): Promise<Uint8Array> {
  async function* one(): AsyncGenerator<Uint8Array> {
    yield bytes;
  }
  return collectBytes(gunzipChunks(one(), DEFAULT_LIMITS.maxDecompressedBytes));
}

/** The body as text, or why it cannot be read; null when the capture recorded no body. */
export async function decodeBody(body: RecordedBody): Promise<DecodedBody> {
  let bytes = body.bytes ?? null;
  if (bytes === null && typeof body.text === 'string' && body.base64 === true) {
    bytes = base64Bytes(body.text);
    if (bytes === null) return { error: 'is marked base64 but is not base64' };
  }
  if (bytes === null) return typeof body.text === 'string' ? { text: body.text } : null;
  const gzipped = hasGzipMagic(bytes);
  if (gzipped) {
    try {
      bytes = await gunzip(bytes);
    } catch {
      return { error: 'is gzip data that does not decompress (cut off or corrupt)' };
    }
  }
  // Bedrock's streamed answers travel as binary AWS event-stream messages: their events, as event-stream text.
  const events = awsEventStreamText(bytes);
  if (events !== null) return { text: events };
  if (!gzipped && /\b(br|zstd|deflate)\b/i.test(body.contentEncoding ?? '') && !looksLikeText(bytes)) {
    return { error: `is ${body.contentEncoding!.trim()}-compressed, which is not decoded here (record it decoded)` };
  }
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    return { error: 'is not UTF-8 text' };
  }
}

/** Whether bytes start like JSON or event-stream text (a body recorded decoded despite its header). */
function looksLikeText(bytes: Uint8Array): boolean {
  const head = new TextDecoder('utf-8').decode(bytes.subarray(0, 16)).trimStart();
  return /^[[{]|^(event|data|id|retry):/.test(head);
}
