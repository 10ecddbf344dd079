// `--json <file>` that will be refused is refused before anything is read: a folder's deep analysis can take
// minutes, and it used to run to the end before the existing file stopped it (SYNTHETIC session, temp folder).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeInProcess } from './analyze-in-process.ts';

const EXISTS = '--json already exists; choose a new file name (existing files are never overwritten) (pass --force to replace it)';

describe('analyze --json onto an existing file', () => {
  let dir = '';
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxray-json-first-'));
    fs.mkdirSync(path.join(dir, 'projects', 'p'), { recursive: true });
    const line = (type: string, extra: object) => JSON.stringify({ type, sessionId: 's1', uuid: `${type}-1`, timestamp: '2026-01-01T00:00:00.000Z', ...extra });
    const session = [
      line('user', { message: { role: 'user', content: 'hello' } }),
      line('assistant', { requestId: 'req_1', message: { id: 'msg_1', model: 'claude-sonnet-4-5-20250929', role: 'assistant', content: [{ type: 'text', text: 'hi' }], usage: { input_tokens: 5, output_tokens: 2 } } }),
    ];
    fs.writeFileSync(path.join(dir, 'projects', 'p', 's1.jsonl'), session.join('\n') + '\n');
    fs.writeFileSync(path.join(dir, 'taken.json'), 'kept\n');
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it.each([[['projects']], [['projects/p/s1.jsonl']]])('%j: refused before reading, the file kept, exit 1', async (inputs) => {
    const run = await analyzeInProcess([...inputs.map((input) => path.join(dir, input)), '--json', path.join(dir, 'taken.json')], {});
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`ctxray analyze: ${EXISTS}\n`);
    // Nothing was read: no report on stdout.
    expect(run.stdout).toBe('');
    expect(fs.readFileSync(path.join(dir, 'taken.json'), 'utf8')).toBe('kept\n');
  });

  it('--force still replaces it after the read', async () => {
    const run = await analyzeInProcess([path.join(dir, 'projects'), '--json', path.join(dir, 'taken.json'), '--force'], {});
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'taken.json'), 'utf8'))).toMatchObject({ folder: { requests: 1 } });
  });
});
