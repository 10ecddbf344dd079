// What both paths of `ctxray analyze` share (the files given, analysed together in analyze-files.ts; a folder, a
// session at a time in analyze-folder.ts): the output files' rules, colour, and Ctrl-C.
import fs from 'node:fs';
import path from 'node:path';
import { describeFsError } from '../fs/folder-inputs.ts';
import { checkOutputPath, tempPathBeside, writeFlushed, writeOutputSafely } from '../fs/safe-output.ts';
import type { CliIO } from '../io.ts';
import type { AnalyzeArgs } from './analyze-args.ts';

/** Writes the JSON record; refuses inputs always and existing files unless --force. Returns an error or null. */
export function writeJson(args: AnalyzeArgs, io: CliIO, json: string): string | null {
  return writeOutput(args, io, { flag: '--json', target: args.json ?? '', data: json });
}

/** The inputs an output may not replace, and the rules it is checked under. */
function outputRules(args: AnalyzeArgs, io: CliIO) {
  const inputPaths = [...args.inputs.filter((input) => input !== '-'), ...(args.folderFiles ?? [])];
  return { inputPaths, rules: { cwd: io.cwd, stdinIsInput: args.inputs.includes('-') } };
}

/** Why the output may not be written (said with its flag), or null. */
function refusal(args: AnalyzeArgs, check: ReturnType<typeof checkOutputPath>, flag: string): string | null {
  if (check.ok || (args.force && check.code === 'OUTPUT_EXISTS')) return null;
  const hint = check.code === 'OUTPUT_EXISTS' ? ' (pass --force to replace it)' : '';
  return check.message.replaceAll('--out', flag) + hint;
}

/**
 * `--json <file>` onto an existing file without --force, refused before anything is read so a long run is not lost
 * to it (a folder's deep analysis can take minutes); null otherwise. The other refusals wait for the write, which
 * checks everything again: they depend on a folder's files, known only once the folder is listed.
 */
export function refusedJson(args: AnalyzeArgs, io: CliIO): string | null {
  if (args.json === null || args.json === '-' || args.force) return null;
  const { inputPaths, rules } = outputRules(args, io);
  const check = checkOutputPath(args.json, inputPaths, rules);
  return !check.ok && check.code === 'OUTPUT_EXISTS' ? refusal(args, check, '--json') : null;
}

/** Writes one output file (--json, --html) under the same rules. Returns an error or null. */
export function writeOutput(args: AnalyzeArgs, io: CliIO, output: { flag: string; target: string; data: string }): string | null {
  const { flag, target, data } = output;
  const { inputPaths, rules } = outputRules(args, io);
  const check = checkOutputPath(target, inputPaths, rules);
  const refused = refusal(args, check, flag);
  if (refused !== null) return refused;
  if (check.ok) {
    const written = writeOutputSafely(target, inputPaths, data, rules);
    return written.ok ? null : written.message.replaceAll('--out', flag);
  }
  return replaceFile(path.resolve(io.cwd, target), data, flag);
}

/** --force: write a temp file beside the target, then rename over it, so a failed write leaves nothing half-written. */
function replaceFile(destination: string, data: string, flag: string): string | null {
  const stats = fs.lstatSync(destination);
  if (!stats.isFile()) return `${flag} exists and is not a regular file; it was not replaced`;
  const temp = tempPathBeside(destination);
  try {
    writeFlushed(temp, data);
    fs.renameSync(temp, destination);
    return null;
  } catch (error) {
    fs.rmSync(temp, { force: true });
    return `could not replace the ${flag} file (${describeFsError(error)}); it was left as it was`;
  }
}

/** Color only on a terminal, never when NO_COLOR is set to anything non-empty (no-color.org) or TERM=dumb. */
export function colorEnabled(env: CliIO['env'], stdoutIsTerminal: boolean): boolean {
  const noColor = env.NO_COLOR;
  if (noColor !== undefined && noColor !== '') return false;
  return stdoutIsTerminal && env.TERM !== 'dumb';
}

/**
 * Ctrl-C while reading stops the read (the file streams are cancelled) and exits 130 instead of dying mid-write.
 * A second Ctrl-C exits at once: a read waiting on stdin or on a pipe that sends nothing more never sees the abort.
 */
export function interruptible(io: CliIO, finishProgress: () => void): { signal: AbortSignal; dispose: () => void } {
  const cancel = new AbortController();
  const onInterrupt = () => {
    if (!cancel.signal.aborted) {
      cancel.abort();
      return;
    }
    finishProgress();
    io.stderr('ctxray analyze: cancelled\n');
    // process.exit would wait for a read still blocked in a pipe that sends nothing more (Node joins its I/O
    // threads on exit); dying by SIGINT itself does not, and shells report it as status 130.
    process.removeListener('SIGINT', onInterrupt);
    process.kill(process.pid, 'SIGINT');
  };
  process.on('SIGINT', onInterrupt);
  return { signal: cancel.signal, dispose: () => process.removeListener('SIGINT', onInterrupt) };
}
