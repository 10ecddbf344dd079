// Test helpers for the importers: run one importer on a body (all bodies in these tests are synthetic).
import type { ParsedRequest, Segment } from '../../src/core/model.ts';
import { importAnthropicMessages } from '../../src/core/formats/anthropic-messages.ts';
import { importOpenAiChat } from '../../src/core/formats/openai-chat.ts';
import { importOpenAiResponses } from '../../src/core/formats/openai-responses.ts';
import { TextStore } from '../../src/core/text/store.ts';

export function anthropic(body: Record<string, unknown>, store = new TextStore()): ParsedRequest {
  return importAnthropicMessages(body, { store, file: 0, line: 1, index: 0 });
}

export function chat(body: Record<string, unknown>, store = new TextStore()): ParsedRequest {
  return importOpenAiChat(body, { store, file: 0, line: 1, index: 0 });
}

export function responses(body: Record<string, unknown>, store = new TextStore()): ParsedRequest {
  return importOpenAiResponses(body, { store, file: 0, line: 1, index: 0 });
}

/** The fields most tests compare, in a compact tuple-ish object. */
export function brief(segment: Segment) {
  return {
    category: segment.category,
    path: segment.path,
    text: segment.text,
    position: segment.position,
    messageIndex: segment.messageIndex,
    role: segment.role,
  };
}

function toBase64(bytes: number[]): string {
  return btoa(String.fromCharCode(...bytes));
}

const be32 = (n: number) => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
const le16 = (n: number) => [n & 255, (n >>> 8) & 255];
const le24 = (n: number) => [n & 255, (n >>> 8) & 255, (n >>> 16) & 255];

/** Synthetic image headers (enough bytes for a size reader, not decodable images). */
export const syntheticImages = {
  png: (w: number, h: number) => toBase64([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...be32(13), 0x49, 0x48, 0x44, 0x52, ...be32(w), ...be32(h), 8, 6, 0, 0, 0]),
  gif: (w: number, h: number) => toBase64([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, ...le16(w), ...le16(h), 0, 0, 0]),
  jpeg: (w: number, h: number) =>
    toBase64([
      0xff, 0xd8,
      // APP0 (JFIF), 16 bytes long, skipped by the reader.
      0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00,
      // SOF0: length 17, precision 8, height, width, 3 components.
      0xff, 0xc0, 0x00, 0x11, 0x08, (h >> 8) & 255, h & 255, (w >> 8) & 255, w & 255, 0x03, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    ]),
  webpVp8x: (w: number, h: number) =>
    toBase64([0x52, 0x49, 0x46, 0x46, 0, 0, 0, 0, 0x57, 0x45, 0x42, 0x50, 0x56, 0x50, 0x38, 0x58, 10, 0, 0, 0, 0, 0, 0, 0, ...le24(w - 1), ...le24(h - 1), 0, 0]),
  webpVp8l: (w: number, h: number) => {
    const bits = (w - 1) | ((h - 1) << 14);
    return toBase64([0x52, 0x49, 0x46, 0x46, 0, 0, 0, 0, 0x57, 0x45, 0x42, 0x50, 0x56, 0x50, 0x38, 0x4c, 5, 0, 0, 0, 0x2f, bits & 255, (bits >>> 8) & 255, (bits >>> 16) & 255, (bits >>> 24) & 255, 0, 0, 0, 0, 0]);
  },
  webpVp8: (w: number, h: number) =>
    toBase64([0x52, 0x49, 0x46, 0x46, 0, 0, 0, 0, 0x57, 0x45, 0x42, 0x50, 0x56, 0x50, 0x38, 0x20, 10, 0, 0, 0, 0, 0, 0, 0x9d, 0x01, 0x2a, ...le16(w), ...le16(h), 0, 0]),
};
