// One validator per published record schema (docs/*.schema.json), compiled once with ajv in strict mode, for the
// tests and fuzz targets that check every --json output against its contract.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv, { type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';

const DOCS = path.resolve(import.meta.dirname, '../../docs');

export const RECORD_SCHEMAS = {
  analysis: 'analysis.schema.json',
  dupes: 'dupes.schema.json',
  clearing: 'clearing/clearing.schema.json',
  compare: 'compare.schema.json',
} as const;
export type RecordKind = keyof typeof RECORD_SCHEMAS;

const compiled = new Map<RecordKind, ValidateFunction>();

function validatorOf(kind: RecordKind): ValidateFunction {
  let validate = compiled.get(kind);
  if (validate === undefined) {
    const schema = JSON.parse(readFileSync(path.join(DOCS, RECORD_SCHEMAS[kind]), 'utf8')) as { $schema?: string };
    // Each schema names its draft: 2020-12 (analysis, compare) or draft-07 (dupes, clearing). The clearing schema
    // annotates with keywords ajv's strict mode does not know (as tests/clearing/cli.test.ts compiles it).
    const options = { allErrors: true, strict: kind !== 'clearing' };
    const ajv = schema.$schema?.includes('2020-12') ? new Ajv2020(options) : new Ajv(options);
    validate = ajv.compile(schema);
    compiled.set(kind, validate);
  }
  return validate;
}

/** Null when `record` (as its JSON would parse) satisfies its schema, else the first errors, located by path. */
export function recordViolation(kind: RecordKind, record: unknown): string | null {
  const validate = validatorOf(kind);
  const value = JSON.parse(JSON.stringify(record)) as unknown;
  if (validate(value)) return null;
  const errors = (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
  return `${kind} record fails ${RECORD_SCHEMAS[kind]} at ${validate.errors?.length ?? 0} path(s): ${errors.join('; ')}`;
}
