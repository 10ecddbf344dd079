// The worker client's watchdog and deliberate replacement: a silent analysis is failed and its worker replaced;
// progress keeps it alive; a replacement starts a fresh worker at once and never triggers crash recovery.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clientWithFakes } from './fake-worker.ts';
import { ANALYSIS_STALL_MS, WorkerFailure } from '../../src/ui/worker-client.ts';

const progress = { file: 0, bytesRead: 1, bytesTotal: 10, records: 1 };

const setup = (stallMs = 1000) => clientWithFakes(stallMs);

describe('worker watchdog', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('is 30 s in the app', () => {
    expect(ANALYSIS_STALL_MS).toBe(30_000);
  });

  it('fails a silent analysis as unresponsive after the stall time and starts a fresh worker, without crash recovery', async () => {
    const { client, workers, crashes, generations } = setup(1000);
    const pending = client.analyze([], {}, () => {}, new AbortController().signal);
    const outcome = pending.catch((error: unknown) => error);
    vi.advanceTimersByTime(999);
    expect(workers[0]!.terminated).toBe(false);
    vi.advanceTimersByTime(1);
    const error = (await outcome) as WorkerFailure;
    expect(error).toBeInstanceOf(WorkerFailure);
    expect(error.kind).toBe('unresponsive');
    expect(error.message).toBe('The analysis sent no progress for 1 s, so its worker was stopped and replaced.');
    expect(workers[0]!.terminated).toBe(true);
    expect(workers).toHaveLength(2);
    expect(generations).toEqual([1, 2]);
    expect(crashes).toEqual([]);
  });

  it('progress resets the timer: an analysis that keeps reporting is never stopped', async () => {
    const { client, workers } = setup(1000);
    const seen: number[] = [];
    const pending = client.analyze([], {}, (p) => seen.push(p.records), new AbortController().signal);
    for (let i = 0; i < 10; i++) {
      vi.advanceTimersByTime(900);
      workers[0]!.reply({ type: 'progress', id: 1, progress });
    }
    workers[0]!.reply({ type: 'analyzed', id: 1, view: {} as never });
    await expect(pending).resolves.toEqual({});
    expect(seen).toHaveLength(10);
    vi.advanceTimersByTime(5000);
    expect(workers[0]!.terminated).toBe(false);
    expect(workers).toHaveLength(1);
  });

  it('does not watch queries (content fetches answer on demand)', async () => {
    const { client, workers } = setup(1000);
    const answer = client.ask('segment-text', { request: 0, segment: 0 });
    vi.advanceTimersByTime(10_000);
    workers[0]!.reply({ type: 'answer', id: 1, value: 'ok' });
    await expect(answer).resolves.toBe('ok');
    expect(workers[0]!.terminated).toBe(false);
  });
});

describe('replace', () => {
  it('terminates the worker, fails what it had pending, and starts the next one at once', async () => {
    const { client, workers, crashes, generations } = setup();
    const question = client.ask('findings', undefined).catch((error: unknown) => error);
    client.replace(new WorkerFailure('replaced for the test', 'cancelled'));
    expect(((await question) as WorkerFailure).message).toBe('replaced for the test');
    expect(workers.map((w) => w.terminated)).toEqual([true, false]);
    expect(generations).toEqual([1, 2]);
    expect(crashes).toEqual([]);
    // The next request goes to the fresh worker.
    const next = client.ask('transcripts', undefined);
    expect(workers[1]!.posted).toEqual([{ type: 'query', id: 2, name: 'transcripts', params: undefined }]);
    workers[1]!.reply({ type: 'answer', id: 2, value: 7 });
    await expect(next).resolves.toBe(7);
  });
});
