// Output-file safety for every CLI `--out`: a report is only ever written to a NEW file that is not an input,
// not inside an input directory, not an alias of an input, not a case variant of an input's name in the same
// directory, not a SQLite companion name of the sidecar, and not reached through a symlink at the destination.
// Identity is by device/inode (not by spelling), and the output's parent is canonicalized with realpath first.
// Messages never echo input paths: they say which rule refused, not what was read.
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

export type OutputRefusalCode =
  | 'OUTPUT_INVALID'
  | 'OUTPUT_PARENT_MISSING'
  | 'OUTPUT_EXISTS'
  | 'OUTPUT_SYMLINK'
  | 'OUTPUT_IS_INPUT'
  | 'OUTPUT_ALIASES_INPUT'
  | 'OUTPUT_INSIDE_INPUT'
  | 'OUTPUT_NAME_CLASH'
  | 'OUTPUT_COMPANION_CLASH'
  | 'OUTPUT_WRITE_FAILED';

export type OutputCheck =
  | {
      ok: true;
      /** Canonical destination: realpath of the parent joined with the requested file name. */
      path: string;
      /** The destination is an existing pipe or character device (`/dev/null`, `>(jq .)`): written in place. */
      device: boolean;
    }
  | { ok: false; code: OutputRefusalCode; message: string };

export interface OutputCheckOptions {
  /** The SQLite sidecar whose `-wal`, `-shm` and `-journal` companion names the output must not take. */
  companionsOf?: string;
  /** Base for relative paths (the CLI passes io.cwd); defaults to the process working directory. */
  cwd?: string;
  /**
   * Standard input is one of the inputs (`-`): the file it was redirected from (`< report.json`), found by
   * fstat(0), is an input like any other, so no writer can replace it.
   */
  stdinIsInput?: boolean;
}

/** dev:ino of the file standard input reads, or null when it has none (closed). */
function stdinIdentity(): string | null {
  try {
    const stats = fs.fstatSync(0, { bigint: true });
    return `${stats.dev}:${stats.ino}`;
  } catch {
    return null;
  }
}

/** SQLite's companion-file suffixes (write-ahead log, shared memory, rollback journal). */
export const SQLITE_COMPANION_SUFFIXES = ['-wal', '-shm', '-journal'] as const;

/** Thrown by writeExclusive; `code` says which rule stopped the write. */
export class SafeOutputError extends Error {
  constructor(
    readonly code: OutputRefusalCode,
    message: string,
  ) {
    super(message);
    this.name = 'SafeOutputError';
  }
}

function refuse(code: OutputRefusalCode, message: string): OutputCheck {
  return { ok: false, code, message };
}

/** dev:ino of what `p` names (following symlinks), or null when it does not exist or cannot be read. */
function identityOf(p: string, { follow = true }: { follow?: boolean } = {}): string | null {
  try {
    const stats = follow ? fs.statSync(p, { bigint: true }) : fs.lstatSync(p, { bigint: true });
    return `${stats.dev}:${stats.ino}`;
  } catch {
    return null;
  }
}

function lstatOrNull(p: string): fs.Stats | null {
  try {
    return fs.lstatSync(p);
  } catch {
    return null;
  }
}

function realpathOrNull(p: string): string | null {
  try {
    return fs.realpathSync.native(p);
  } catch {
    return null;
  }
}

/**
 * Case-insensitive name key used on every platform (conservative on case-sensitive filesystems):
 * compatibility-normalized, upper- then lower-cased so "ß"/"SS" and similar fold together.
 */
export function foldName(name: string): string {
  return name.normalize('NFKC').toUpperCase().toLowerCase();
}

/** Directory identity + folded file name: how "same directory, same name modulo case" is compared. */
function nameKey(dirIdentity: string, name: string): string {
  return `${dirIdentity}/${foldName(name)}`;
}

