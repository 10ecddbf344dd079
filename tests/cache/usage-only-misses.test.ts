// A usage-only log (a Cline ui_messages.json read without its history: recorded usage, no bodies) prices its
// misses by what the request before it had cached, as the full task does, and raises no finding from the blocks
// the simulation inferred for it. Read in place from ../shared/fixtures/real.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.ts';

const task = path.resolve(__dirname, '../../../shared/fixtures/real/transcripts/cline/exported_conversation_1769053680585');
const present = fs.existsSync(task);
/** The parts of the analysis record this test reads. */
interface Record_ {
  requests: { notes: string[] }[];
  totals: { cost: { actual: number } };
  misses: { cause: string; count: number }[];
  findings: { code: string }[];
}
const run = async (names: string[]) => (await analyze(names.map(file))) as unknown as Record_;
const file = (name: string) => ({ name: `task/${name}`, content: new Uint8Array(fs.readFileSync(path.join(task, name))) });

describe.skipIf(!present)(present ? 'usage-only misses (real Cline task)' : `usage-only misses: SKIPPED, ${task} is absent`, () => {
  it('the UI log alone: the same misses as the task with its history, and no simulation finding', async () => {
    const whole = await run(['api_conversation_history.json', 'ui_messages.json', 'task_metadata.json']);
    const alone = await run(['ui_messages.json']);
    expect(alone.requests.every((r) => r.notes.includes('usage_only'))).toBe(true);
    expect(alone.totals.cost.actual).toBe(whole.totals.cost.actual);
    // With bodies the task has one miss, its cold start; without them the usage rule finds the same one.
    expect(whole.misses.map((m) => [m.cause, m.count])).toEqual([['cold_start', 1]]);
    expect(alone.misses).toEqual(whole.misses);
    expect(alone.findings.map((f) => f.code)).toEqual([]);
  });
});
