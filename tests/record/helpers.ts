// Spawning the CLI without blocking the test's event loop (the fake upstream lives in it), with a time bound.
import { spawn } from 'node:child_process';
import path from 'node:path';

export const REPO = path.resolve(__dirname, '../..');
export const BIN = path.join(REPO, 'bin/ctxray.mjs');

export interface Finished {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface Running {
  pid: number;
  /** Resolves once stdout holds `pattern` (or rejects when the process ends first). */
  waitForStdout(pattern: RegExp): Promise<RegExpMatchArray>;
  done: Promise<Finished>;
}

/** Runs `node bin/ctxray.mjs ...args`; a run that outlives `timeoutMs` is killed and fails the test. */
export function runCli(args: string[], options: { cwd: string; env?: Record<string, string>; timeoutMs?: number; nodeArgs?: string[] }): Running {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), BIN, ...args], {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const waiters: { pattern: RegExp; resolve: (m: RegExpMatchArray) => void; reject: (e: Error) => void }[] = [];
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
    for (const waiter of [...waiters]) {
      const match = stdout.match(waiter.pattern);
      if (match === null) continue;
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(match);
    }
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 30_000);
  const done = new Promise<Finished>((resolve) => {
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      for (const waiter of waiters.splice(0)) waiter.reject(new Error(`process ended before printing ${waiter.pattern}; stderr: ${stderr}`));
      resolve({ status, signal, stdout, stderr });
    });
  });
  return {
    pid: child.pid ?? -1,
    waitForStdout: (pattern) =>
      new Promise((resolve, reject) => {
        const match = stdout.match(pattern);
        if (match !== null) resolve(match);
        else waiters.push({ pattern, resolve, reject });
      }),
    done,
  };
}
