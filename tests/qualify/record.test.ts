import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkQualification, type QualificationRecord } from '../../src/core/clearing/qualification-record.ts';

const DIGEST = 'ab'.repeat(32);
const EXPECTED = { piAiVersion: '0.73.1', sourceDigest: DIGEST };

function validRecord(): QualificationRecord {
  const entry = (api: QualificationRecord['apis'][number]['api']) => ({
    api,
    provider: 'synthetic',
    model: 'synthetic',
    cases: 3,
    targetedLeaves: 11,
    changedLeaves: 11,
    unintendedDifferences: 0,
    result: 'qualified' as const,
  });
  return {
    schema: 'ctxray.qualification/1',
    fixtures: 'synthetic',
    piAiVersion: '0.73.1',
    sourceDigest: DIGEST,
    networkCalls: 0,
    apis: [entry('anthropic-messages'), entry('openai-responses'), { ...entry('openai-codex-responses'), alwaysDefers: 'wire-unproven' }, entry('openai-completions')],
  };
}

function refusal(record: unknown): string {
  const result = checkQualification(record, EXPECTED);
  if (result.ok) throw new Error('expected a refusal');
  expect(result.code).toBe('PAYLOAD_UNQUALIFIED');
  expect(result.why).not.toContain(DIGEST);
  return result.why;
}

describe('checkQualification', () => {
  it('accepts a current record and reports each API with its unintended differences', () => {
    const result = checkQualification(validRecord(), EXPECTED);
    expect(result).toEqual({
      ok: true,
      piAiVersion: '0.73.1',
      apis: {
        'anthropic-messages': { unintendedDifferences: 0, qualified: true },
        'openai-responses': { unintendedDifferences: 0, qualified: true },
        'openai-codex-responses': { unintendedDifferences: 0, qualified: true },
        'openai-completions': { unintendedDifferences: 0, qualified: true },
      },
    });
  });

  it('accepts an unqualified API entry but reports it as such', () => {
    const record = validRecord();
    record.apis[1] = { ...record.apis[1]!, unintendedDifferences: 2, result: 'unqualified' };
    const result = checkQualification(record, EXPECTED);
    expect(result.ok && result.apis['openai-responses']).toEqual({ unintendedDifferences: 2, qualified: false });
  });

  it('refuses a missing record', () => {
    expect(refusal(undefined)).toMatch(/no qualification record/);
    expect(refusal(null)).toMatch(/no qualification record/);
  });

  it('refuses malformed records with a located reason', () => {
    expect(refusal([])).toMatch(/JSON object/);
    expect(refusal('ctxray.qualification/1')).toMatch(/JSON object/);
    expect(refusal({ ...validRecord(), schema: 'ctxray.qualification/2' })).toMatch(/^schema/);
    expect(refusal({ ...validRecord(), piAiVersion: 73 })).toMatch(/^piAiVersion/);
    expect(refusal({ ...validRecord(), piAiVersion: '' })).toMatch(/^piAiVersion/);
    expect(refusal({ ...validRecord(), sourceDigest: DIGEST.toUpperCase() })).toMatch(/^sourceDigest/);
    expect(refusal({ ...validRecord(), sourceDigest: DIGEST.slice(1) })).toMatch(/^sourceDigest/);
    expect(refusal({ ...validRecord(), apis: [] })).toMatch(/^apis: must be an array of 1 to 4/);
    expect(refusal({ ...validRecord(), apis: {} })).toMatch(/^apis:/);
    expect(refusal({ ...validRecord(), networkCalls: -1 })).toMatch(/^networkCalls/);
    expect(refusal({ ...validRecord(), networkCalls: 2 })).toMatch(/^apis\[0\]\.result: nothing qualifies when the run made network calls/);
  });

  it('needs only the documented fields (hand-made records without provider, model or networkCalls pass)', () => {
    const minimal = {
      schema: 'ctxray.qualification/1',
      piAiVersion: '0.73.1',
      sourceDigest: DIGEST,
      apis: [{ api: 'openai-completions', cases: 1, changedLeaves: 1, unintendedDifferences: 0, result: 'qualified' }],
    };
    expect(checkQualification(minimal, EXPECTED)).toEqual({
      ok: true,
      piAiVersion: '0.73.1',
      apis: { 'openai-completions': { unintendedDifferences: 0, qualified: true } },
    });
  });

  it('refuses bad API entries at their index', () => {
    const bad = (patch: Record<string, unknown>, index = 2) => {
      const record = validRecord() as unknown as { apis: Record<string, unknown>[] };
      record.apis[index] = { ...record.apis[index], ...patch };
      return refusal(record);
    };
    expect(bad({ api: 'google-generative-ai' })).toMatch(/^apis\[2\]\.api/);
    expect(bad({ cases: 0 })).toMatch(/^apis\[2\]\.cases/);
    expect(bad({ cases: 1.5 })).toMatch(/^apis\[2\]\.cases/);
    expect(bad({ changedLeaves: -1 })).toMatch(/^apis\[2\]\.changedLeaves/);
    expect(bad({ unintendedDifferences: '0' })).toMatch(/^apis\[2\]\.unintendedDifferences/);
    expect(bad({ result: 'QUALIFIED' })).toMatch(/^apis\[2\]\.result/);
    expect(bad({ unintendedDifferences: 1 })).toMatch(/requires 0 unintendedDifferences/);
    expect(bad({ changedLeaves: 0 })).toMatch(/at least one changed leaf/);
    expect(bad({ api: 'anthropic-messages' })).toMatch(/^apis\[2\]\.api: anthropic-messages appears more than once/);
    const record = validRecord() as unknown as { apis: unknown[] };
    record.apis[0] = 'anthropic-messages';
    expect(refusal(record)).toMatch(/^apis\[0\]: must be an object/);
  });

  it('refuses a record made with another pi-ai version, naming both versions only', () => {
    const why = refusal({ ...validRecord(), piAiVersion: '0.72.0' });
    expect(why).toContain('0.72.0');
    expect(why).toContain('0.73.1');
  });

  it('refuses a stale record (sources changed) without printing either digest', () => {
    const why = refusal({ ...validRecord(), sourceDigest: 'cd'.repeat(32) });
    expect(why).toMatch(/^stale/);
    expect(why).not.toContain('cd'.repeat(32));
  });

  it('reads only own properties: __proto__ and constructor keys in parsed JSON change nothing', () => {
    const hostile = JSON.parse(
      JSON.stringify(validRecord()).replace('{"schema"', '{"__proto__":{"piAiVersion":"9.9.9"},"constructor":{"x":1},"schema"'),
    ) as unknown;
    expect(checkQualification(hostile, EXPECTED).ok).toBe(true);
    const inherited = Object.create({ schema: 'ctxray.qualification/1' }) as Record<string, unknown>;
    expect(refusal(inherited)).toMatch(/^schema/);
  });
});

