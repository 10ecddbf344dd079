// A dropped folder read on a pool of session workers (src/worker/pool/) gives the serial read's rows, skipped
// files and record, byte for byte (src/worker/folder.ts), on real Claude Code sessions (../shared/fixtures/real)
// laid out like ~/.claude/projects with subagents, other agents' sessions, an unreadable file and a session copied
// into a second project (its calls counted once: the pool reads it again holding the first copy's keys). The
// session workers here are the worker's own task runner on MessageChannel ports in this thread.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeFolder, type FolderView } from '../../src/worker/folder.ts';
import { analyzeFolderPooled } from '../../src/worker/pool/folder-pooled.ts';
import { runPoolTask } from '../../src/worker/pool/session-worker.ts';
import type { PoolTask } from '../../src/worker/pool/protocol.ts';
import type { InputBlob } from '../../src/worker/inputs.ts';
import { APP_LIMITS } from '../../src/worker/limits.ts';
import { buildRealSessionFolder, filesBelow } from '../conformance/real-session-folder.ts';

const repo = path.resolve(__dirname, '../..');
const real = path.resolve(repo, '../shared/fixtures/real/transcripts');
const present = fs.existsSync(path.join(real, 'claude-code'));
const suite = present ? describe : describe.skip;
const COPIED = '5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl';

/** `size` session workers: each a port whose other end runs the tasks it is sent, one at a time. */
function sessionWorkers(size: number): { ports: MessagePort[]; close: () => void; tasks: PoolTask[] } {
  const tasks: PoolTask[] = [];
  const ends: MessagePort[] = [];
  const ports = Array.from({ length: size }, () => {
    const channel = new MessageChannel();
    const worker = channel.port2;
    worker.onmessage = (event: MessageEvent<PoolTask>) => {
      tasks.push(event.data);
      void runPoolTask(event.data, (message) => worker.postMessage(message));
    };
    ends.push(worker);
    return channel.port1;
  });
  return { ports, tasks, close: () => ends.forEach((port) => port.close()) };
}

suite('a folder read on a pool of session workers (real sessions)', () => {
  let dir = '';
  let inputs: InputBlob[] = [];
  beforeAll(() => {
    dir = buildRealSessionFolder(real, { nested: true, agents: ['codex', 'gemini-cli'] });
    const projects = path.join(dir, 'projects');
    fs.copyFileSync(path.join(real, 'claude-code', COPIED), path.join(projects, '-real-a', COPIED));
    fs.mkdirSync(path.join(projects, '-real-c'));
    fs.copyFileSync(path.join(real, 'claude-code', COPIED), path.join(projects, '-real-c', COPIED));
    fs.writeFileSync(path.join(projects, '-real-c', 'broken.jsonl'), 'not a request\n{"nor": "this"}\n');
    inputs = filesBelow(projects).map((rel) => ({ name: `projects/${rel}`, folderPath: rel, blob: new Blob([fs.readFileSync(path.join(projects, rel))]) }));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('gives the serial rows, skipped files and record, byte for byte, with views as it fills in', { timeout: 300_000 }, async () => {
    const signal = new AbortController().signal;
    const serial = await analyzeFolder(inputs, { signal, onProgress: () => undefined, limits: APP_LIMITS });
    expect(serial.sessions.length).toBeGreaterThan(5);
    expect(serial.record).toContain('"duplicates"');
    for (const size of [1, 2]) {
      const workers = sessionWorkers(size);
      const views: FolderView[] = [];
      const pooled = await analyzeFolderPooled(inputs, { signal, onProgress: () => undefined, ports: workers.ports, onView: (view) => views.push(view) });
      workers.close();
      expect(pooled.record).toBe(serial.record);
      expect(pooled).toEqual(serial);
      // The copy in -real-c was read again holding the keys -real-a's copy counted.
      expect(workers.tasks.filter((task) => task.claimed !== undefined && task.claimed.length > 0).map((task) => task.inputs[0]!.folderPath)).toEqual([`-real-c/${COPIED}`]);
      expect(views.length).toBeGreaterThan(0);
      for (const view of views) {
        expect(view.record).toBe('');
        // Of the folder's groups of files, some give no row (the unreadable file among them).
        expect(view.progress?.total).toBe(views[0]!.progress!.total);
        expect(view.progress!.total).toBeGreaterThan(serial.sessions.length);
        expect(view.sessions.length).toBeLessThanOrEqual(serial.sessions.length);
      }
      // Rows from recorded usage alone come first; each session's own row replaces its usage row once settled.
      expect(views.some((view) => view.sessions.some((row) => row.usageOnly === true))).toBe(true);
    }
  });

  it('stops when cancelled, failing every task still waiting', { timeout: 120_000 }, async () => {
    const controller = new AbortController();
    const workers = sessionWorkers(2);
    const read = analyzeFolderPooled(inputs, { signal: controller.signal, onProgress: () => controller.abort(new Error('Cancelled.')), ports: workers.ports, onView: () => undefined });
    await expect(read).rejects.toThrow('Cancelled.');
    workers.close();
  });
});
