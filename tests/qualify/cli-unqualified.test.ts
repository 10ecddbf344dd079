// The qualify command's handling of an unqualified run (exit 2, structural diagnostics on stderr only).
// The run itself is replaced with a SYNTHETIC outcome: real builders qualify, so failure has to be staged.
import { describe, expect, it, vi } from 'vitest';
import type { CliIO } from '../../src/cli/io.ts';
import type { QualificationRun } from '../../src/cli/qualify/run.ts';

const findings = Array.from({ length: 23 }, (_, i) => ({
  api: 'openai-responses' as const,
  fixture: 'read-fix-verify',
  location: `$."input"[${i}]."id"`,
  kind: 'value',
}));

vi.mock('../../src/cli/qualify/run.ts', () => ({
  runQualification: async (): Promise<QualificationRun> => ({
    record: {
      schema: 'ctxray.qualification/1',
      fixtures: 'synthetic',
      piAiVersion: '0.73.1',
      sourceDigest: 'ef'.repeat(32),
      networkCalls: 0,
      apis: [
        { api: 'anthropic-messages', provider: 'anthropic', model: 'm', cases: 3, targetedLeaves: 11, changedLeaves: 11, unintendedDifferences: 0, result: 'qualified' },
        { api: 'openai-responses', provider: 'openai', model: 'm', cases: 3, targetedLeaves: 11, changedLeaves: 11, unintendedDifferences: 23, result: 'unqualified' },
      ],
    },
    findings,
  }),
}));

const { qualifyCommand } = await import('../../src/cli/commands/qualify.ts');

describe('ctxray qualify with an unqualified API', () => {
  it('still prints the record, lists at most 20 locations on stderr, and exits 2', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const io: CliIO = { stdout: (t) => out.push(t), stderr: (t) => err.push(t), readStdin: async () => new Uint8Array(), env: {}, cwd: '/' };
    expect(await qualifyCommand([], io)).toBe(2);
    const record = JSON.parse(out.join('')) as { apis: { result: string }[] };
    expect(record.apis.map((a) => a.result)).toEqual(['qualified', 'unqualified']);
    const lines = err.join('').trimEnd().split('\n');
    expect(lines).toHaveLength(21);
    expect(lines[0]).toBe('unintended difference: openai-responses read-fix-verify value at $."input"[0]."id"');
    expect(lines[20]).toBe('... and 3 more unintended differences');
    expect(out.join('')).not.toContain('unintended difference:');
  });
});
