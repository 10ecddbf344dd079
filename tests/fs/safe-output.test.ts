// Every --out refusal exercised on real files in a temp directory (all names SYNTHETIC).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { checkOutputPath, foldName, SafeOutputError, writeExclusive, writeOutputSafely } from '../../src/cli/fs/safe-output.ts';

let root: string;
let inputs: string; // a directory of inputs
let outDir: string; // an unrelated output directory
let journal: string;
let sidecar: string;

beforeAll(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(tmpdir(), 'ctxray-safe-output-')));
  inputs = path.join(root, 'inputs');
  outDir = path.join(root, 'out');
  fs.mkdirSync(path.join(inputs, 'journals', 'nested'), { recursive: true });
  fs.mkdirSync(outDir);
  journal = path.join(outDir, 'Session.jsonl');
  fs.writeFileSync(journal, '{"synthetic":true}\n');
  sidecar = path.join(outDir, 'history.sqlite');
  fs.writeFileSync(sidecar, 'SYNTHETIC sqlite bytes');
  fs.writeFileSync(path.join(inputs, 'journals', 'a.jsonl'), '{"synthetic":true}\n');
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

function code(out: string, ins: string[], options: { companionsOf?: string; cwd?: string } = {}): string {
  const result = checkOutputPath(out, ins, options);
  return result.ok ? 'ok' : result.code;
}

