// The folder's two speeds agree on real agent sessions (../shared/fixtures/real/transcripts, laid out like
// ~/.claude/projects in a temp folder, with subagents derived from real files; never copied into the repository):
// each session's rows — requests, recorded usage, cost, hit rate, time range, subagents, per day and per model, and
// the misses — from the usage pass (one read of each line, no request rebuilt, nothing tokenized or simulated)
// equal those of the session's full analysis, and the sessions the pass does not read (other agents') are
// analysed in full. The real Claude Code sessions are all read by the pass itself.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeInput } from '../../src/core/analysis/analyze.ts';
import { emptyUsageFolder, foldSessionUsage } from '../../src/core/folder/usage-folder.ts';
import { sessionPartsOf } from '../../src/core/transcripts/index.ts';
import { listFolderSessions } from '../../src/cli/fs/folder-inputs.ts';
import { buildRealSessionFolder } from './real-session-folder.ts';

const real = path.resolve(__dirname, '../../../shared/fixtures/real/transcripts');
const present = fs.existsSync(path.join(real, 'claude-code'));
const suite = present ? describe : describe.skip;
const title = present ? 'the usage pass on real sessions (../shared/fixtures/real/transcripts)' : `the usage pass on real sessions: SKIPPED, ${real} is absent`;

suite(title, () => {
  let dir = '';
  beforeAll(() => {
    dir = buildRealSessionFolder(real, { nested: true, agents: ['codex', 'gemini-cli', 'pi'] });
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const sessions = () => listFolderSessions(path.join(dir, 'projects'), 'projects').sessions;
  const inputs = (group: ReturnType<typeof sessions>[number]) => group.map((file) => ({ name: file.name, bytes: new Uint8Array(fs.readFileSync(file.full)), size: file.size, folderPath: file.folderPath }));

  it('gives every session the rows of its full analysis, misses included', { timeout: 120_000 }, async () => {
    const groups = sessions();
    expect(groups.length).toBeGreaterThanOrEqual(9);
    let usagePass = 0;
    for (const group of groups) {
      const folder = emptyUsageFolder();
      const fast = await foldSessionUsage(folder, () => inputs(group));
      const full = sessionPartsOf(await analyzeInput(inputs(group)));
      expect(fast.parts, group.map((file) => file.folderPath).join(' + ')).toEqual(full);
      if (!fast.full) usagePass++;
    }
    // The three real Claude Code sessions (one with a nested subagent, one with a flat one) and tool_heavy.
    expect(usagePass).toBe(3);
  });

  it('reads every Claude Code session with the pass, and every other agent in full', async () => {
    for (const group of sessions()) {
      const fast = await foldSessionUsage(emptyUsageFolder(), () => inputs(group));
      const isClaudeCode = group.every((file) => file.folderPath.startsWith('-real-'));
      expect(fast.full, group[0]!.folderPath).toBe(!isClaudeCode);
    }
  });
});