/**
 * Every (directory identity, folded name) an input occupies: under the path as given and, for symlinks,
 * under its resolved target too. Missing inputs still occupy their name when their directory exists.
 */
function occupiedNames(p: string, suffixes: readonly string[] = ['']): string[] {
  const keys: string[] = [];
  const spellings = [p];
  const real = realpathOrNull(p);
  if (real !== null && real !== p) spellings.push(real);
  // A dangling symlink input still points at a name: writing there would create what the input names.
  if (real === null && lstatOrNull(p)?.isSymbolicLink()) {
    try {
      spellings.push(path.resolve(path.dirname(p), fs.readlinkSync(p)));
    } catch {
      // Removed between the two calls: only its own name remains.
    }
  }
  for (const spelling of spellings) {
    const dirIdentity = identityOf(path.dirname(spelling));
    if (dirIdentity === null) continue;
    for (const suffix of suffixes) keys.push(nameKey(dirIdentity, path.basename(spelling) + suffix));
  }
  return keys;
}

type Refusal = Extract<OutputCheck, { ok: false }>;

/** Checks that `outPath` may be created as a new report file given the inputs of the run. Never writes. */
export function checkOutputPath(outPath: string, inputPaths: readonly string[], options: OutputCheckOptions = {}): OutputCheck {
  const cwd = options.cwd ?? process.cwd();
  const named = namedFile(outPath, cwd);
  if (!('requested' in named)) return named;
  const { requested, name } = named;
  const realParent = realpathOrNull(path.dirname(requested));
  if (realParent === null || !lstatOrNull(realParent)?.isDirectory()) {
    return refuse('OUTPUT_PARENT_MISSING', "--out's parent directory does not exist");
  }
  const destination = path.join(realParent, name);
  const inputs = inputPaths.map((p) => path.resolve(cwd, p));
  const inputIdentities = identitiesOf(inputs, options.stdinIsInput === true);

  // Every rule that protects an input comes before the existence check, whose refusal (OUTPUT_EXISTS) is the
  // only one `--force` may override: an existing input, or a file inside an input directory, is never replaced.
  const spellings = new Set([requested, destination]);
  const protecting =
    aliasRefusal(spellings, inputIdentities, destination) ??
    containmentRefusal(realParent, inputIdentities) ??
    nameClashRefusal({ realParent, name, inputs, companionsOf: options.companionsOf === undefined ? undefined : path.resolve(cwd, options.companionsOf) });
  if (protecting !== null) return protecting;

  // A pipe or character device holds no file to overwrite (`/dev/null`, a shell's `>(jq .)`): it takes the bytes
  // in place. Every rule above still applies, so one that is an input (stdin) was refused already.
  if (isDevice(requested)) return { ok: true, path: requested, device: true };
  // Exclusive creation: anything else already at the destination (file, directory, dangling symlink) is refused.
  for (const spelling of spellings) {
    const existing = lstatOrNull(spelling);
    if (existing === null) continue;
    if (existing.isSymbolicLink()) return refuse('OUTPUT_SYMLINK', '--out is a symlink; symlink destinations are refused');
    return refuse('OUTPUT_EXISTS', '--out already exists; choose a new file name (existing files are never overwritten)');
  }
  return { ok: true, path: destination, device: false };
}

/** The path `outPath` asks for and its file name, or the refusal of a name that is no file's. */
function namedFile(outPath: string, cwd: string): { requested: string; name: string } | Refusal {
  if (typeof outPath !== 'string' || outPath.length === 0 || outPath.includes('\0')) {
    return { ok: false, code: 'OUTPUT_INVALID', message: '--out needs a file name' };
  }
  // Judge the name as typed: resolve() would turn "dir/.." or "dir/" into a directory's own name.
  const typedName = outPath.split(/[\\/]/).pop() ?? '';
  const requested = path.resolve(cwd, outPath);
  const name = path.basename(requested);
  if (typedName === '' || typedName === '.' || typedName === '..' || name !== typedName) {
    return { ok: false, code: 'OUTPUT_INVALID', message: '--out must name a file, not a directory' };
  }
  return { requested, name };
}

