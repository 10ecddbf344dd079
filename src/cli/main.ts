// ctxray command-line entry: dispatches to one module per command (src/cli/commands/).
import { processIO, type CliIO, type Command } from './io.ts';
import { GENERATED_BY } from '../core/analysis/version.ts';
import { terminalSafeIO } from './terminal-safe.ts';

const COMMANDS: Record<string, { summary: string; load: () => Promise<Command> }> = {
  analyze: {
    summary: 'tokens by category, cache simulation and findings for request logs and transcripts',
    load: async () => (await import('./commands/analyze.ts')).analyzeCommand,
  },
  compare: {
    summary: 'two runs before -> after: cost, hit rate, tokens by category, every finding kind (--fail-if-worse for CI)',
    load: async () => (await import('./commands/compare.ts')).compareCommand,
  },
  dupes: {
    summary: 'exact duplicate-context contract: pass / fail / unknown (exit 0 / 1 / 2)',
    load: async () => (await import('./commands/dupes.ts')).dupesCommand,
  },
  clearing: {
    summary: 'tool-result clearing opportunity: BUILD / DEFER / STOP from pi journals and a sidecar',
    load: async () => (await import('./commands/clearing.ts')).clearingCommand,
  },
  record: {
    summary: 'capture proxy on 127.0.0.1: runs an agent and writes what it sends and receives, for analyze',
    load: async () => (await import('./commands/record.ts')).recordCommand,
  },
  qualify: {
    summary: 'offline payload qualification with the installed @mariozechner/pi-ai builders',
    load: async () => (await import('./commands/qualify.ts')).qualifyCommand,
  },
};

export function usage(): string {
  const lines = ['usage: ctxray <command> [options]', '', 'commands:'];
  for (const [name, { summary }] of Object.entries(COMMANDS)) lines.push(`  ${name.padEnd(9)} ${summary}`);
  lines.push('', 'Run `ctxray <command> --help` for a command\'s options; `ctxray --version` prints the version.');
  return lines.join('\n') + '\n';
}

export async function main(argv: string[], rawIO: CliIO = processIO()): Promise<number> {
  // Every line any command prints passes one filter: control characters from names, options and ids are escaped,
  // and the CLI's own colour and erase sequences pass only to a terminal (none are written to a pipe).
  const io = terminalSafeIO(rawIO, { stdoutIsTerminal: process.stdout.isTTY === true, stderrIsTerminal: process.stderr.isTTY === true });
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(usage());
    return name === undefined ? 1 : 0;
  }
  if (name === '--version' || name === '-V') {
    // The core's constant, which a test keeps equal to package.json's version.
    io.stdout(`${GENERATED_BY}\n`);
    return 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    io.stderr(`ctxray: unknown command "${name}"\n\n${usage()}`);
    return 1;
  }
  return (await command.load())(rest, io);
}