describe('checkOutputPath', () => {
  it('accepts a new file and returns its canonical path', () => {
    const result = checkOutputPath('report.json', [journal, sidecar], { cwd: outDir, companionsOf: sidecar });
    expect(result).toEqual({ ok: true, path: path.join(outDir, 'report.json'), device: false });
  });

  it('accepts unrelated sibling names next to inputs and the sidecar', () => {
    expect(code(path.join(outDir, 'Session.jsonl.report.json'), [journal])).toBe('ok');
    expect(code(path.join(outDir, 'history.sqlite-report.json'), [sidecar], { companionsOf: sidecar })).toBe('ok');
    expect(code(path.join(outDir, 'history.sqlite-walk'), [sidecar], { companionsOf: sidecar })).toBe('ok');
  });

  it('refuses empty names and directory-shaped paths', () => {
    expect(code('', [])).toBe('OUTPUT_INVALID');
    expect(code(outDir + path.sep, [])).toBe('OUTPUT_INVALID');
    expect(code(outDir + '/..', [])).toBe('OUTPUT_INVALID');
    expect(code(outDir + '/.', [])).toBe('OUTPUT_INVALID');
  });

  it('refuses a parent directory that does not exist (or is a file)', () => {
    expect(code(path.join(root, 'missing', 'report.json'), [])).toBe('OUTPUT_PARENT_MISSING');
    expect(code(path.join(journal, 'report.json'), [])).toBe('OUTPUT_PARENT_MISSING');
  });

  it('refuses an existing file (exclusive creation), and an existing directory', () => {
    const existing = path.join(outDir, 'existing.json');
    fs.writeFileSync(existing, 'SYNTHETIC');
    expect(code(existing, [journal])).toBe('OUTPUT_EXISTS');
    expect(code(path.join(root, 'inputs'), [])).toBe('OUTPUT_EXISTS');
  });

  it('refuses the output being an input, under any spelling', () => {
    expect(code(journal, [journal])).toBe('OUTPUT_IS_INPUT');
    expect(code('Session.jsonl', [path.join(outDir, '.', 'Session.jsonl')], { cwd: outDir })).toBe('OUTPUT_IS_INPUT');
  });

  it('refuses an existing hard link of an input (same device and inode)', () => {
    const alias = path.join(root, 'alias-of-session.jsonl');
    fs.linkSync(journal, alias);
    expect(code(alias, [journal])).toBe('OUTPUT_ALIASES_INPUT');
  });

  it('refuses an output inside an input directory, at any depth', () => {
    expect(code(path.join(inputs, 'report.json'), [inputs])).toBe('OUTPUT_INSIDE_INPUT');
    expect(code(path.join(inputs, 'journals', 'nested', 'report.json'), [inputs])).toBe('OUTPUT_INSIDE_INPUT');
    expect(code(path.join(inputs, 'journals', 'report.json'), [path.join(inputs, 'journals')])).toBe('OUTPUT_INSIDE_INPUT');
  });

  it('refuses when an input is the filesystem root (containment walks up to and including roots)', () => {
    expect(code(path.join(outDir, 'report.json'), [path.parse(outDir).root])).toBe('OUTPUT_INSIDE_INPUT');
  });

  it('canonicalizes the parent with realpath: a symlinked directory into an input is still inside it', () => {
    const link = path.join(root, 'link-to-inputs');
    fs.symlinkSync(path.join(inputs, 'journals'), link, 'dir');
    expect(code(path.join(link, 'report.json'), [inputs])).toBe('OUTPUT_INSIDE_INPUT');
    const clean = path.join(root, 'link-to-out');
    fs.symlinkSync(outDir, clean, 'dir');
    expect(checkOutputPath(path.join(clean, 'new.json'), [inputs])).toEqual({ ok: true, path: path.join(outDir, 'new.json'), device: false });
    // ...and a case-variant of an input reached through the symlinked parent is a clash.
    expect(code(path.join(clean, 'session.JSONL'), [journal])).toBe('OUTPUT_NAME_CLASH');
  });

  it('refuses symlink destinations, dangling or not', () => {
    const dangling = path.join(outDir, 'dangling.json');
    fs.symlinkSync(path.join(root, 'nowhere.json'), dangling);
    expect(code(dangling, [])).toBe('OUTPUT_SYMLINK');
    const toInput = path.join(outDir, 'points-at-input.json');
    fs.symlinkSync(journal, toInput);
    expect(code(toInput, [journal])).toBe('OUTPUT_SYMLINK');
  });

  it('refuses case-variant names of inputs in the same directory, existing or not', () => {
    expect(code(path.join(outDir, 'session.jsonl'), [journal])).toBe('OUTPUT_NAME_CLASH');
    expect(code(path.join(outDir, 'SESSION.JSONL'), [journal])).toBe('OUTPUT_NAME_CLASH');
    expect(code(path.join(outDir, 'Planned.json'), [path.join(outDir, 'planned.JSON')])).toBe('OUTPUT_NAME_CLASH');
    // Same name in a different directory is fine.
    expect(code(path.join(root, 'session.jsonl'), [journal])).toBe('ok');
  });

  it('compares names of a symlinked input under both its own and its target directory', () => {
    const linkDir = path.join(root, 'links');
    fs.mkdirSync(linkDir);
    fs.symlinkSync(journal, path.join(linkDir, 'current.jsonl'));
    expect(code(path.join(linkDir, 'CURRENT.jsonl'), [path.join(linkDir, 'current.jsonl')])).toBe('OUTPUT_NAME_CLASH');
    expect(code(path.join(outDir, 'session.jsonl'), [path.join(linkDir, 'current.jsonl')])).toBe('OUTPUT_NAME_CLASH');
    // A dangling input link names its target too: creating the output there would bring the input to life.
    fs.symlinkSync(path.join(outDir, 'future.jsonl'), path.join(linkDir, 'dangling.jsonl'));
    expect(code(path.join(outDir, 'Future.jsonl'), [path.join(linkDir, 'dangling.jsonl')])).toBe('OUTPUT_NAME_CLASH');
  });

  it("refuses the sidecar's -wal, -shm and -journal companion names, ignoring case", () => {
    for (const name of ['history.sqlite-wal', 'history.sqlite-shm', 'history.sqlite-journal', 'HISTORY.SQLITE-WAL', 'History.sqlite-Journal']) {
      expect(code(path.join(outDir, name), [], { companionsOf: sidecar })).toBe('OUTPUT_COMPANION_CLASH');
    }
    // Without the sidecar named, the same names are ordinary new files.
    expect(code(path.join(outDir, 'history.sqlite-wal'), [])).toBe('ok');
  });

  it('accepts a pipe or character device in place (nothing to overwrite), unless it is standard input', () => {
    expect(checkOutputPath('/dev/null', [journal])).toEqual({ ok: true, path: '/dev/null', device: true });
    const fifo = path.join(outDir, 'report.fifo');
    execFileSync('mkfifo', [fifo]);
    expect(checkOutputPath(fifo, [journal])).toEqual({ ok: true, path: fifo, device: true });
    // A FIFO given as an input stays an input.
    expect(code(fifo, [fifo])).toBe('OUTPUT_IS_INPUT');
    fs.rmSync(fifo);
  });

  it('folds case the same way on every platform', () => {
    expect(foldName('Straße.JSON')).toBe(foldName('STRASSE.json'));
    expect(foldName('e\u0301.txt')).toBe(foldName('\u00c9.TXT'));
  });
});

