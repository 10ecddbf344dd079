// Hostile or malformed inputs never crash the analysis: every run returns a record the schema accepts.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import fs from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import { analyzeClearing } from '../../src/core/clearing/analyze.ts';
import { buildSidecar } from '../../src/core/clearing/sidecar-writer.ts';
import { assistant, journal, loadSql, ROUTE, text, toolResult, user } from './helpers.ts';

const REPO = path.resolve(__dirname, '../..');
const schema = JSON.parse(fs.readFileSync(path.join(REPO, 'docs/clearing/clearing.schema.json'), 'utf8'));
const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);

const good = journal('s-good', [
  user('u1', 'hello', 1_000),
  assistant('a1', 2_000, { calls: [{ id: 'c1', name: 'read' }] }),
  toolResult('r1', 'c1', 'read', text('content'), 3_000),
  assistant('a2', 4_000, { text: 'done' }),
]);

/** Mutations of a valid journal: swapped or dropped lines, retyped values, truncation, random JSON. */
const journalArbitrary = fc.oneof(
  fc.string(),
  fc.array(fc.jsonValue().map((value) => JSON.stringify(value)), { maxLength: 8 }).map((lines) => lines.join('\n')),
  fc.tuple(fc.nat(), fc.nat()).map(([cut, pick]) => {
    const lines = good.trimEnd().split('\n');
    const keep = lines.filter((_, index) => index !== pick % lines.length);
    return keep.join('\n').slice(0, cut % (good.length + 1));
  }),
  fc.tuple(fc.nat(), fc.jsonValue()).map(([at, value]) => {
    const lines = good.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    const target = lines[at % lines.length] as Record<string, unknown>;
    const keys = Object.keys(target);
    target[keys[at % keys.length] as string] = value;
    return lines.map((line) => JSON.stringify(line)).join('\n');
  }),
);

describe('robustness', () => {
  it('never throws on mutated journals, routes and attestations; the record always validates', async () => {
    const SQL = await loadSql();
    const sidecar = { bytes: buildSidecar(SQL, { rows: [] }), companionPresent: false };
    await fc.assert(
      fc.asyncProperty(
        fc.array(journalArbitrary, { minLength: 0, maxLength: 4 }),
        fc.oneof(fc.constant([ROUTE] as unknown), fc.jsonValue()),
        fc.oneof(fc.constant(undefined), fc.jsonValue()),
        fc.oneof(fc.constant(undefined), fc.jsonValue()),
        async (journals, routes, agentConfig, appAllowlist) => {
          const { record } = analyzeClearing({
            SQL,
            journals: [good, ...journals],
            sidecar,
            routes,
            qualification: { ok: false, code: 'PAYLOAD_UNQUALIFIED', why: 'synthetic' },
            agentConfig,
            appAllowlist,
          });
          expect(validate(record), JSON.stringify(validate.errors)).toBe(true);
          expect(record.journals.selected).toBe(journals.length + 1);
        },
      ),
      { numRuns: 150, seed: 4242 },
    );
  });

  it('refuses random bytes as a sidecar without opening an error path that throws', async () => {
    const SQL = await loadSql();
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 300 }), async (bytes) => {
        const { record } = analyzeClearing({
          SQL,
          journals: [good],
          sidecar: { bytes, companionPresent: false },
          routes: [ROUTE],
          qualification: { ok: false, code: 'PAYLOAD_UNQUALIFIED', why: 'synthetic' },
        });
        expect(record.complete).toBe(false);
        expect(validate(record)).toBe(true);
      }),
      { numRuns: 60, seed: 7 },
    );
  });

  it('the analyzer imports no provider, auth or credential code', () => {
    // Walk the static import graph of the CLI command and the worker handler (relative .ts imports).
    const seen = new Set<string>();
    const external = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const source = fs.readFileSync(file, 'utf8');
      for (const match of source.matchAll(/^\s*(?:import|export)[^'"]*?from\s+'([^']+)'/gm)) {
        const specifier = match[1] as string;
        if (specifier.startsWith('.')) visit(path.resolve(path.dirname(file), specifier));
        else external.add(specifier);
      }
    };
    visit(path.join(REPO, 'src/cli/commands/clearing.ts'));
    visit(path.join(REPO, 'src/worker/handlers/clearing.ts'));
    expect([...external].filter((name) => /pi-ai|auth|credential|oauth|keychain/i.test(name))).toEqual([]);
    expect([...seen].some((file) => file.endsWith(path.join('src', 'core', 'clearing', 'analyze.ts')))).toBe(true);
  });
});
