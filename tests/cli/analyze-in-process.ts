// `ctxray analyze` run in this process with a given environment (a fake HOME), its output captured.
import os from 'node:os';
import { analyzeCommand } from '../../src/cli/commands/analyze.ts';
import type { CliIO } from '../../src/cli/io.ts';

export async function analyzeInProcess(argv: string[], env: Record<string, string | undefined>): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIO = { stdout: (t) => out.push(t), stderr: (t) => err.push(t), readStdin: () => Promise.resolve(new Uint8Array()), env, cwd: os.tmpdir() };
  const code = await analyzeCommand(argv, io);
  return { code, stdout: out.join(''), stderr: err.join('') };
}
