// Compiles docs/analysis.schema.json with ajv (draft 2020-12, strict) for tests that validate records.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';

const schemaPath = path.resolve(__dirname, '../../docs/analysis.schema.json');

export function analysisValidator() {
  const schema = JSON.parse(readFileSync(schemaPath, 'utf8')) as object;
  return new Ajv2020({ allErrors: true, strict: true }).compile(schema);
}
