// The folder's session loop (src/cli/commands/folder-run.ts, eachSession) keeps nothing of a session once it is
// folded: a serial `--deep` run's outcome is the session's whole analysis, and holding every one of them made a
// 256 MB folder peak at 1 GB of RSS (now 252 MB; it finishes in a 256 MB heap). Checked with the collector itself: a
// settled session's outcome is collectable while later sessions are still read.
import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { eachSession, type Outcome, type SessionInput } from '../../src/cli/commands/folder-run.ts';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

const io = { stdout: () => undefined, stderr: () => undefined } as unknown as Parameters<typeof eachSession>[0]['io'];
const session = (n: number): SessionInput => ({ files: [{ name: `s${n}.jsonl`, full: `/synthetic/s${n}.jsonl`, size: 1, folderPath: `s${n}.jsonl`, inFolder: true }] });

describe('eachSession', () => {
  it.each([1, 2])('lets a folded session go before the loop ends (ahead %i)', async (ahead) => {
    const held: WeakRef<object>[] = [];
    const collectedWhileReading: boolean[] = [];
    const sessions = [0, 1, 2, 3].map(session);
    const status = await eachSession<number>(
      {
        io,
        signal: new AbortController().signal,
        sessions,
        progress: null,
        ahead,
        start: async () => {
          if (held.length >= 2) {
            // A task of its own (a WeakRef's target lives to the end of the task that made or read it), then collect.
            await new Promise((resolve) => setImmediate(resolve));
            gc();
            collectedWhileReading.push(held[0]!.deref() === undefined);
          }
          // SYNTHETIC: a session whose outcome holds 8 MB, as an analysis holds its requests.
          const read = { files: [{ name: 'synthetic.jsonl', requests: 1, errors: 0, envelope: 'transcript', format: 'claude-code' }], errors: [], ballast: new Uint8Array(8 << 20) };
          held.push(new WeakRef(read));
          return { value: held.length, session: read, parts: [] } as Outcome<number>;
        },
        fold: () => undefined,
      },
      [],
    );
    expect(status).toBeNull();
    // Read as sessions 3 and 4 start: the first session, folded before, was gone both times.
    expect(collectedWhileReading).toEqual([true, true]);
  });
});
