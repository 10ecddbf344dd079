// `ctxray analyze`'s default answer in one screen, -v for every request, and --since / --until / --tz / --by:
// the window's sums against the full record's requests[] filtered by their timestamp. On the real pi session
// (../shared/fixtures/real, skipped when absent) and on synthetic logs written here.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeCommand } from '../../src/cli/commands/analyze.ts';
import { analysisValidator } from '../analysis/schema.ts';
import { runInProcess } from './in-process.ts';

const root = path.resolve(__dirname, '../..');
const PI = path.resolve(root, '../shared/fixtures/real/transcripts/pi/large-session.jsonl');
const TRANSCRIPTS = path.resolve(root, '../shared/fixtures/real/transcripts');
const BUST = path.join(root, 'examples/synthetic-anthropic-agent-cache-bust.jsonl.gz');
const real = fs.existsSync(PI);
if (!real) console.warn(`skipping the real-session cases: ${PI} is absent`);

interface RequestJson {
  timestamp: string | null;
  cache: { cost: number | null; read: number; write5m: number; write1h: number; uncached: number; optimizedCost: number | null };
  miss: { cost: number | null } | null;
}
interface PeriodJson {
  totals: { requests: number; cost: number; cacheRead: number; promptTokens: number; optimized: number; lostToMisses: number; misses: number };
  rows: { key: string | null; requests: number; cost: number }[];
  outside: number;
  untimed: number;
  zone: string;
}

let dir = '';
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxray-brief-'));
  // Synthetic: 3,000 Chat requests of one growing conversation, one every minute from 2026-01-16T00:00Z.
  const lines: string[] = [];
  for (let i = 0; i < 3000; i++) {
    const messages = [{ role: 'system', content: 'You are a synthetic test agent.' }, { role: 'user', content: `synthetic turn ${i % 50}` }];
    lines.push(JSON.stringify({ timestamp: new Date(Date.UTC(2026, 0, 16) + i * 60_000).toISOString(), request: { model: 'gpt-4o', messages } }));
  }
  fs.writeFileSync(path.join(dir, 'synthetic-3000.jsonl'), lines.join('\n') + '\n');
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const lineCount = (text: string) => text.split('\n').filter((_, i, all) => i < all.length - 1 || all[i] !== '').length;

