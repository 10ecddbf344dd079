// The size of a dropped folder's pool of session workers (src/ui/folder-pool.ts): one per core, at least 1, at most
// MAX_POOL and never more than the folder has files; `?jobs=N` in the page's address sets it.
import { describe, expect, it } from 'vitest';
import { MAX_POOL, poolSize } from '../../src/ui/folder-pool.ts';

describe('poolSize', () => {
  it('takes one worker per core, within 1 and MAX_POOL, and no more than the files', () => {
    expect(poolSize(100, '', 4)).toBe(4);
    expect(poolSize(100, '', 64)).toBe(MAX_POOL);
    expect(poolSize(100, '', 0)).toBe(1);
    expect(poolSize(3, '', 4)).toBe(3);
    expect(poolSize(1, '', 4)).toBe(1);
  });

  it('takes ?jobs=N when it is a positive integer', () => {
    expect(poolSize(100, '?jobs=1', 4)).toBe(1);
    expect(poolSize(100, '?jobs=2', 1)).toBe(2);
    expect(poolSize(100, '?jobs=99', 1)).toBe(MAX_POOL);
    expect(poolSize(100, '?jobs=0', 3)).toBe(3);
    expect(poolSize(100, '?jobs=two', 3)).toBe(3);
  });
});
