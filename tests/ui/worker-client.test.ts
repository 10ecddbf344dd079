// The page-side worker client: id matching, progress, cancel, and recovery from a crashed worker.
import { describe, expect, it } from 'vitest';
import { clientWithFakes, type FakeWorker } from './fake-worker.ts';
import { WorkerFailure } from '../../src/ui/worker-client.ts';

describe('worker client', () => {
  it('matches answers to questions by id, whatever order they come back in', async () => {
    const { client, workers } = clientWithFakes();
    const first = client.ask('diff', { request: 1 });
    const second = client.ask('diff', { request: 2 });
    const worker = workers[0] as FakeWorker;
    expect(worker.posted).toEqual([
      { type: 'query', id: 1, name: 'diff', params: { request: 1 } },
      { type: 'query', id: 2, name: 'diff', params: { request: 2 } },
    ]);
    worker.reply({ type: 'answer', id: 2, value: 'second' });
    worker.reply({ type: 'answer', id: 1, value: 'first' });
    await expect(first).resolves.toBe('first');
    await expect(second).resolves.toBe('second');
  });

  it('forwards progress, sends cancel on abort, and rejects as cancelled', async () => {
    const { client, workers } = clientWithFakes();
    const controller = new AbortController();
    const seen: number[] = [];
    const pending = client.analyze([], {}, (p) => seen.push(p.records), controller.signal);
    const worker = workers[0] as FakeWorker;
    worker.reply({ type: 'progress', id: 1, progress: { file: 0, bytesRead: 10, bytesTotal: 100, records: 3 } });
    controller.abort();
    expect(worker.posted[1]).toEqual({ type: 'cancel', id: 1 });
    worker.reply({ type: 'failed', id: 1, error: { kind: 'cancelled', message: 'Cancelled.' } });
    await expect(pending).rejects.toMatchObject({ kind: 'cancelled' });
    expect(seen).toEqual([3]);
  });

  it('reports input errors as such', async () => {
    const { client, workers } = clientWithFakes();
    const pending = client.ask('segment-text', { request: 0, segment: 0 });
    (workers[0] as FakeWorker).reply({ type: 'failed', id: 1, error: { kind: 'input', message: 'line 2: not JSON' } });
    await expect(pending).rejects.toEqual(new WorkerFailure('line 2: not JSON', 'input'));
  });

  it('rejects everything pending when the worker crashes, then starts a fresh worker', async () => {
    const { client, workers, crashes } = clientWithFakes();
    const a = client.ask('findings', undefined);
    const b = client.ask('transcripts', undefined);
    (workers[0] as FakeWorker).crash('out of memory');
    await expect(a).rejects.toMatchObject({ kind: 'crash', message: expect.stringMatching(/out of memory/) });
    await expect(b).rejects.toMatchObject({ kind: 'crash' });
    expect((workers[0] as FakeWorker).terminated).toBe(true);
    expect(crashes).toEqual(['The analysis worker stopped (out of memory).']);
    const c = client.ask('request-rows', undefined);
    expect(workers).toHaveLength(2);
    (workers[1] as FakeWorker).reply({ type: 'answer', id: 3, value: 42 });
    await expect(c).resolves.toBe(42);
  });

  it('reports a crash with nothing pending too (the analyzed input is gone with the worker)', async () => {
    const { client, workers, crashes } = clientWithFakes();
    const first = client.ask('findings', undefined);
    (workers[0] as FakeWorker).reply({ type: 'answer', id: 1, value: 1 });
    await first;
    (workers[0] as FakeWorker).crash('boom');
    expect(crashes).toEqual(['The analysis worker stopped (boom).']);
  });

  it('ignores stray and malformed messages', async () => {
    const { client, workers } = clientWithFakes();
    const pending = client.ask('findings', undefined);
    const worker = workers[0] as FakeWorker;
    worker.dispatchEvent(new MessageEvent('message', { data: { type: 'answer', id: 'x' } }));
    worker.reply({ type: 'answer', id: 99, value: 'nobody asked' });
    worker.reply({ type: 'answer', id: 1, value: 'ok' });
    await expect(pending).resolves.toBe('ok');
  });

  it('refuses to start work on an already aborted signal', async () => {
    const { client, workers } = clientWithFakes();
    const controller = new AbortController();
    controller.abort();
    await expect(client.ask('findings', undefined, controller.signal)).rejects.toMatchObject({ kind: 'cancelled' });
    expect(workers).toHaveLength(0);
  });
});
