// Runs a CLI command in-process with its output captured: no colour, no standard input, a chosen working folder.
import type { CliIO, Command } from '../../src/cli/io.ts';

export interface CommandRun {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runInProcess(command: Command, argv: string[], cwd: string): Promise<CommandRun> {
  let stdout = '';
  let stderr = '';
  const io: CliIO = { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), readStdin: async () => new Uint8Array(), env: { NO_COLOR: '1' }, cwd };
  const code = await command(argv, io);
  return { code, stdout, stderr };
}
