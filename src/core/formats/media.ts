// Inline media: decoded size from base64 length, media type from data URLs, pixel size from the first bytes of
// PNG, JPEG, GIF and WebP images. Only a bounded prefix is ever decoded; base64 payloads can be megabytes.

import type { MediaInfo } from '../model.ts';

/** Decoded byte length of a base64 string (padding and whitespace excluded). */
export function base64DecodedLength(data: string): number {
  let length = data.length;
  // Whitespace is rare in API payloads; only pay for stripping it when present.
  if (/\s/.test(data)) length = data.replace(/\s+/g, '').length;
  let padding = 0;
  if (data.endsWith('==')) padding = 2;
  else if (data.endsWith('=')) padding = 1;
  return Math.max(0, Math.floor((length * 3) / 4) - padding);
}

export interface DataUrl {
  mediaType: string | null;
  /** The base64 payload, or null for a non-base64 data URL. */
  base64: string | null;
}

/** Parse `data:<type>;base64,<data>`; null when `url` is not a data URL. */
export function parseDataUrl(url: string): DataUrl | null {
  if (!url.startsWith('data:')) return null;
  const comma = url.indexOf(',');
  if (comma < 0) return null;
  const meta = url.slice(5, comma);
  const parts = meta.split(';');
  const mediaType = parts[0] ? parts[0].toLowerCase() : null;
  const isBase64 = parts.slice(1).some((p) => p.toLowerCase() === 'base64');
  return { mediaType, base64: isBase64 ? url.slice(comma + 1) : null };
}

/** Base64 characters decoded to find a JPEG's frame header; EXIF blocks before it are usually a few KB. */
const HEADER_PREFIX_CHARS = 65536;

function decodePrefix(data: string, chars: number): Uint8Array | null {
  const take = Math.min(data.length, chars);
  let prefix = data.slice(0, take - (take % 4)).replace(/\s+/g, '');
  prefix = prefix.slice(0, prefix.length - (prefix.length % 4));
  try {
    const binary = atob(prefix);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  } catch {
    return null;
  }
}

export interface PixelSize {
  width: number;
  height: number;
}

/** Pixel size of a base64-encoded PNG, JPEG, GIF or WebP image, or null when the header cannot be read. */
export function imageSizeFromBase64(data: string): PixelSize | null {
  const bytes = decodePrefix(data, HEADER_PREFIX_CHARS);
  return bytes ? imageSize(bytes) : null;
}

export function imageSize(b: Uint8Array): PixelSize | null {
  if (b.length >= 24 && b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47) {
    return { width: be32(b, 16), height: be32(b, 20) };
  }
  if (b.length >= 10 && b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46) {
    return { width: le16(b, 6), height: le16(b, 8) };
  }
  if (b.length >= 30 && ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 4) === 'WEBP') return webpSize(b);
  if (b.length >= 4 && b[0] === 0xff && b[1] === 0xd8) return jpegSize(b);
  return null;
}

function webpSize(b: Uint8Array): PixelSize | null {
  const chunk = ascii(b, 12, 4);
  if (chunk === 'VP8 ' && b.length >= 30) return { width: le16(b, 26) & 0x3fff, height: le16(b, 28) & 0x3fff };
  if (chunk === 'VP8L' && b.length >= 25) {
    const bits = b[21]! | (b[22]! << 8) | (b[23]! << 16) | (b[24]! << 24);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X' && b.length >= 30) {
    return { width: 1 + (b[24]! | (b[25]! << 8) | (b[26]! << 16)), height: 1 + (b[27]! | (b[28]! << 8) | (b[29]! << 16)) };
  }
  return null;
}

function jpegSize(b: Uint8Array): PixelSize | null {
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1]!;
    if (marker === 0xff) {
      i++;
      continue;
    }
    // Markers without a length field.
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2;
      continue;
    }
    const length = (b[i + 2]! << 8) | b[i + 3]!;
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) return { height: (b[i + 5]! << 8) | b[i + 6]!, width: (b[i + 7]! << 8) | b[i + 8]! };
    if (length < 2) return null;
    i += 2 + length;
  }
  return null;
}

function be32(b: Uint8Array, at: number): number {
  return ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;
}

function le16(b: Uint8Array, at: number): number {
  return b[at]! | (b[at + 1]! << 8);
}

function ascii(b: Uint8Array, at: number, length: number): string {
  return String.fromCharCode(...b.subarray(at, at + length));
}

/** MediaInfo for inline base64 data; pixel size is read for images only. */
export function inlineMedia(kind: MediaInfo['kind'], mediaType: string | null, data: string): MediaInfo {
  const size = kind === 'image' ? imageSizeFromBase64(data) : null;
  return {
    kind,
    source: 'base64',
    mediaType,
    dataBytes: base64DecodedLength(data),
    width: size?.width ?? null,
    height: size?.height ?? null,
  };
}

/** MediaInfo for content the request only points at (URL, provider file id). */
export function referencedMedia(kind: MediaInfo['kind'], source: 'url' | 'file' | 'unknown', mediaType: string | null): MediaInfo {
  return { kind, source, mediaType, dataBytes: 0, width: null, height: null };
}

/** MediaInfo from a URL that may be a data URL (OpenAI image_url, input_image, file_data). */
export function mediaFromUrl(kind: MediaInfo['kind'], url: string, fallbackType: string | null = null): MediaInfo {
  const data = parseDataUrl(url);
  if (data === null) return referencedMedia(kind, 'url', fallbackType);
  if (data.base64 === null) {
    return { kind, source: 'unknown', mediaType: data.mediaType ?? fallbackType, dataBytes: url.length - url.indexOf(',') - 1, width: null, height: null };
  }
  return inlineMedia(kind, data.mediaType ?? fallbackType, data.base64);
}
