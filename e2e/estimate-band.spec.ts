// A Claude request whose shape the estimate handles less well (an image by URL, size unknown) shows its band
// beside the count, and says why in the request's notes (synthetic body).
import { expect, test } from './fixtures.ts';

const BODY = JSON.stringify({
  model: 'claude-sonnet-4-5',
  max_tokens: 64,
  messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } }, { type: 'text', text: 'What is in this picture?' }] }],
});

for (const { width, height } of [{ width: 1440, height: 900 }, { width: 390, height: 844 }]) {
  for (const scheme of ['light', 'dark'] as const) {
    test(`an image by URL is counted ≈276 ±100% (${width}×${height}, ${scheme})`, async ({ page }, info) => {
      await page.setViewportSize({ width, height });
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto('./');
      await page.locator('#file-input').setInputFiles({ name: 'synthetic-url-image.jsonl', mimeType: 'application/jsonl', buffer: Buffer.from(BODY) });
      const total = page.locator('#request-total');
      await expect(total).toHaveAttribute('data-band', '1');
      // 262 for the image assumed 512×384, 7 for the question, 7 framing.
      await expect(total).toHaveText('≈276 ±100%');
      await expect(page.getByText('was estimated within ±100% on projects the estimate was not fitted on', { exact: false })).toHaveCount(1);
      await page.screenshot({ path: info.outputPath(`band-${width}-${scheme}.png`) });
    });
  }
}
