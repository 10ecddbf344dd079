// What a CLI command may touch, passed in so tests can run commands in-process with captured output.
export interface CliIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Reads all of standard input (for `-`). */
  readStdin: () => Promise<Uint8Array>;
  /** Environment (NO_COLOR, ANTHROPIC_API_KEY, ...). */
  env: Record<string, string | undefined>;
  cwd: string;
}

export type Command = (argv: string[], io: CliIO) => Promise<number>;

export function processIO(): CliIO {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return new Uint8Array(Buffer.concat(chunks));
    },
    env: process.env,
    cwd: process.cwd(),
  };
}
