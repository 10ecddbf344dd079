// A folder of inputs may hold traps: a symlink loop, a named pipe, and symlinks to endless devices named like
// journals. Folder walks (`analyze <folder>`, `clearing --journals <folder>`) take regular files only, so none of
// them hangs or exhausts memory, and the one real file is still read. The journal is synthetic.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import initSqlJs from 'sql.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSidecar } from '../../src/core/clearing/sidecar-writer.ts';
import { REPO_ROOT } from '../fuzz/corpus.ts';
import { piJournal, routesFile } from '../leaks/inputs.ts';

const BIN = path.join(REPO_ROOT, 'bin/ctxray.mjs');
const canMakeFifo = spawnSync('sh', ['-c', 'command -v mkfifo']).status === 0 && fs.existsSync('/dev/zero');

let dir = '';
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxray-folder-traps-'));
  const journals = path.join(dir, 'journals');
  fs.mkdirSync(path.join(journals, 'sub'), { recursive: true });
  fs.writeFileSync(path.join(journals, 'session.jsonl'), piJournal());
  fs.symlinkSync('..', path.join(journals, 'sub', 'loop'));
  fs.symlinkSync('/dev/zero', path.join(journals, 'zero.jsonl'));
  fs.symlinkSync('/dev/urandom', path.join(journals, 'sub', 'random.jsonl'));
  if (canMakeFifo) execFileSync('mkfifo', [path.join(journals, 'pipe.jsonl')]);
  const SQL = await initSqlJs();
  fs.writeFileSync(path.join(dir, 'tool-history.sqlite'), buildSidecar(SQL, { rows: [] }));
  fs.writeFileSync(path.join(dir, 'routes.json'), JSON.stringify(routesFile()));
  fs.writeFileSync(path.join(dir, 'qualification.json'), '{}');
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function run(args: string[]): { status: number | null; stdout: string; signal: NodeJS.Signals | null } {
  const result = spawnSync(process.execPath, [BIN, ...args], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
  return { status: result.status, stdout: result.stdout, signal: result.signal };
}

describe.skipIf(!canMakeFifo)('folders with a symlink loop, a named pipe and endless devices', () => {
  it('analyze <folder> reads the one regular file and returns', () => {
    const result = run(['analyze', 'journals', '--json', '-']);
    expect(result.signal).toBeNull();
    expect(result.status).toBe(0);
    const record = JSON.parse(result.stdout) as { files: { requests: number }[] };
    expect(record.files).toHaveLength(1);
    expect(record.files[0]!.requests).toBeGreaterThan(0);
  });

  it('clearing --journals <folder> selects the one regular journal and returns', () => {
    const result = run(['clearing', '--journals', 'journals', '--sidecar', 'tool-history.sqlite', '--routes', 'routes.json', '--qualification', 'qualification.json']);
    expect(result.signal).toBeNull();
    expect([0, 2]).toContain(result.status);
    const record = JSON.parse(result.stdout) as { journals: { selected: number; contributing: number } };
    expect(record.journals).toMatchObject({ selected: 1, contributing: 1 });
  });
});

describe('a folder nested past the path limit', () => {
  it('says which cause it hit instead of only "no readable file"', () => {
    const deep = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxray-deep-'));
    try {
      // 2,100 levels: past PATH_MAX (4,096) once joined, made relative to each parent in turn.
      spawnSync('sh', ['-c', 'for i in $(seq 1 2100); do mkdir d && cd d || exit 1; done; echo "{}" > x.jsonl'], { cwd: deep });
      const result = spawnSync(process.execPath, [BIN, 'analyze', deep], { encoding: 'utf8', timeout: 60_000 });
      expect(result.status).toBe(1);
      expect(result.stderr).toContain('no readable .jsonl, .json or .gz file in it (skipped: 1 × path too long (ENAMETOOLONG))');
    } finally {
      spawnSync('rm', ['-rf', deep]);
    }
  });
});
