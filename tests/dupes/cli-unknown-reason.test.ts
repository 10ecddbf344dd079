// `ctxray dupes` on input it cannot measure: exit 2 and one plain stderr line with the reason code and the located
// detail — never payload text, never the file's path. Spawned, as a user runs it. All inputs are synthetic.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const BIN = path.join(ROOT, 'bin/ctxray.mjs');
const MARKER = 'SYNTHETIC-MARKER-h15q';

let dir = '';
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'ctxray-dupes-unknown-'));
  writeFileSync(path.join(dir, 'deep.json'), `{"${MARKER}":${'['.repeat(10_000)}${']'.repeat(10_000)}}`);
  // Bytes chosen by hand: a NUL at offset 3 makes the file binary.
  writeFileSync(path.join(dir, 'binary.bin'), new Uint8Array([0x7b, 0x22, 0x61, 0x00, 0xff, 0xfe, 0x01, 0x02]));
  writeFileSync(path.join(dir, 'bad-block.json'), `{"suite":"v1","blocks":[{"text":"${MARKER}"},{"text":7}]}`);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function dupes(file: string) {
  return spawnSync(process.execPath, [BIN, 'dupes', file], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
}

function checkPrivacy(stderr: string): void {
  expect(stderr).not.toContain(MARKER);
  expect(stderr).not.toContain(dir);
  expect(stderr.trimEnd().split('\n')).toHaveLength(1);
}

describe('ctxray dupes explains an unknown result on stderr', () => {
  it('a 10,000-deep JSON: UNSUPPORTED_INPUT, the skipped count and where the reader stopped', () => {
    const result = dupes('deep.json');
    expect(result.status).toBe(2);
    expect(JSON.parse(result.stdout)).toMatchObject({ result: 'unknown', reason: 'UNSUPPORTED_INPUT' });
    expect(result.stderr).toContain('ctxray dupes: unknown (UNSUPPORTED_INPUT)');
    expect(result.stderr).toContain('skippedRecords 1; first unreadable record, line 1: JSON nested deeper than 512 levels at line 1');
    checkPrivacy(result.stderr);
  });

  it('a binary file: UNSUPPORTED_INPUT with the offset of the NUL byte', () => {
    const result = dupes('binary.bin');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('ctxray dupes: unknown (UNSUPPORTED_INPUT)');
    expect(result.stderr).toContain('file unreadable: not a text file: NUL byte at offset 3');
    checkPrivacy(result.stderr);
  });

  it('a refused envelope: the reason code with field and block index', () => {
    const result = dupes('bad-block.json');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('ctxray dupes: unknown (BLOCK_TEXT_NOT_STRING)');
    expect(result.stderr).toContain('[field text; blockIndex 1]');
    checkPrivacy(result.stderr);
  });

  it('a measurable input writes nothing to stderr', () => {
    writeFileSync(path.join(dir, 'pass.json'), '{"suite":"v1","blocks":[{"text":"a"},{"text":"b"}]}');
    const result = dupes('pass.json');
    expect([result.status, result.stderr]).toEqual([0, '']);
  });
});
