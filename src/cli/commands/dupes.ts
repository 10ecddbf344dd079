// `ctxray dupes <file|->`: the duplicate-context contract. Exit 0 pass, 1 fail, 2 unknown / unsupported / bad use.
import fs from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import path from 'node:path';
import { stdinBytes, type Command } from '../io.ts';
import { writeOutputSafely } from '../fs/safe-output.ts';
import {
  buildDupesRecord,
  dupesMarkdown,
  dupesRecordJson,
  evaluateDupesInputDetailed,
  exitCodeOf,
  REASON_MEANINGS,
  type DupesRecord,
} from '../../core/dupes/index.ts';
import type { ReadError } from '../../core/model.ts';
import type { InputLimits } from '../../core/input/index.ts';
import { applyWorkLimitFlag, WORK_LIMIT_FLAGS, WORK_LIMIT_HELP } from '../work-limits.ts';
import { MAX_LOG_BYTES } from '../../core/dupes/limits.ts';

/** Whether a file of `size` bytes is over the request-log cap by its size alone (at the cap passes). */
export function logTooLarge(size: number): boolean {
  return size > MAX_LOG_BYTES;
}

const USAGE = `usage: ctxray dupes <file|-> [--markdown] [--out <file>]

Exact whole-block duplicate context, measured under the ctxray.dupes/1 contract.
Input: a {"suite":"v1","blocks":[...]} envelope, an openai-chat-v1 or conereplay-v1 adapter envelope,
a ConeReplay trace, or any request log / transcript \`ctxray analyze\` reads (optionally gzipped). "-" reads stdin.

options:
  --markdown     human-readable evidence report (summary, duplicate table, disclaimers, JSON verbatim)
  --out <file>   write the report to <file> instead of standard output
  --help         show this help

work limits of a request log (one reached is unknown, with its code, e.g. LIMIT_RECORDS; raise only):
${WORK_LIMIT_HELP}

exit codes: 0 pass (no duplicate) · 1 fail (duplicates found) · 2 unknown, unsupported input or bad arguments
`;

/** The read failures a user meets, in words (the code stays beside them for scripts). */
const READ_ERRORS: Record<string, string> = {
  ENOENT: 'no such file',
  EISDIR: 'a directory; dupes reads one file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
};

interface DupesArgs {
  input: string;
  markdown: boolean;
  out: string | null;
  limits: Partial<InputLimits>;
}

type Parsed = { ok: true; args: DupesArgs } | { ok: false; help: boolean; message: string };

function parseArgs(argv: readonly string[]): Parsed {
  let input: string | null = null;
  let markdown = false;
  let out: string | null = null;
  const limits: Partial<InputLimits> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--help' || arg === '-h') return { ok: false, help: true, message: '' };
    const eq = arg.indexOf('=');
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    if (WORK_LIMIT_FLAGS[flag] !== undefined) {
      const applied = applyWorkLimitFlag(flag, eq > 0 ? arg.slice(eq + 1) : argv[++i], limits);
      if (applied !== null && applied.error !== null) return { ok: false, help: false, message: applied.error };
      continue;
    }
    if (arg === '--markdown') markdown = true;
    else if (arg === '--out') {
      const value = argv[++i];
      if (value === undefined || value === '') return { ok: false, help: false, message: '--out needs a file name' };
      out = value;
    } else if (arg.startsWith('--out=')) {
      out = arg.slice('--out='.length);
      if (out === '') return { ok: false, help: false, message: '--out needs a file name' };
    } else if (arg.startsWith('-') && arg !== '-') {
      return { ok: false, help: false, message: `unknown option ${arg}` };
    } else if (input !== null) {
      return { ok: false, help: false, message: 'give exactly one input file (or - for standard input)' };
    } else input = arg;
  }
  if (input === null) return { ok: false, help: false, message: 'missing input file (or - for standard input)' };
  return { ok: true, args: { input, markdown, out, limits } };
}

