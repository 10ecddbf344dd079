// `ctxray clearing`: tool-result clearing opportunity from explicit offline copies of pi journals and a
// checkpointed tool-history sidecar. Reads only the named files (recursive .jsonl selection under folders), never
// discovers state directories, never contacts a provider. Exit 0 for a complete analysis, 2 for incomplete or
// invalid inputs; BUILD/DEFER/STOP is in the record, not the exit status.
import fs from 'node:fs';
import path from 'node:path';
import initSqlJs from 'sql.js';
import type { Command, CliIO } from '../io.ts';
import { analyzeClearing, type JournalSource } from '../../core/clearing/analyze.ts';
import { API_CODES, CODE_MEANINGS, GLOBAL_CODES, type InputName } from '../../core/clearing/codes.ts';
import { parsedJsonInput, type InputError } from '../../core/clearing/inputs.ts';
import { SIDECAR_BYTE_LIMIT } from '../../core/clearing/thresholds.ts';
import { installedQualificationStatus } from '../../node/qualification.ts';
import { checkOutputPath, SQLITE_COMPANION_SUFFIXES, SafeOutputError, writeExclusive } from '../fs/safe-output.ts';
import { snapshotChanged, takeSnapshot } from '../fs/snapshot.ts';

const USAGE = `usage: ctxray clearing --journals <path...> --sidecar <db> --routes <json> --qualification <json>
                      [--agent-config <json>] [--app-allowlist <json>] [--retrieval-rate <p>] [--out <file>]

Would clearing old tool results pay off? A BUILD / DEFER / STOP evidence verdict per API from offline copies of
pi session journals (.jsonl files, folders searched recursively) and a checkpointed tool-history SQLite sidecar.
Everything printed is fixed codes, counts and modeled numbers: no text, paths, names or identities.

options:
  --journals <path...>    one or more journal files or folders (pass <root>/journals, not a state root)
  --sidecar <db>          tool-history sidecar (docs/clearing/sidecar.md); WAL mode or companions are refused
  --routes <json>         one entry per API: trigger, drain, summary sizes, cache lifetime, prices, quota
  --qualification <json>  record written by \`ctxray qualify\` with the installed @mariozechner/pi-ai
  --agent-config <json>   owner attestation of enabled built-ins and MCP tools (object, or per-run array)
  --app-allowlist <json>  reviewed read-only MCP tools bound to a server identity digest
  --retrieval-rate <p>    expected share of cleared results retrieved again, 0..1 (default 0.05, pending a
                          lookup pilot); 0, 0.05 and 0.2 are always reported too
  --out <file>            write the record to a NEW file (never an input, companion or symlink)
  --help                  show this help

exit codes: 0 complete analysis · 2 incomplete or invalid inputs (see "codes" in the record)
`;

interface ClearingArgs {
  journals: string[];
  sidecar: string | null;
  routes: string | null;
  qualification: string | null;
  agentConfig: string | null;
  appAllowlist: string | null;
  retrievalRate: number | undefined;
  out: string | null;
}

type ParsedArgs = { ok: true; args: ClearingArgs } | { ok: false; help: boolean; message: string };

type PathOption = 'sidecar' | 'routes' | 'qualification' | 'agentConfig' | 'appAllowlist' | 'out';

const SINGLE_VALUE: Record<string, PathOption> = {
  '--sidecar': 'sidecar',
  '--routes': 'routes',
  '--qualification': 'qualification',
  '--agent-config': 'agentConfig',
  '--app-allowlist': 'appAllowlist',
  '--out': 'out',
};

export function parseClearingArgs(argv: readonly string[]): ParsedArgs {
  const args: ClearingArgs = {
    journals: [],
    sidecar: null,
    routes: null,
    qualification: null,
    agentConfig: null,
    appAllowlist: null,
    retrievalRate: undefined,
    out: null,
  };
  let sawJournals = false;
  for (let index = 0; index < argv.length; index++) {
    const flag = argv[index] as string;
    if (flag === '--help' || flag === '-h') return { ok: false, help: true, message: '' };
    if (flag === '--journals') {
      sawJournals = true;
      while (index + 1 < argv.length && !(argv[index + 1] as string).startsWith('--')) {
        args.journals.push(argv[++index] as string);
      }
      continue;
    }
    const problem = takeValue(args, argv, index);
    if (problem === null) {
      index++;
      continue;
    }
    return { ok: false, help: false, message: problem };
  }
  if (!sawJournals || args.journals.length === 0) return { ok: false, help: false, message: '--journals needs at least one path' };
  for (const required of ['sidecar', 'routes', 'qualification'] as const) {
    if (args[required] === null) return { ok: false, help: false, message: `--${required} is required` };
  }
  return { ok: true, args };
}

