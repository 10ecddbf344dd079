// `ctxray record [options] [-- <command ...>]`: a local capture proxy. It listens on 127.0.0.1, runs the command
// with ANTHROPIC_BASE_URL / OPENAI_BASE_URL pointing at itself, forwards every request unchanged to the provider
// it was meant for and writes each request-body exchange (request, response, the provider's usage) to a new
// JSONL capture that `ctxray analyze` reads. The only command that opens a socket (docs/recording.md).
import { spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import { isatty } from 'node:tty';
import type { CliIO, Command } from '../io.ts';
import { DEFAULT_UPSTREAM_TIMEOUT_MS } from '../record/exchange.ts';
import { startProxy, type ProxyStats, type RecordingProxy } from '../record/proxy.ts';
import { DEFAULT_UPSTREAMS, parseUpstream, type Upstreams } from '../record/route.ts';
import { openCapture } from '../record/writer.ts';

export const RECORD_USAGE = `usage: ctxray record [--out <file>] [--upstream-anthropic <url>] [--upstream-openai <url>] [--port <n>]
                    [--upstream-timeout <seconds>] [-- <command ...>]

Records what an agent sends: a proxy on 127.0.0.1 that forwards each request unchanged to the provider it was
meant for and writes request, response and the provider's usage to a new JSONL capture for \`ctxray analyze\`.
With -- <command>, runs the command with ANTHROPIC_BASE_URL=http://127.0.0.1:<port> and
OPENAI_BASE_URL=http://127.0.0.1:<port>/v1 and stops when it exits (its exit status becomes record's);
without, runs until Ctrl-C and prints the variables to set.

options:
  --out <file>               the capture to create (gzip when it ends in .gz); never an existing file
                             (default: ctxray-record-<date>-<time>.jsonl.gz in the current directory)
  --upstream-anthropic <url> origin Anthropic requests go to (default ${DEFAULT_UPSTREAMS.anthropic})
  --upstream-openai <url>    origin OpenAI requests go to (default ${DEFAULT_UPSTREAMS.openai})
  --port <n>                 port to listen on, 127.0.0.1 only (default 0: any free port)
  --upstream-timeout <s>     give up on an upstream silent this long (before its headers or between
                             chunks): the agent gets a 504 (default 600)
  -h, --help                 show this help

Routing: a request with an anthropic-version or x-api-key header (any path), or a path under /v1/messages,
goes to the Anthropic origin; any other /v1/ path to the OpenAI origin; anything else is answered 404 and sent
nowhere. Requests from web browsers (an Origin or Sec-Fetch-* header) or to another Host are refused with 403;
cookies are never forwarded.
Exchanges of POST /v1/messages, /v1/chat/completions and /v1/responses are written; other API calls (model
lists, token counts, files) are forwarded only. No request header but anthropic-version, anthropic-beta,
openai-beta and content-type is written: no key, token, cookie or authorization.

exit status: the command's (128 + signal number when a signal ended it; 127 when it could not be started);
without a command 0 after Ctrl-C or a kill; 1 for bad arguments, a refused --out or a port in use (before anything runs),
and 1 instead of 0 when the capture could not be written completely
`;

export interface RecordArgs {
  out: string | null;
  upstreams: Upstreams;
  /** Which upstreams the command line named (the others are the providers' defaults). */
  upstreamsGiven: Record<keyof Upstreams, boolean>;
  port: number;
  /** Upstream silence, in milliseconds, after which an exchange fails with 504. */
  upstreamTimeoutMs: number;
  command: string[];
}

export class RecordUsageError extends Error {}

const VALUE_OPTIONS = ['--out', '--upstream-anthropic', '--upstream-openai', '--port', '--upstream-timeout'] as const;

export function parseRecordArgs(argv: readonly string[]): RecordArgs | 'help' {
  const read = readRecordOptions(argv);
  if (read === 'help') return 'help';
  const { values, command } = read;
  const upstreams = {} as Upstreams;
  for (const provider of ['anthropic', 'openai'] as const) {
    const flag = `--upstream-${provider}`;
    const parsed = parseUpstream(flag, values.get(flag) ?? DEFAULT_UPSTREAMS[provider]);
    if (typeof parsed === 'string') throw new RecordUsageError(parsed);
    upstreams[provider] = parsed;
  }
  const portText = values.get('--port') ?? '0';
  const port = Number(portText);
  if (!/^\d{1,5}$/.test(portText) || port > 65_535) throw new RecordUsageError('--port must be a whole number from 0 to 65535');
  const timeoutText = values.get('--upstream-timeout') ?? String(DEFAULT_UPSTREAM_TIMEOUT_MS / 1000);
  const timeoutSeconds = Number(timeoutText);
  if (!/^\d{1,6}(\.\d{1,3})?$/.test(timeoutText) || timeoutSeconds <= 0) throw new RecordUsageError('--upstream-timeout must be a number of seconds above 0');
  const out = values.get('--out') ?? null;
  if (out === '-') throw new RecordUsageError('--out - is not supported: standard output belongs to the command; name a file');
  return { out, upstreams, port, upstreamTimeoutMs: Math.round(timeoutSeconds * 1000), command, upstreamsGiven: { anthropic: values.has('--upstream-anthropic'), openai: values.has('--upstream-openai') } };
}

/** The options as given (`--name value` or `--name=value`, each once) and the command after `--`. */
function readRecordOptions(argv: readonly string[]): { values: Map<string, string>; command: string[] } | 'help' {
  const values = new Map<string, string>();
  let command: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') {
      command = argv.slice(i + 1);
      if (command.length === 0) throw new RecordUsageError('-- needs a command to run');
      break;
    }
    if (arg === '--help' || arg === '-h') return 'help';
    const eq = arg.indexOf('=');
    const name = arg.startsWith('--') && eq > 0 ? arg.slice(0, eq) : arg;
    if (!(VALUE_OPTIONS as readonly string[]).includes(name)) {
      throw new RecordUsageError(arg.startsWith('-') ? `unknown option ${name}` : 'the command to run goes after --, as in: ctxray record -- claude');
    }
    const value = eq > 0 && name !== arg ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined || value === '') throw new RecordUsageError(`${name} needs a value`);
    if (values.has(name)) throw new RecordUsageError(`${name} given twice`);
    values.set(name, value);
  }
  return { values, command };
}

