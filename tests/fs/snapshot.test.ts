// Snapshot change detection on real files in a temp directory (all names SYNTHETIC).
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { countSnapshotChanges, snapshotChanged, takeSnapshot } from '../../src/cli/fs/snapshot.ts';

let root: string;
let journals: string;
let file: string;
let sidecar: string;

beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(tmpdir(), 'ctxray-snapshot-')));
  journals = path.join(root, 'journals');
  fs.mkdirSync(path.join(journals, 'nested'), { recursive: true });
  file = path.join(journals, 'nested', 'session.jsonl');
  fs.writeFileSync(file, '{"synthetic":1}\n');
  sidecar = path.join(root, 'history.sqlite');
  fs.writeFileSync(sidecar, 'SYNTHETIC sqlite');
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const snap = () => takeSnapshot([journals, sidecar], { companionsOf: sidecar });

describe('takeSnapshot / snapshotChanged', () => {
  it('records inputs, walked directories and the three absent companions', () => {
    const snapshot = snap();
    // journals/, journals/nested/, session.jsonl, history.sqlite, and -wal/-shm/-journal.
    expect(snapshot.entries).toHaveLength(7);
    expect(snapshotChanged(snapshot)).toBe(false);
    expect(countSnapshotChanges(snapshot)).toBe(0);
  });

  it('detects a grown file', () => {
    const snapshot = snap();
    fs.appendFileSync(file, '{"synthetic":2}\n');
    expect(snapshotChanged(snapshot)).toBe(true);
  });

  it('detects a touched file whose size did not change', () => {
    const snapshot = snap();
    const later = new Date(fs.statSync(file).mtimeMs + 5_000);
    fs.utimesSync(file, later, later);
    expect(countSnapshotChanges(snapshot)).toBe(1);
  });

  it('detects a replaced file (new inode) even with size and mtime restored', () => {
    const before = fs.statSync(file);
    const snapshot = snap();
    const replacement = path.join(root, 'replacement');
    fs.writeFileSync(replacement, '{"synthetic":9}\n');
    fs.utimesSync(replacement, before.atime, before.mtime);
    fs.renameSync(replacement, file);
    expect(fs.statSync(file).size).toBe(before.size);
    expect(snapshotChanged(snapshot)).toBe(true);
  });

  it('detects a companion appearing after the snapshot', () => {
    const snapshot = snap();
    fs.writeFileSync(sidecar + '-wal', '');
    expect(snapshotChanged(snapshot)).toBe(true);
  });

  it('detects a case-variant companion appearing after the snapshot (History.sqlite-WAL beside history.sqlite)', () => {
    const snapshot = snap();
    fs.writeFileSync(path.join(root, 'HISTORY.sqlite-WAL'), '');
    expect(snapshotChanged(snapshot)).toBe(true);
    // An unrelated sibling name is not a companion.
    const again = snap();
    fs.writeFileSync(path.join(root, 'history.sqlite-report.json'), '');
    expect(snapshotChanged(again)).toBe(false);
  });

  it('watches companions next to a symlinked sidecar and next to its target', () => {
    const link = path.join(root, 'linked.sqlite');
    fs.symlinkSync(sidecar, link);
    const snapshot = takeSnapshot([link], { companionsOf: link });
    // The link (followed) plus -wal/-shm/-journal beside the link and beside the target.
    expect(snapshot.entries).toHaveLength(7);
    fs.writeFileSync(sidecar + '-journal', '');
    expect(snapshotChanged(snapshot)).toBe(true);
  });

  it('detects a new file in a walked directory and a removed input', () => {
    let snapshot = snap();
    fs.writeFileSync(path.join(journals, 'nested', 'late.jsonl'), '');
    expect(snapshotChanged(snapshot)).toBe(true);
    snapshot = snap();
    fs.rmSync(sidecar);
    expect(snapshotChanged(snapshot)).toBe(true);
  });

  it('ignores changes outside the snapshot', () => {
    const snapshot = snap();
    fs.writeFileSync(path.join(root, 'report.json'), 'SYNTHETIC output next to the inputs');
    expect(snapshotChanged(snapshot)).toBe(false);
  });

  it('walks a symlink cycle once instead of forever', () => {
    fs.symlinkSync(journals, path.join(journals, 'nested', 'loop'), 'dir');
    const snapshot = takeSnapshot([journals]);
    expect(snapshot.entries.length).toBeLessThan(10);
    expect(snapshotChanged(snapshot)).toBe(false);
  });

  it('fails clearly past the entry limit', () => {
    expect(() => takeSnapshot([journals], { maxEntries: 2 })).toThrow(/snapshot limit: more than 2/);
  });
});
