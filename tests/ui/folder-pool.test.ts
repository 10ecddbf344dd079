// The size of a dropped folder's pool of session workers (src/ui/folder-pool.ts): one per core, at least 1, at most
// MAX_POOL and never more than the folder has files; `?jobs=N` in the page's address sets it. And the worker client's
// side of it: the ports go to the analysis worker, the views as the folder fills in come back.
import { describe, expect, it } from 'vitest';
import { MAX_POOL, poolSize } from '../../src/ui/folder-pool.ts';
import type { FolderView } from '../../src/worker/folder.ts';
import { clientWithFakes, type FakeWorker } from './fake-worker.ts';

describe('poolSize', () => {
  it('takes one worker per core, within 1 and MAX_POOL, and no more than the files', () => {
    expect(poolSize(100, '', 4)).toBe(4);
    expect(poolSize(100, '', 64)).toBe(MAX_POOL);
    expect(poolSize(100, '', 0)).toBe(1);
    expect(poolSize(3, '', 4)).toBe(3);
    expect(poolSize(1, '', 4)).toBe(1);
  });

  it('takes ?jobs=N when it is a positive integer', () => {
    expect(poolSize(100, '?jobs=1', 4)).toBe(1);
    expect(poolSize(100, '?jobs=2', 1)).toBe(2);
    expect(poolSize(100, '?jobs=99', 1)).toBe(MAX_POOL);
    expect(poolSize(100, '?jobs=0', 3)).toBe(3);
    expect(poolSize(100, '?jobs=two', 3)).toBe(3);
  });
});

describe('a folder read on a pool, from the page', () => {
  const view = (done: number): FolderView => ({ sessions: [], projects: [], days: [], files: 0, skipped: [], series: { day: null, week: null, auto: 'day' } as unknown as FolderView['series'], record: '', progress: { done, total: 3 } });
  const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('hands the worker the ports, forwards each view as it fills in, and each view keeps the watchdog quiet', async () => {
    const { client, workers } = clientWithFakes(300);
    const { port1, port2 } = new MessageChannel();
    const views: number[] = [];
    const read = client.analyzeFolder([], () => undefined, new AbortController().signal, { ports: [port1], onView: (v) => views.push(v.progress!.done) });
    const worker = workers[0] as FakeWorker;
    expect(worker.posted[0]).toEqual({ type: 'analyze-folder', id: 1, inputs: [], ports: [port1] });
    for (const done of [1, 2]) {
      await wait(200);
      worker.reply({ type: 'folder-view', id: 1, folder: view(done) });
    }
    await wait(200);
    const final = { ...view(3), record: '{}' };
    delete final.progress;
    worker.reply({ type: 'folder-analyzed', id: 1, folder: final });
    await expect(read).resolves.toEqual(final);
    expect(views).toEqual([1, 2]);
    port1.close();
    port2.close();
  });
});