/** ctxray-record-20261201-094512.jsonl.gz: a new name per second, in UTC. */
export function defaultCaptureName(date: Date): string {
  const stamp = date.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `ctxray-record-${stamp}.jsonl.gz`;
}

/** The child's environment: both base URLs at the proxy, and the proxy kept off any HTTP(S)_PROXY route. */
export function childEnvironment(env: CliIO['env'], port: number): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) out[key] = value;
  out['ANTHROPIC_BASE_URL'] = `http://127.0.0.1:${port}`;
  out['OPENAI_BASE_URL'] = `http://127.0.0.1:${port}/v1`;
  for (const key of ['NO_PROXY', 'no_proxy']) {
    const current = out[key];
    out[key] = current === undefined || current === '' ? '127.0.0.1,localhost' : `${current},127.0.0.1,localhost`;
  }
  return out;
}

/**
 * A base URL already set in the shell pointed the agent somewhere (a gateway, perhaps); record replaces it, so say
 * where those requests go now. The value itself is not printed: it may carry a user name or a token.
 */
export function overriddenBaseUrls(env: CliIO['env'], args: RecordArgs): string[] {
  const notes: string[] = [];
  for (const [variable, provider] of [['ANTHROPIC_BASE_URL', 'anthropic'], ['OPENAI_BASE_URL', 'openai']] as const) {
    if ((env[variable] ?? '') === '' || args.upstreamsGiven[provider]) continue;
    notes.push(`${variable} was set in this shell; ${provider === 'anthropic' ? 'Anthropic' : 'OpenAI'} requests now go to ${args.upstreams[provider].origin} (give --upstream-${provider} <origin> to keep a gateway)`);
  }
  return notes;
}

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** Exit status of a finished child, as a shell reports it. */
function exitStatus(code: number | null, signal: NodeJS.Signals | null): number {
  if (code !== null) return code;
  const number = signal === null ? undefined : os.constants.signals[signal];
  return number === undefined ? 1 : 128 + number;
}