/**
 * Why the run is unknown, on one line: the reason code, its fixed meaning, the located detail (indices, offsets,
 * limits, counts) and, for a log no record of which could be read, the first record's line and read error. Only
 * codes, numbers and the reader's payload-free messages: never input text, never the file's path.
 */
function unknownLine(record: DupesRecord, firstReadError: ReadError | null): string {
  const reason = record.reason ?? 'UNKNOWN';
  const located = Object.entries(record.detail ?? {}).map(([key, value]) => `${key} ${String(value)}`);
  if (firstReadError !== null && record.blocks.length === 0) {
    // Line 0 marks a file-level error (binary data, broken gzip): no record line to name.
    const where = firstReadError.line > 0 ? `first unreadable record, line ${firstReadError.line}` : 'file unreadable';
    located.push(`${where}: ${firstReadError.message}`);
  }
  const meaning = record.reason !== null ? ` ${REASON_MEANINGS[record.reason]}` : '';
  return `ctxray dupes: unknown (${reason}):${meaning}${located.length > 0 ? ` [${located.join('; ')}]` : ''}`;
}

export const dupesCommand: Command = async (argv, io) => {
  const parsed = parseArgs(argv);
  if (!parsed.ok) {
    if (parsed.help) {
      io.stdout(USAGE);
      return 0;
    }
    io.stderr(`ctxray dupes: ${parsed.message}\n\n${USAGE}`);
    return 2;
  }
  const { input, markdown, out, limits } = parsed.args;

  let record: DupesRecord;
  let bytes: Uint8Array | ReadableStream<Uint8Array> | null = null;
  let tooLarge: number | null = null;
  try {
    // Both are streamed: a request log of up to 2 GiB is read as it arrives, never held whole.
    if (input === '-') bytes = await stdinBytes(io);
    else {
      const file = path.resolve(io.cwd, input);
      const stats = await stat(file);
      if (stats.isDirectory()) throw Object.assign(new Error('directory'), { code: 'EISDIR' });
      await access(file, fs.constants.R_OK);
      // Over the log cap it is refused by its size, unread; at the cap it is read.
      if (logTooLarge(stats.size)) tooLarge = stats.size;
      else bytes = Readable.toWeb(fs.createReadStream(file)) as ReadableStream<Uint8Array>;
    }
  } catch (error) {
    const code = error instanceof Error && 'code' in error ? String(error.code) : 'read error';
    io.stderr(`ctxray dupes: cannot read ${input === '-' ? 'standard input' : input}: ${READ_ERRORS[code] ?? 'read error'} (${code})\n`);
  }
  if (tooLarge !== null) {
    record = buildDupesRecord({
      ok: false,
      refusal: { reason: 'LOG_TOO_LARGE', detail: { limit: MAX_LOG_BYTES, actual: tooLarge } },
      adapter: null,
      mapping: 'request-log-last-requests-v1',
    });
    io.stderr(`${unknownLine(record, null)}\n`);
  } else if (bytes === null) {
    record = buildDupesRecord({
      ok: false,
      refusal: { reason: 'INPUT_UNREADABLE', detail: {} },
      adapter: null,
      mapping: null,
    });
  } else {
    const evaluation = await evaluateDupesInputDetailed({ name: input === '-' ? 'stdin' : path.basename(input), bytes }, { limits });
    record = evaluation.record;
    if (record.result === 'unknown' && record.reason !== null) io.stderr(`${unknownLine(record, evaluation.firstReadError)}\n`);
  }

  const report = markdown ? dupesMarkdown(record) : dupesRecordJson(record);
  if (out === null) io.stdout(report);
  else {
    // Never an input, never an existing file, never a half-written report (docs/file-safety.md).
    const written = writeOutputSafely(out, input === '-' ? [] : [input], report, { cwd: io.cwd, stdinIsInput: input === '-' });
    if (!written.ok) {
      io.stderr(`ctxray dupes: ${written.message} (${written.code})\n`);
      return 2;
    }
  }
  return exitCodeOf(record.result);
};