describe('writeExclusive', () => {
  afterEach(() => vi.restoreAllMocks());
  const leftovers = (dir: string) => fs.readdirSync(dir).filter((name) => name.endsWith('.partial'));

  it('creates the file with the data and leaves no temp file', () => {
    const dest = path.join(outDir, 'written.json');
    writeExclusive(dest, '{"synthetic":1}\n');
    expect(fs.readFileSync(dest, 'utf8')).toBe('{"synthetic":1}\n');
    expect(leftovers(outDir)).toEqual([]);
  });

  it('never overwrites: an existing destination stays byte-identical', () => {
    const dest = path.join(outDir, 'keep.json');
    fs.writeFileSync(dest, 'SYNTHETIC original');
    expect(() => writeExclusive(dest, 'replacement')).toThrow(expect.objectContaining({ code: 'OUTPUT_EXISTS' }));
    expect(fs.readFileSync(dest, 'utf8')).toBe('SYNTHETIC original');
    expect(leftovers(outDir)).toEqual([]);
  });

  it('a failed write (flush error) leaves neither the file nor a temp file', () => {
    vi.spyOn(fs, 'fsyncSync').mockImplementation(() => {
      throw Object.assign(new Error('synthetic EIO'), { code: 'EIO' });
    });
    const dest = path.join(outDir, 'half.json');
    expect(() => writeExclusive(dest, 'x'.repeat(100_000))).toThrow(SafeOutputError);
    expect(fs.existsSync(dest)).toBe(false);
    expect(leftovers(outDir)).toEqual([]);
  });

  it('falls back to an exclusive create where hard links are unsupported, still never overwriting', () => {
    vi.spyOn(fs, 'linkSync').mockImplementation(() => {
      throw Object.assign(new Error('synthetic EPERM'), { code: 'EPERM' });
    });
    const dest = path.join(outDir, 'nolink.json');
    writeExclusive(dest, 'SYNTHETIC via fallback');
    expect(fs.readFileSync(dest, 'utf8')).toBe('SYNTHETIC via fallback');
    expect(() => writeExclusive(dest, 'again')).toThrow(expect.objectContaining({ code: 'OUTPUT_EXISTS' }));
    expect(fs.readFileSync(dest, 'utf8')).toBe('SYNTHETIC via fallback');
    expect(leftovers(outDir)).toEqual([]);
  });

  it('the fallback removes its file again when the write fails', () => {
    vi.spyOn(fs, 'linkSync').mockImplementation(() => {
      throw Object.assign(new Error('synthetic ENOTSUP'), { code: 'ENOTSUP' });
    });
    let calls = 0;
    const realFsync = fs.fsyncSync;
    vi.spyOn(fs, 'fsyncSync').mockImplementation((fd) => {
      calls += 1;
      // The temp file's flush succeeds; the fallback's flush fails.
      if (calls === 2) throw Object.assign(new Error('synthetic ENOSPC'), { code: 'ENOSPC' });
      realFsync(fd);
    });
    const dest = path.join(outDir, 'nolink-fail.json');
    expect(() => writeExclusive(dest, 'data')).toThrow(expect.objectContaining({ code: 'OUTPUT_WRITE_FAILED' }));
    expect(fs.existsSync(dest)).toBe(false);
    expect(leftovers(outDir)).toEqual([]);
  });

  it('writes to a character device without a temp file beside it', () => {
    writeExclusive('/dev/null', 'SYNTHETIC report');
    expect(fs.readdirSync('/dev').some((name) => name.startsWith('.null.'))).toBe(false);
  });

  it('reports a missing directory as a write failure and creates nothing', () => {
    const dest = path.join(root, 'no-such-dir', 'x.json');
    expect(() => writeExclusive(dest, 'x')).toThrow(expect.objectContaining({ code: 'OUTPUT_WRITE_FAILED' }));
    expect(fs.existsSync(path.dirname(dest))).toBe(false);
  });
});

describe('writeOutputSafely', () => {
  it('checks then writes, and returns the refusal instead of writing', () => {
    expect(writeOutputSafely('safe.json', [journal], 'SYNTHETIC', { cwd: outDir })).toEqual({ ok: true, path: path.join(outDir, 'safe.json'), device: false });
    expect(fs.readFileSync(path.join(outDir, 'safe.json'), 'utf8')).toBe('SYNTHETIC');
    const refused = writeOutputSafely(journal, [journal], 'overwrite attempt');
    expect(refused).toMatchObject({ ok: false, code: 'OUTPUT_IS_INPUT' });
    expect(fs.readFileSync(journal, 'utf8')).toBe('{"synthetic":true}\n');
  });

  it('never echoes input paths in its messages', () => {
    const results = [
      checkOutputPath(journal, [journal]),
      checkOutputPath(path.join(inputs, 'x.json'), [inputs]),
      checkOutputPath(path.join(outDir, 'session.jsonl'), [journal]),
      checkOutputPath(path.join(outDir, 'history.sqlite-wal'), [], { companionsOf: sidecar }),
    ];
    for (const result of results) {
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.message).not.toContain(root);
    }
  });
});