export const recordCommand: Command = async (argv, io) => {
  let args: RecordArgs;
  try {
    const parsed = parseRecordArgs(argv);
    if (parsed === 'help') {
      io.stdout(RECORD_USAGE);
      return 0;
    }
    args = parsed;
  } catch (error) {
    if (!(error instanceof RecordUsageError)) throw error;
    io.stderr(`ctxray record: ${error.message}\n\n${RECORD_USAGE}`);
    return 1;
  }

  // The capture is created (exclusively) before anything listens or runs: a refused --out stops everything.
  const opened = openCapture(args.out ?? defaultCaptureName(new Date()), io.cwd, (code) =>
    io.stderr(`ctxray record: the capture cannot be written (${code}); requests are still forwarded, nothing more is recorded\n`),
  );
  if (!opened.ok) {
    io.stderr(`ctxray record: ${opened.message} (${opened.code})\n`);
    return 1;
  }
  const writer = opened.writer;

  let proxy: RecordingProxy;
  try {
    proxy = await startProxy(args.port, { upstreams: args.upstreams, upstreamTimeoutMs: args.upstreamTimeoutMs, onRecord: (record) => writer.append(record) });
  } catch (error) {
    const code = error instanceof Error && 'code' in error ? String(error.code) : 'error';
    io.stderr(`ctxray record: cannot listen on 127.0.0.1:${args.port} (${code === 'EADDRINUSE' ? 'the port is in use' : code})\n`);
    await writer.close();
    return 1;
  }

  const base = `http://127.0.0.1:${proxy.port}`;
  io.stderr(`ctxray record: listening on ${base}, writing ${writer.path}\n`);
  for (const note of overriddenBaseUrls(io.env, args)) io.stderr(`ctxray record: note: ${note}\n`);
  const unexpected = keepRecordingThrough(io);
  const status = args.command.length > 0 ? await runCommand(args.command, io, proxy.port) : await waitForSignal(io, base);

  await proxy.close();
  unexpected.dispose();
  try {
    await writer.close();
  } catch (error) {
    const code = error instanceof Error && 'code' in error ? String(error.code) : 'error';
    io.stderr(`ctxray record: the capture ${writer.path} is incomplete (${code}); it holds the records written before the failure\n`);
    return status === 0 ? 1 : status;
  }
  io.stderr(`ctxray record: ${summaryLine(proxy.stats, writer.path)}\n`);
  return status === 0 && proxy.stats.unwritten > 0 ? 1 : status;
};

/** The closing line: what was written, and what was forwarded only, refused or could not be written. */
export function summaryLine(stats: ProxyStats, path: string): string {
  const { recorded, forwardedOnly, refused, refusedBrowser, unwritten } = stats;
  const extra = [
    forwardedOnly > 0 ? `${forwardedOnly} forwarded without recording` : '',
    refused > 0 ? `${refused} refused (sent nowhere)` : '',
    refusedBrowser > 0 ? `${refusedBrowser} refused as browser or foreign-host requests (403, sent nowhere)` : '',
    unwritten > 0 ? `${unwritten} could not be written` : '',
  ].filter(Boolean);
  return `${recorded} exchange${recorded === 1 ? '' : 's'} written to ${path}${extra.length > 0 ? ` (${extra.join(', ')})` : ''}`;
}

/**
 * While recording, an error nothing caught (it should not happen) is reported and survived: the agent's other
 * exchanges and the capture matter more than the one that failed.
 */
function keepRecordingThrough(io: CliIO): { dispose(): void } {
  const report = (error: unknown) => io.stderr(`ctxray record: internal error (${error instanceof Error ? error.name : 'error'}); recording goes on\n`);
  process.on('uncaughtException', report);
  process.on('unhandledRejection', report);
  return {
    dispose: () => {
      process.off('uncaughtException', report);
      process.off('unhandledRejection', report);
    },
  };
}

/** Plain proxy: print the variables, then serve until a signal. */
function waitForSignal(io: CliIO, base: string): Promise<number> {
  io.stdout(`export ANTHROPIC_BASE_URL=${base}\nexport OPENAI_BASE_URL=${base}/v1\n`);
  io.stderr('ctxray record: set these in the agent\'s shell; Ctrl-C stops recording and closes the file\n');
  return new Promise((resolve) => {
    // Stopping is how a plain proxy ends: a clean exit, whichever signal asked for it.
    const stop = () => {
      for (const name of SIGNALS) process.off(name, stop);
      resolve(0);
    };
    for (const name of SIGNALS) process.on(name, stop);
  });
}

/**
 * Runs the command with the base URLs set and resolves with its exit status. A signal to record (Ctrl-C in the
 * terminal, a kill) is passed on to the child, and record waits for the child to end before closing the file.
 */
function runCommand(command: string[], io: CliIO, port: number): Promise<number> {
  return new Promise((resolve) => {
    const forward = (signal: NodeJS.Signals) => {
      // Ctrl-C at a terminal already reached the child (it shares record's process group); passing it on again
      // would make one Ctrl-C two, which agents take as "quit now".
      if (signal === 'SIGINT' && isatty(0)) return;
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    };
    const done = (status: number) => {
      for (const name of SIGNALS) process.off(name, forward);
      resolve(status);
    };
    for (const name of SIGNALS) process.on(name, forward);
    const child: ChildProcess = spawn(command[0] as string, command.slice(1), { stdio: 'inherit', cwd: io.cwd, env: childEnvironment(io.env, port) });
    child.once('error', (error: NodeJS.ErrnoException) => {
      const reason = error.code === 'ENOENT' ? 'not found' : error.code === 'EACCES' ? 'not executable' : (error.code ?? 'error');
      io.stderr(`ctxray record: cannot run the command (${reason})\n`);
      done(error.code === 'EACCES' ? 126 : 127);
    });
    child.once('exit', (code, signal) => done(exitStatus(code, signal)));
  });
}
