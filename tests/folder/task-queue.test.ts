// The order both folder pools share (src/core/folder/task-queue.ts): one task per channel, queued in order, `first`
// ahead of the queue, and a failure that stops what it reaches and everything queued after it.
import { describe, expect, it } from 'vitest';
import { TaskQueue } from '../../src/core/folder/task-queue.ts';

function queueOf(channels: string[]) {
  const posted: [string, number][] = [];
  const queue = new TaskQueue<string, number, string, number>(channels, (channel, task) => posted.push([channel, task]));
  return { queue, posted };
}

describe('TaskQueue', () => {
  it('gives each free channel one task, the rest in order, `first` ahead of the queue', async () => {
    const { queue, posted } = queueOf(['a', 'b']);
    const results = [1, 2, 3, 4].map((task) => queue.run(task));
    const ahead = queue.run(5, { first: true });
    // Free channels are taken last-freed first: b, then a.
    expect(posted).toEqual([['b', 1], ['a', 2]]);
    queue.settle('b', 'one');
    expect(posted.at(-1)).toEqual(['b', 5]);
    queue.settle('a', 'two');
    queue.settle('b', 'five');
    expect(posted.slice(3)).toEqual([['a', 3], ['b', 4]]);
    queue.settle('a', 'three');
    queue.settle('b', 'four');
    expect(await Promise.all([...results, ahead])).toEqual(['one', 'two', 'three', 'four', 'five']);
  });

  it('forwards progress to the task on the channel, and ignores a channel that holds none', () => {
    const { queue } = queueOf(['a']);
    const seen: number[] = [];
    void queue.run(1, { onProgress: (p) => seen.push(p) });
    queue.progress('a', 10);
    queue.progress('z', 99);
    expect(seen).toEqual([10]);
    expect(queue.taskOn('a')).toBe(1);
    queue.settle('a', 'done');
    expect(queue.taskOn('a')).toBeUndefined();
    queue.settle('a', 'again'); // no task: nothing happens
  });

  it('a failure on one channel rejects its task and the queued ones; another in flight still settles', async () => {
    const { queue } = queueOf(['a', 'b']);
    const onA = queue.run(1); // → b
    const onB = queue.run(2); // → a
    const queued = queue.run(3);
    const error = new Error('worker exited');
    queue.fail(error, 'b');
    await expect(onA).rejects.toBe(error);
    await expect(queued).rejects.toBe(error);
    queue.settle('a', 'two');
    await expect(onB).resolves.toBe('two');
    await expect(queue.run(4)).rejects.toBe(error);
  });

  it('a failure with no channel (a cancel) rejects every task in flight and queued', async () => {
    const { queue } = queueOf(['a', 'b']);
    const all = [1, 2, 3].map((task) => queue.run(task));
    const cancelled = new Error('Cancelled.');
    queue.fail(cancelled);
    for (const pending of all) await expect(pending).rejects.toBe(cancelled);
    // Keeps the first error.
    queue.fail(new Error('later'));
    await expect(queue.run(9)).rejects.toBe(cancelled);
  });
});
