// Shared helpers for the duplicate-context tests. Every text built here is synthetic test data.
import Ajv from 'ajv';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { buildDupesRecord, type DupesRecord } from '../../src/core/dupes/record.ts';
import { readEnvelopeBytes } from '../../src/core/dupes/envelope.ts';

export const encoder = new TextEncoder();

export function bytesOf(value: unknown): Uint8Array {
  return encoder.encode(typeof value === 'string' ? value : JSON.stringify(value));
}

/** Record for an envelope given as a value (serialized compactly) or as raw JSON text. */
export function recordOf(envelope: unknown): DupesRecord {
  return buildDupesRecord(readEnvelopeBytes(bytesOf(envelope)));
}

export function nativeEnvelope(texts: readonly string[]): { suite: string; blocks: { text: string }[] } {
  return { suite: 'v1', blocks: texts.map((text) => ({ text })) };
}

const schema: unknown = JSON.parse(
  readFileSync(path.resolve(import.meta.dirname, '../../docs/dupes.schema.json'), 'utf8'),
);
const ajv = new Ajv({ allErrors: true, strict: true });
const validate = ajv.compile(schema as object);

/** Throws with ajv's messages when `record` does not satisfy docs/dupes.schema.json. */
export function assertSchemaValid(record: unknown): void {
  // Round-trip through JSON so the check sees exactly what the CLI prints.
  const value: unknown = JSON.parse(JSON.stringify(record));
  if (!validate(value)) throw new Error(`schema violation: ${ajv.errorsText(validate.errors)}`);
}