/** Stores the value after flag `argv[index]` into `args`: null when taken, else what is wrong. */
function takeValue(args: ClearingArgs, argv: readonly string[], index: number): string | null {
  const flag = argv[index] as string;
  const value = argv[index + 1];
  const key = Object.hasOwn(SINGLE_VALUE, flag) ? SINGLE_VALUE[flag] : undefined;
  if (key === undefined && flag !== '--retrieval-rate') return `unknown argument (${flag.startsWith('--') ? flag : 'a bare value'})`;
  if (value === undefined || value.startsWith('--')) return `${flag} needs a value`;
  if (key === undefined) {
    const rate = Number(value);
    if (value.trim() === '' || !Number.isFinite(rate) || rate < 0 || rate > 1) return '--retrieval-rate must be a number from 0 to 1';
    args.retrievalRate = rate;
    return null;
  }
  if (args[key] !== null) return `${flag} given twice`;
  args[key] = value;
  return null;
}

/** Recursive .jsonl selection: files named directly are taken as given; folders are walked, cycles skipped. */
export function selectJournalFiles(roots: readonly string[]): { files: string[]; missing: number } {
  const files = new Set<string>();
  const visited = new Set<string>();
  let missing = 0;
  const walk = (directory: string) => {
    let identity: string;
    try {
      const stats = fs.statSync(directory, { bigint: true });
      identity = `${stats.dev}:${stats.ino}`;
    } catch {
      return;
    }
    if (visited.has(identity)) return;
    visited.add(identity);
    let names: string[];
    try {
      names = fs.readdirSync(directory).sort();
    } catch {
      return;
    }
    for (const name of names) {
      const child = path.join(directory, name);
      let stats: fs.Stats;
      try {
        stats = fs.statSync(child);
      } catch {
        continue;
      }
      if (stats.isDirectory()) walk(child);
      else if (stats.isFile() && name.toLowerCase().endsWith('.jsonl')) files.add(child);
    }
  };
  for (const root of roots) {
    let stats: fs.Stats;
    try {
      stats = fs.statSync(root);
    } catch {
      missing++;
      continue;
    }
    if (stats.isDirectory()) walk(root);
    else files.add(root);
  }
  return { files: [...files].sort(), missing };
}

/**
 * Any -wal/-shm/-journal next to the sidecar, compared case-insensitively (as the output rules do), beside the
 * path as given and beside its resolved target (SQLite puts companions next to the file it opens).
 */
export function companionPresent(sidecar: string): boolean {
  const spellings = new Set([sidecar]);
  try {
    spellings.add(fs.realpathSync.native(sidecar));
  } catch {
    // A missing sidecar has only the spelling given (and is reported as missing).
  }
  for (const spelling of spellings) {
    const wanted = new Set(SQLITE_COMPANION_SUFFIXES.map((suffix) => (path.basename(spelling) + suffix).toLowerCase()));
    try {
      if (fs.readdirSync(path.dirname(spelling)).some((name) => wanted.has(name.toLowerCase()))) return true;
    } catch {
      // An unlistable folder shows no companion; reading the sidecar itself reports the problem.
    }
  }
  return false;
}

/** Longest header line read for the duplicate pre-pass; a longer first line is an invalid header. */
const HEADER_PROBE_BYTES = 1024 * 1024;

/** A journal file read on demand: only the header line up front, the whole text when the analysis gets to it. */
function journalSource(file: string): JournalSource {
  return {
    firstLine() {
      let fd: number | null = null;
      try {
        fd = fs.openSync(file, 'r');
        const buffer = Buffer.alloc(HEADER_PROBE_BYTES);
        const read = fs.readSync(fd, buffer, 0, HEADER_PROBE_BYTES, 0);
        const chunk = buffer.subarray(0, read);
        const newline = chunk.indexOf(10);
        return chunk.subarray(0, newline === -1 ? read : newline).toString('utf8');
      } catch {
        return null;
      } finally {
        if (fd !== null) fs.closeSync(fd);
      }
    },
    text() {
      try {
        return fs.readFileSync(file, 'utf8');
      } catch {
        return null;
      }
    },
  };
}

function readJson(file: string | null, input: InputName, errors: InputError[]): unknown {
  if (file === null) return undefined;
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    errors.push({ input, reason: missing ? 'missing' : 'unreadable', at: '' });
    return null;
  }
  return parsedJsonInput(text, input, errors);
}

function located(error: InputError): string {
  return `${error.input.replace('_', '-')}${error.at ? ` at ${error.at}` : ''}: ${error.reason.replaceAll('_', ' ')}`;
}

