// Image previews: found in Anthropic and OpenAI block shapes, refused for SVG, bad base64 and oversize data.
import { describe, expect, it } from 'vitest';
import { imagePreview, MAX_PREVIEW_CHARS } from '../../src/worker/image-preview.ts';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

describe('image preview', () => {
  it('builds a data URL from an Anthropic base64 source', () => {
    const wire = JSON.stringify({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } });
    expect(imagePreview(wire)).toBe(`data:image/png;base64,${PNG}`);
  });
  it('passes an OpenAI data URL through (Chat image_url object and Responses string)', () => {
    const url = `data:image/jpeg;base64,${PNG}`;
    expect(imagePreview(JSON.stringify({ type: 'image_url', image_url: { url, detail: 'auto' } }))).toBe(url);
    expect(imagePreview(JSON.stringify({ type: 'input_image', image_url: url }))).toBe(url);
  });
  it('refuses SVG, non-base64 data, remote URLs and broken JSON', () => {
    expect(imagePreview(JSON.stringify({ source: { media_type: 'image/svg+xml', data: PNG } }))).toBeNull();
    expect(imagePreview(JSON.stringify({ image_url: { url: `data:image/svg+xml;base64,${PNG}` } }))).toBeNull();
    expect(imagePreview(JSON.stringify({ source: { media_type: 'image/png', data: 'not base64!"><script>' } }))).toBeNull();
    expect(imagePreview(JSON.stringify({ image_url: { url: 'https://example.com/cat.png' } }))).toBeNull();
    expect(imagePreview('{"source": ')).toBeNull();
  });
  it('refuses data over the size limit', () => {
    const big = 'A'.repeat(MAX_PREVIEW_CHARS + 4);
    expect(imagePreview(JSON.stringify({ source: { media_type: 'image/png', data: big } }))).toBeNull();
  });
});