/** identity -> canonical input path, for every input that exists (and standard input when it is one). */
function identitiesOf(inputs: readonly string[], stdinIsInput: boolean): Map<string, string> {
  const inputIdentities = new Map<string, string>();
  for (const input of inputs) {
    const identity = identityOf(input);
    if (identity !== null) inputIdentities.set(identity, realpathOrNull(input) ?? input);
  }
  const stdin = stdinIsInput ? stdinIdentity() : null;
  // Redirected from a file, stdin has that file's identity; it has no path, so it can only be an alias.
  if (stdin !== null && !inputIdentities.has(stdin)) inputIdentities.set(stdin, '(stdin)');
  return inputIdentities;
}

/** An existing file under one of the spellings that is an input or another name of one. */
function aliasRefusal(spellings: ReadonlySet<string>, inputIdentities: ReadonlyMap<string, string>, destination: string): OutputCheck | null {
  for (const spelling of spellings) {
    const existing = lstatOrNull(spelling);
    if (existing === null || existing.isSymbolicLink()) continue;
    const identity = identityOf(spelling, { follow: false });
    const aliased = identity === null ? undefined : inputIdentities.get(identity);
    if (aliased !== undefined) {
      return aliased === destination
        ? refuse('OUTPUT_IS_INPUT', '--out is one of the inputs; inputs are never overwritten')
        : refuse('OUTPUT_ALIASES_INPUT', '--out is another name of an input (a hard link, standard input redirected from it, or a case variant on a case-insensitive filesystem); inputs are never overwritten');
    }
  }
  return null;
}

/** Containment: no ancestor of the destination, up to and including the filesystem root, may be an input. */
function containmentRefusal(realParent: string, inputIdentities: ReadonlyMap<string, string>): OutputCheck | null {
  for (let dir = realParent; ; dir = path.dirname(dir)) {
    const identity = identityOf(dir);
    if (identity !== null && inputIdentities.has(identity)) {
      return refuse('OUTPUT_INSIDE_INPUT', '--out lies inside an input directory');
    }
    if (path.dirname(dir) === dir) return null;
  }
}

/** Same-directory names, compared case-insensitively by directory identity (inputs, the sidecar and its companions). */
function nameClashRefusal(at: { realParent: string; name: string; inputs: readonly string[]; companionsOf: string | undefined }): OutputCheck | null {
  const parentIdentity = identityOf(at.realParent);
  if (parentIdentity === null) return null;
  const outKeys = new Set([nameKey(parentIdentity, at.name)]);
  for (const input of at.inputs) {
    if (occupiedNames(input).some((key) => outKeys.has(key))) {
      return refuse('OUTPUT_NAME_CLASH', '--out has the same name as an input in the same directory (compared ignoring case)');
    }
  }
  if (at.companionsOf !== undefined && occupiedNames(at.companionsOf, ['', ...SQLITE_COMPANION_SUFFIXES]).some((key) => outKeys.has(key))) {
    return refuse('OUTPUT_COMPANION_CLASH', "--out takes the name of the sidecar or one of its -wal/-shm/-journal companions (compared ignoring case)");
  }
  return null;
}

// Filesystems without hard links: fall back to an exclusive create of the destination itself.
const LINK_UNSUPPORTED = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV']);

function errorCode(error: unknown): string | undefined {
  return error instanceof Error && 'code' in error ? String((error as NodeJS.ErrnoException).code) : undefined;
}

/**
 * Writes `data` to `destination` only if nothing exists there, never leaving a partial file under that name:
 * the bytes go to a fresh temp file in the same directory (created exclusively), are flushed, and are then
 * hard-linked into place — link() fails rather than replace an existing entry, unlike rename(). The temp name
 * is always removed. Throws SafeOutputError.
 */
