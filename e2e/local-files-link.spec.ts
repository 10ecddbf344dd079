// A share link copied from files opened from disk holds only view settings: the start screen says the files were
// opened locally and must be opened again; opening a file then works as usual.
import { expect, test } from './fixtures.ts';

test('a link with only request and panel asks to open the local files again', async ({ page }) => {
  await page.goto('./#request=3&panel=cache');
  await expect(page.locator('#drop-target')).toBeVisible();
  await expect(page.locator('#notice')).toContainText('files that were opened locally');
  await expect(page.locator('#notice')).toContainText('request 3');
  await expect(page.locator('#notice')).toContainText('Open the same files again');

  await page.evaluate(() => {
    // A synthetic request body, dropped as a file.
    const body = JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'synthetic hello' }] });
    const transfer = new DataTransfer();
    transfer.items.add(new File([body], 'synthetic-one.json'));
    for (const type of ['dragenter', 'dragover', 'drop']) {
      document.body.dispatchEvent(new DragEvent(type, { dataTransfer: transfer, bubbles: true, cancelable: true }));
    }
  });
  // The link's panel (cache) stays selected; the dropped file is on screen and the notice is gone.
  await expect(page.getByRole('banner')).toContainText('synthetic-one.json');
  await expect(page.getByText('files that were opened locally')).toHaveCount(0);
});
