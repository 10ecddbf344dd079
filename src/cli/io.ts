// What a CLI command may touch, passed in so tests can run commands in-process with captured output.
import { Readable } from 'node:stream';

export interface CliIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Reads all of standard input (for `-`). */
  readStdin: () => Promise<Uint8Array>;
  /**
   * Standard input as a stream, read as it arrives (the process's io: a piped log can be gigabytes, so it is not
   * held whole); an in-process test's io may give readStdin only.
   */
  openStdin?: () => ReadableStream<Uint8Array>;
  /** Environment (NO_COLOR, ANTHROPIC_API_KEY, ...). */
  env: Record<string, string | undefined>;
  cwd: string;
}

export type Command = (argv: string[], io: CliIO) => Promise<number>;

/**
 * A writer to a process stream that goes quiet once its reader has gone (`ctxray analyze … | head`): the command
 * finishes and exits with its own status instead of dying on EPIPE. Any other write error still surfaces.
 */
function writerTo(stream: NodeJS.WriteStream): (text: string) => void {
  let readerGone = false;
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    readerGone = true;
  });
  return (text) => {
    if (!readerGone) stream.write(text);
  };
}

export function processIO(): CliIO {
  return {
    stdout: writerTo(process.stdout),
    stderr: writerTo(process.stderr),
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return new Uint8Array(Buffer.concat(chunks));
    },
    openStdin: () => Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>,
    env: process.env,
    cwd: process.cwd(),
  };
}

/** Standard input as the readers take it: streamed when the io can, else read whole. */
export async function stdinBytes(io: CliIO): Promise<Uint8Array | ReadableStream<Uint8Array>> {
  return io.openStdin?.() ?? (await io.readStdin());
}

/** What a command's usage errors are and the usage text printed with them and for --help. */
export interface CommandUsage {
  name: string;
  usage: string;
  usageError: abstract new (...args: never[]) => Error;
}

/**
 * A command's parsed arguments; or, after printing the usage, 1 for a usage error and 0 for --help. Any other
 * error from `parse` is thrown on.
 */
export function parsedArgs<T extends { help: boolean }>(io: CliIO, command: CommandUsage, parse: () => T): T | number {
  let args: T;
  try {
    args = parse();
  } catch (error) {
    if (!(error instanceof command.usageError)) throw error;
    io.stderr(`ctxray ${command.name}: ${error.message}\n\n${command.usage}`);
    return 1;
  }
  if (args.help) {
    io.stdout(command.usage);
    return 0;
  }
  return args;
}