export function writeExclusive(destination: string, data: string | Uint8Array): void {
  if (isDevice(destination)) return writeToDevice(destination, data);
  const temp = tempPathBeside(destination);
  try {
    try {
      writeFlushed(temp, data);
    } catch (error) {
      throw new SafeOutputError('OUTPUT_WRITE_FAILED', `could not write the --out file (${errorCode(error) ?? 'error'}); nothing was created`);
    }
    try {
      fs.linkSync(temp, destination);
    } catch (error) {
      const code = errorCode(error);
      if (code === 'EEXIST') throw new SafeOutputError('OUTPUT_EXISTS', '--out appeared while writing; it was not overwritten');
      if (code === undefined || !LINK_UNSUPPORTED.has(code)) {
        throw new SafeOutputError('OUTPUT_WRITE_FAILED', `could not create the --out file (${code ?? 'error'}); nothing was created`);
      }
      writeByExclusiveCreate(destination, data);
    }
  } finally {
    fs.rmSync(temp, { force: true });
  }
}

/** A fresh, unguessable temp name in the destination's directory (so a rename or link into place stays on one filesystem). */
export function tempPathBeside(destination: string): string {
  return path.join(path.dirname(destination), `.${path.basename(destination)}.${process.pid}.${randomBytes(6).toString('hex')}.partial`);
}

/** Creates `file` exclusively (never through an existing name) and writes and flushes `data`; throws fs errors. */
export function writeFlushed(file: string, data: string | Uint8Array): void {
  const fd = fs.openSync(file, 'wx', 0o644);
  try {
    fs.writeFileSync(fd, data);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Fallback without hard links: O_CREAT|O_EXCL on the destination, removed again if the write fails. */
function writeByExclusiveCreate(destination: string, data: string | Uint8Array): void {
  let fd: number;
  try {
    fd = fs.openSync(destination, 'wx', 0o644);
  } catch (error) {
    const code = errorCode(error);
    if (code === 'EEXIST') throw new SafeOutputError('OUTPUT_EXISTS', '--out appeared while writing; it was not overwritten');
    throw new SafeOutputError('OUTPUT_WRITE_FAILED', `could not create the --out file (${code ?? 'error'}); nothing was created`);
  }
  let open = true;
  try {
    fs.writeFileSync(fd, data);
    fs.fsyncSync(fd);
    open = false;
    fs.closeSync(fd);
  } catch (error) {
    if (open) fs.closeSync(fd);
    fs.rmSync(destination, { force: true });
    throw new SafeOutputError('OUTPUT_WRITE_FAILED', `could not write the --out file (${errorCode(error) ?? 'error'}); nothing was kept`);
  }
}

/** Whether `p` names (following symlinks) a pipe or character device. */
function isDevice(p: string): boolean {
  try {
    const stats = fs.statSync(p);
    return stats.isFIFO() || stats.isCharacterDevice();
  } catch {
    return false;
  }
}

/** Writes to a pipe or character device as it is: there is no file to create, replace or leave half-written. */
function writeToDevice(destination: string, data: string | Uint8Array): void {
  try {
    fs.writeFileSync(destination, data, { flag: 'w' });
  } catch (error) {
    throw new SafeOutputError('OUTPUT_WRITE_FAILED', `could not write to the --out device (${errorCode(error) ?? 'error'})`);
  }
}

/** checkOutputPath then writeExclusive on the canonical destination: the one call a command needs for `--out`. */
export function writeOutputSafely(
  outPath: string,
  inputPaths: readonly string[],
  data: string | Uint8Array,
  options: OutputCheckOptions = {},
): OutputCheck {
  const check = checkOutputPath(outPath, inputPaths, options);
  if (!check.ok) return check;
  try {
    writeExclusive(check.path, data);
  } catch (error) {
    if (error instanceof SafeOutputError) return refuse(error.code, error.message);
    throw error;
  }
  return check;
}
