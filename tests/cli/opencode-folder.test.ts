// `ctxray analyze` with no path, and with opencode's storage folder, in a temporary HOME holding a SYNTHETIC
// opencode storage (tests/formats/opencode-synthetic.ts: shaped as opencode's source writes it, figures made up;
// the totals are worked out by hand there).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchAgentFolders } from '../../src/cli/agent-folders.ts';
import { listFolderSessions } from '../../src/cli/fs/folder-inputs.ts';
import { analyzeInProcess } from './analyze-in-process.ts';
import { writeSyntheticStorage } from '../formats/opencode-synthetic.ts';


describe('opencode storage found by default (synthetic home)', () => {
  let home: string;
  let storage: string;
  beforeAll(() => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxray-opencode-home-'));
    storage = path.join(home, '.local', 'share', 'opencode', 'storage');
    writeSyntheticStorage(storage);
  });
  afterAll(() => fs.rmSync(home, { recursive: true, force: true }));

  it('is found in ~/.local/share/opencode/storage with its two sessions (the parts are not counted)', () => {
    const search = searchAgentFolders({ env: { HOME: home } }, 'opencode', 'linux');
    expect(search.notRead).toEqual([]);
    expect(search.found.map((f) => [f.agent, f.path, f.sessions])).toEqual([['opencode', storage, 2]]);
  });

  it('leaves the part files out before the file limit: 9 files of 15 fill a limit of 9, none left out', () => {
    const listing = listFolderSessions(storage, storage, 9);
    expect(listing.leftOut).toBe(0);
    expect(listing.sessions.map((group) => group.length)).toEqual([4, 5]);
    expect(listing.sessions.flat().some((file) => file.folderPath.startsWith('part/'))).toBe(false);
  });

  it('says when opencode keeps its sessions in its newer SQLite database, which is not read', () => {
    const database = path.join(home, '.local', 'share', 'opencode', 'opencode.db');
    fs.writeFileSync(database, 'synthetic: only its presence is looked at');
    try {
      const search = searchAgentFolders({ env: { HOME: home } }, 'opencode', 'linux');
      expect(search.found.map((f) => f.path)).toEqual([storage]);
      expect(search.notRead.map((n) => [n.folder.path, n.reason])).toEqual([[database, 'the SQLite database newer opencode versions keep their sessions in: not read (the storage folder holds what earlier versions wrote)']]);
    } finally {
      fs.rmSync(database);
    }
  });

  it('honours XDG_DATA_HOME', () => {
    const search = searchAgentFolders({ env: { HOME: '/nowhere', XDG_DATA_HOME: path.join(home, '.local', 'share') } }, 'opencode', 'linux');
    expect(search.found.map((f) => [f.path, f.from])).toEqual([[storage, 'XDG_DATA_HOME']]);
  });

  it('`ctxray analyze --agent opencode` reads it: two sessions, three calls, the hand-worked totals', async () => {
    const result = await analyzeInProcess(['--agent', 'opencode', '-v'], { HOME: home });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`opencode  ${storage}  2 sessions`);
    const all = result.stdout + result.stderr;
    expect(all).toContain('all sessions: 3 requests, input 3,050, output 1,000, cache read 6,000, cache write 4,500, cost $0.0309');
    expect(all).toContain('session/4f1a0000000000000000000000000000000000aa/ses_synthA.json: 2 requests, input 1,050, output 500, cache read 5,000, cache write 4,500, cost $0.0290');
    expect(all).toContain('session/global/ses_synthB.json: 1 request, input 2,000, output 500, cache read 1,000, cache write 0, cost $0.0019');
    expect(all).toMatch(/msg_synthB4\.json:4: invalid JSON/);
  });

  it('`ctxray analyze <storage folder> --deep` gives the same sessions', async () => {
    const result = await analyzeInProcess([storage, '--deep', '-v'], { HOME: '/nowhere' });
    expect(result.code).toBe(0);
    const all = result.stdout + result.stderr;
    expect(all).toContain('ctxray analyze: 9 files, 2 sessions, 3 requests, 1 unreadable record');
    expect(all).toMatch(/actual cost:\s+\$0\.0309 {2}\(3 request\(s\) recorded, 0 simulated\)/);
    expect(all).toContain('session/global/ses_synthB.json: 1 request, input 2,000, output 500, cache read 1,000, cache write 0, cost $0.0019');
  });
});