describe('checkQualification on generated input (seeded)', () => {
  it('never throws and refuses arbitrary JSON values', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const result = checkQualification(value, EXPECTED);
        expect(result.ok).toBe(false);
      }),
      { seed: 20260115, numRuns: 1_000 },
    );
  });

  it('never throws when any field of a valid record is replaced, and accepts only well-formed results', () => {
    const fields = ['schema', 'fixtures', 'piAiVersion', 'sourceDigest', 'networkCalls', 'apis'] as const;
    const entryFields = ['api', 'cases', 'targetedLeaves', 'changedLeaves', 'unintendedDifferences', 'result'] as const;
    fc.assert(
      fc.property(fc.constantFrom(...fields), fc.constantFrom(...entryFields), fc.nat(3), fc.jsonValue(), fc.boolean(), (field, entryField, index, value, inEntry) => {
        const record = validRecord() as unknown as Record<string, unknown> & { apis: Record<string, unknown>[] };
        if (inEntry) record.apis[index]![entryField] = value;
        else (record as Record<string, unknown>)[field] = value;
        const result = checkQualification(record, EXPECTED);
        if (result.ok) {
          expect(Object.keys(result.apis).length).toBeGreaterThan(0);
          for (const api of Object.values(result.apis)) expect(Number.isSafeInteger(api.unintendedDifferences)).toBe(true);
        } else {
          expect(result.why.length).toBeGreaterThan(0);
          expect(result.why).not.toContain(DIGEST);
        }
      }),
      { seed: 20260116, numRuns: 2_000 },
    );
  });
});