/** The sidecar's bytes, or null with its input error recorded (missing, unreadable, over SIDECAR_BYTE_LIMIT). */
function readSidecar(sidecarPath: string, inputErrors: InputError[]): { bytes: Uint8Array; companionPresent: boolean } | null {
  try {
    // Over the size cap it is refused unread: reading it would already cost its size in memory.
    if (fs.statSync(sidecarPath).size > SIDECAR_BYTE_LIMIT) {
      inputErrors.push({ input: 'sidecar', reason: 'sidecar_size_limit', at: 'file' });
      return null;
    }
    return { bytes: new Uint8Array(fs.readFileSync(sidecarPath)), companionPresent: companionPresent(sidecarPath) };
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    inputErrors.push({ input: 'sidecar', reason: missing ? 'missing' : 'unreadable', at: '' });
    return null;
  }
}

/** Skipped journals, located input errors and the record's codes, on stderr. */
function reportNotes(io: CliIO, diagnostics: ReturnType<typeof analyzeClearing>['diagnostics'], record: ReturnType<typeof analyzeClearing>['record']): void {
  for (const note of diagnostics) {
    const where = [note.line !== null ? `line ${note.line}` : null, note.field !== null ? `field ${note.field}` : null]
      .filter(Boolean)
      .join(', ');
    io.stderr(`ctxray clearing: journal #${note.journal} skipped (${note.reason})${where ? ` at ${where}` : ''}\n`);
  }
  for (const error of record.inputErrors) io.stderr(`ctxray clearing: ${located(error)}\n`);
  for (const code of record.codes) io.stderr(`ctxray clearing: ${code}: ${CODE_MEANINGS[code]}\n`);
}

export const clearingCommand: Command = async (argv: string[], io: CliIO): Promise<number> => {
  const parsed = parseClearingArgs(argv);
  if (!parsed.ok) {
    if (parsed.help) {
      const codes = [...GLOBAL_CODES, ...API_CODES].map((code) => `  ${code}\n      ${CODE_MEANINGS[code]}`);
      io.stdout(`${USAGE}\ncodes:\n${codes.join('\n')}\n`);
      return 0;
    }
    io.stderr(`ctxray clearing: ${parsed.message}\n\n${USAGE}`);
    return 2;
  }
  const args = parsed.args;
  const resolve = (file: string | null) => (file === null ? null : path.resolve(io.cwd, file));
  const journalRoots = args.journals.map((root) => path.resolve(io.cwd, root));
  const sidecarPath = resolve(args.sidecar) as string;
  const jsonPaths = {
    routes: resolve(args.routes),
    qualification: resolve(args.qualification),
    agentConfig: resolve(args.agentConfig),
    appAllowlist: resolve(args.appAllowlist),
  };
  const inputPaths = [journalRoots, sidecarPath, Object.values(jsonPaths)].flat().filter((p): p is string => p !== null);

  // Refuse a bad --out before reading anything; the write itself is exclusive again afterwards.
  let outPath: string | null = null;
  if (args.out !== null) {
    const check = checkOutputPath(args.out, inputPaths, { companionsOf: sidecarPath, cwd: io.cwd });
    if (!check.ok) {
      io.stderr(`ctxray clearing: ${check.message} (${check.code})\n`);
      return 2;
    }
    outPath = check.path;
  }

  let snapshot;
  try {
    snapshot = takeSnapshot(inputPaths, { companionsOf: sidecarPath });
  } catch (error) {
    io.stderr(`ctxray clearing: ${(error as Error).message.startsWith('snapshot limit') ? 'too many files under the inputs' : 'inputs could not be listed'}\n`);
    return 2;
  }
  const inputErrors: InputError[] = [];
  const selection = selectJournalFiles(journalRoots);
  if (selection.missing > 0) inputErrors.push({ input: 'journals', reason: 'missing', at: '' });
  const journals = selection.files.map(journalSource);
  const sidecar = readSidecar(sidecarPath, inputErrors);
  const routes = readJson(jsonPaths.routes, 'routes', inputErrors);
  const qualificationJson = readJson(jsonPaths.qualification, 'qualification', inputErrors);
  const agentConfig = readJson(jsonPaths.agentConfig, 'agent_config', inputErrors);
  const appAllowlist = readJson(jsonPaths.appAllowlist, 'app_allowlist', inputErrors);

  const qualification = await installedQualificationStatus(qualificationJson);

  const SQL = await initSqlJs();
  const { record, diagnostics } = analyzeClearing({
    SQL,
    journals,
    sidecar,
    routes,
    qualification,
    agentConfig,
    appAllowlist,
    retrievalRate: args.retrievalRate,
    // Asked after every journal was read (journals are read one at a time during the analysis).
    snapshotChanged: () => snapshotChanged(snapshot),
    inputErrors,
  });

  reportNotes(io, diagnostics, record);

  const json = `${JSON.stringify(record, null, 2)}\n`;
  if (outPath === null) io.stdout(json);
  else {
    try {
      writeExclusive(outPath, json);
    } catch (error) {
      io.stderr(`ctxray clearing: ${error instanceof SafeOutputError ? `${error.message} (${error.code})` : 'could not write --out'}\n`);
      return 2;
    }
  }
  return record.complete ? 0 : 2;
};
