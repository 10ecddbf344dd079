// Media helpers: decoded sizes, data URLs, pixel sizes from synthetic image headers.
import { describe, expect, it } from 'vitest';
import { base64DecodedLength, imageSizeFromBase64, mediaFromUrl, parseDataUrl } from '../../src/core/formats/media.ts';
import { syntheticImages } from './helpers.ts';

describe('media', () => {
  it.each([
    ['', 0],
    ['YQ==', 1],
    ['YWI=', 2],
    ['YWJj', 3],
    ['YWJj\nZGVm', 6],
  ])('decoded length of %j is %i', (data, length) => {
    expect(base64DecodedLength(data)).toBe(length);
  });

  it.each([
    ['png', syntheticImages.png(1568, 1092)],
    ['gif', syntheticImages.gif(1568, 1092)],
    ['jpeg', syntheticImages.jpeg(1568, 1092)],
    ['webp VP8X', syntheticImages.webpVp8x(1568, 1092)],
    ['webp VP8L', syntheticImages.webpVp8l(1568, 1092)],
    ['webp VP8', syntheticImages.webpVp8(1568, 1092)],
  ])('reads the pixel size of a %s header', (_kind, data) => {
    expect(imageSizeFromBase64(data)).toEqual({ width: 1568, height: 1092 });
  });

  it('returns null for data that is no known image', () => {
    expect(imageSizeFromBase64(btoa('%PDF-1.4 synthetic'))).toBeNull();
    expect(imageSizeFromBase64('not base64 at all!')).toBeNull();
  });

  it('parses data URLs and leaves other URLs alone', () => {
    expect(parseDataUrl('data:image/PNG;base64,AAAA')).toEqual({ mediaType: 'image/png', base64: 'AAAA' });
    expect(parseDataUrl('data:text/plain,hello')).toEqual({ mediaType: 'text/plain', base64: null });
    expect(parseDataUrl('https://example.invalid/cat.png')).toBeNull();
  });

  it('describes a data-URL image with its size and a plain URL as a reference', () => {
    const data = syntheticImages.png(64, 32);
    expect(mediaFromUrl('image', `data:image/png;base64,${data}`)).toEqual({
      kind: 'image',
      source: 'base64',
      mediaType: 'image/png',
      // signature 8 + IHDR length 4 + 'IHDR' 4 + width 4 + height 4 + 5 header bytes = 29.
      dataBytes: 29,
      width: 64,
      height: 32,
    });
    expect(mediaFromUrl('image', 'https://example.invalid/cat.png')).toEqual({
      kind: 'image',
      source: 'url',
      mediaType: null,
      dataBytes: 0,
      width: null,
      height: null,
    });
  });
});