describe('analyze: the answer in one screen', () => {
  it('prints at most 40 lines for 3,000 requests, -v one row per request', async () => {
    const brief = await runInProcess(analyzeCommand, ['synthetic-3000.jsonl', '--tz', 'UTC'], dir);
    expect(brief.code).toBe(0);
    expect(lineCount(brief.stdout)).toBeLessThanOrEqual(40);
    expect(brief.stdout).toContain('synthetic-3000.jsonl — OpenAI Chat Completions, 3,000 requests, 2026-01-16 00:00 → 2026-01-18 01:59 (UTC)');
    expect(brief.stdout).toMatch(/^cost +\$\d+\.\d{4} {2}simulated: the log records no usage$/m);
    expect(brief.stdout).toContain('costliest 5 requests');
    const verbose = await runInProcess(analyzeCommand, ['synthetic-3000.jsonl', '-v'], dir);
    expect(verbose.stdout.match(/^ {2}#\d+ line \d+/gm)?.length).toBe(3000);
  }, 120_000);

  it('on the cache-bust example: cost, hit rate, lost to misses, optimized and both findings with their fix', async () => {
    const run = await runInProcess(analyzeCommand, [BUST], dir);
    expect(lineCount(run.stdout)).toBeLessThanOrEqual(40);
    expect(run.stdout).toMatch(/^cost +\$4\.3566 {2}simulated: the log records no usage$/m);
    expect(run.stdout).toMatch(/^cache hit rate +0\.0% /m);
    expect(run.stdout).toMatch(/^lost to misses +\$0\.3465 {2}on 24 misses: setup_changed \$0\.3319 \(23\), cold_start \$0\.0146 \(1\)$/m);
    expect(run.stdout).toMatch(/^optimized +\$0\.8248 {2}fixing the findings would save \$3\.5318 \(81\.1%\)$/m);
    expect(run.stdout).toContain('warning volatile_value_in_prefix:');
    expect(run.stdout.match(/^ {4}fix: /gm)?.length).toBe(2);
  });

  it.skipIf(!real)('prints at most 40 lines on a folder of real sessions, labelled by agent', async () => {
    const run = await runInProcess(analyzeCommand, [TRANSCRIPTS, '--tz', 'UTC'], dir);
    expect(run.code).toBe(0);
    expect(lineCount(run.stdout)).toBeLessThanOrEqual(40);
    expect(run.stdout).toMatch(/Gemini CLI session ×1/);
    expect(run.stdout).toMatch(/Cline task ×1/);
    expect(run.stdout).toContain('costliest 5 sessions');
  }, 300_000);
});

describe('analyze --since / --until / --by', () => {
  it.skipIf(!real)('sums exactly the requests of the full record whose timestamp is in the window', async () => {
    const full = await runInProcess(analyzeCommand, [PI, '--json', '-'], dir);
    const requests = (JSON.parse(full.stdout) as { requests: RequestJson[] }).requests;
    const since = Date.parse('2025-11-21T01:00:00Z');
    const until = Date.parse('2025-11-21T02:00:00Z');
    const inside = requests.filter((r) => r.timestamp !== null && Date.parse(r.timestamp) >= since && Date.parse(r.timestamp) < until);
    expect(inside.length).toBeGreaterThan(50);
    const windowed = await runInProcess(analyzeCommand, [PI, '--since', '2025-11-21T01:00', '--until', '2025-11-21T02:00', '--tz', 'UTC', '--by', 'model', '--json', '-'], dir);
    expect(windowed.code).toBe(0);
    const record = JSON.parse(windowed.stdout) as { period: PeriodJson };
    expect(analysisValidator()(record)).toBe(true);
    const sum = (f: (r: RequestJson) => number) => inside.reduce((total, r) => total + f(r), 0);
    const period = record.period;
    expect(period.totals.requests).toBe(inside.length);
    expect(period.outside).toBe(requests.length - inside.length);
    expect(period.totals.cost).toBeCloseTo(sum((r) => r.cache.cost ?? 0), 9);
    expect(period.totals.cacheRead).toBe(sum((r) => r.cache.read));
    expect(period.totals.promptTokens).toBe(sum((r) => r.cache.read + r.cache.write5m + r.cache.write1h + r.cache.uncached));
    expect(period.totals.optimized).toBeCloseTo(sum((r) => r.cache.optimizedCost ?? 0), 9);
    expect(period.totals.lostToMisses).toBeCloseTo(sum((r) => r.miss?.cost ?? 0), 9);
    expect(period.totals.misses).toBe(inside.filter((r) => r.miss !== null).length);
    // The same window in Berlin's wall time (UTC+1 in November).
    const berlin = await runInProcess(analyzeCommand, [PI, '--since', '2025-11-21T02:00', '--until', '2025-11-21T03:00', '--tz', 'Europe/Berlin', '--json', '-'], dir);
    expect((JSON.parse(berlin.stdout) as { period: PeriodJson }).period.totals.requests).toBe(inside.length);
  }, 120_000);

  it('groups by day, week and month in the zone, the rows adding up to the total', async () => {
    const byDay = await runInProcess(analyzeCommand, ['synthetic-3000.jsonl', '--by', 'day', '--tz', 'UTC', '--json', '-'], dir);
    const period = (JSON.parse(byDay.stdout) as { period: PeriodJson }).period;
    // 3,000 minutes from midnight: 1,440 on the 16th, 1,440 on the 17th, 120 on the 18th.
    expect(period.rows.map((row) => [row.key, row.requests])).toEqual([
      ['2026-01-16', 1440],
      ['2026-01-17', 1440],
      ['2026-01-18', 120],
    ]);
    expect(period.rows.reduce((sum, row) => sum + row.cost, 0)).toBeCloseTo(period.totals.cost, 9);
    const tokyo = await runInProcess(analyzeCommand, ['synthetic-3000.jsonl', '--by', 'day', '--tz', 'Asia/Tokyo', '--json', '-'], dir);
    // UTC+9: the first 900 minutes are still the 16th there.
    expect((JSON.parse(tokyo.stdout) as { period: PeriodJson }).period.rows.map((row) => row.requests)).toEqual([900, 1440, 660]);
    const byWeek = await runInProcess(analyzeCommand, ['synthetic-3000.jsonl', '--by', 'week', '--tz', 'UTC'], dir);
    expect(byWeek.stdout).toMatch(/^ {2}2026-W03 +3,000 /m);
    const windowed = await runInProcess(analyzeCommand, ['synthetic-3000.jsonl', '--since', '2026-01-17', '--until', '2026-01-17', '--tz', 'UTC'], dir);
    expect(windowed.stdout).toContain('window 2026-01-17 00:00 → 2026-01-18 00:00 (UTC): 1,440 of 3,000 requests');
  }, 120_000);

  it('refuses bad bounds, zones and groupings with exit 1', async () => {
    const cases: [string[], string][] = [
      [['--since', 'yesterday'], '"yesterday" is not a time'],
      [['--tz', 'Mars/Olympus'], 'unknown time zone "Mars/Olympus"'],
      [['--by', 'hour'], '--by must be one of session, project, day, week, month, model (got "hour")'],
      [['--since', '2026-01-17', '--until', '2026-01-16T12:00', '--tz', 'UTC'], '--until must be later than --since'],
    ];
    for (const [flags, message] of cases) {
      const run = await runInProcess(analyzeCommand, ['synthetic-3000.jsonl', ...flags], dir);
      expect(run.code, flags.join(' ')).toBe(1);
      expect(run.stderr).toContain(message);
    }
  });
});
