/// <reference lib="webworker" />
// Worker side of the Clearing workspace: runs the clearing analysis on files dropped on the panel (journals,
// sidecar, routes, qualification, optional attestations) with sql.js in this worker. Journals are read one at a
// time (FileReaderSync), the sidecar only as bytes; the answer is the text-free ctxray.clearing/1 record.
import initSqlJs from 'sql.js';
import type { SqlJsStatic } from 'sql.js';
import sqlWasmUrl from 'sql.js/dist/sql-wasm.wasm?url';
import { analyzeClearing, type ClearingOutcome, type JournalSource } from '../../core/clearing/analyze.ts';
import type { InputName } from '../../core/clearing/codes.ts';
import { parsedJsonInput, type InputError } from '../../core/clearing/inputs.ts';
import { checkQualification } from '../../core/clearing/qualification-record.ts';
import { QUALIFICATION_EXPECTED } from '../../core/clearing/qualification-expected.ts';
import { QueryError, type WorkerSession } from '../session.ts';

export interface ClearingFile {
  /** Relative path within a dropped folder, or the file name: used only to sort journals and spot companions. */
  name: string;
  blob: Blob;
}

export interface ClearingParams {
  journals: ClearingFile[];
  sidecar: ClearingFile | null;
  /** Names of other files dropped with the sidecar (a -wal, -shm or -journal companion refuses it). */
  siblingNames: string[];
  routes: Blob | null;
  qualification: Blob | null;
  agentConfig: Blob | null;
  appAllowlist: Blob | null;
  retrievalRate: number | null;
}

let sql: Promise<SqlJsStatic> | null = null;

function isBlobOrNull(value: unknown): value is Blob | null {
  return value === null || value instanceof Blob;
}

function isFile(value: unknown): value is ClearingFile {
  return typeof value === 'object' && value !== null && typeof (value as ClearingFile).name === 'string' && (value as ClearingFile).blob instanceof Blob;
}

function readParams(params: unknown): ClearingParams {
  if (typeof params !== 'object' || params === null) throw new QueryError('clearing needs its input files.');
  const p = params as Record<string, unknown>;
  if (!Array.isArray(p.journals) || !p.journals.every(isFile)) throw new QueryError('clearing: `journals` must be a list of files.');
  if (p.sidecar !== null && !isFile(p.sidecar)) throw new QueryError('clearing: `sidecar` must be a file.');
  for (const key of ['routes', 'qualification', 'agentConfig', 'appAllowlist'] as const) {
    if (!isBlobOrNull(p[key])) throw new QueryError(`clearing: \`${key}\` must be a file.`);
  }
  if (!Array.isArray(p.siblingNames) || !p.siblingNames.every((name) => typeof name === 'string')) {
    throw new QueryError('clearing: `siblingNames` must be a list of names.');
  }
  if (p.retrievalRate !== null && typeof p.retrievalRate !== 'number') throw new QueryError('clearing: `retrievalRate` must be a number.');
  return p as unknown as ClearingParams;
}

/** Reads a small JSON input; a read or syntax problem becomes a located input error, never an exception. */
async function readJson(blob: Blob | null, input: InputName, errors: InputError[]): Promise<unknown> {
  if (blob === null) return undefined;
  let text: string;
  try {
    text = await blob.text();
  } catch {
    errors.push({ input, reason: 'unreadable', at: '' });
    return null;
  }
  return parsedJsonInput(text, input, errors);
}

function journalSource(file: ClearingFile): JournalSource {
  const reader = new FileReaderSync();
  return {
    firstLine() {
      try {
        const head = reader.readAsText(file.blob.slice(0, 1024 * 1024));
        const newline = head.indexOf('\n');
        return newline === -1 ? head : head.slice(0, newline);
      } catch {
        return null;
      }
    },
    text() {
      try {
        return reader.readAsText(file.blob);
      } catch {
        return null;
      }
    },
  };
}

const COMPANION = /-(wal|shm|journal)$/i;

export async function clearingQuery(_session: WorkerSession | null, params: unknown, signal: AbortSignal): Promise<ClearingOutcome> {
  const input = readParams(params);
  sql ??= initSqlJs({ locateFile: () => sqlWasmUrl });
  const SQL = await sql;
  signal.throwIfAborted();
  const inputErrors: InputError[] = [];
  let sidecar: { bytes: Uint8Array; companionPresent: boolean } | null = null;
  if (input.sidecar === null) inputErrors.push({ input: 'sidecar', reason: 'missing', at: '' });
  else {
    const base = input.sidecar.name.toLowerCase();
    const companionPresent = input.siblingNames.some((name) => {
      const lower = name.toLowerCase();
      return COMPANION.test(lower) && lower.replace(COMPANION, '') === base;
    });
    try {
      sidecar = { bytes: new Uint8Array(await input.sidecar.blob.arrayBuffer()), companionPresent };
    } catch {
      inputErrors.push({ input: 'sidecar', reason: 'unreadable', at: '' });
    }
  }
  if (input.routes === null) inputErrors.push({ input: 'routes', reason: 'missing', at: '' });
  const routes = await readJson(input.routes, 'routes', inputErrors);
  const qualificationJson = await readJson(input.qualification, 'qualification', inputErrors);
  const agentConfig = await readJson(input.agentConfig, 'agent_config', inputErrors);
  const appAllowlist = await readJson(input.appAllowlist, 'app_allowlist', inputErrors);
  signal.throwIfAborted();
  const journals = [...input.journals]
    .filter((file) => file.name.toLowerCase().endsWith('.jsonl'))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map(journalSource);
  return analyzeClearing({
    SQL,
    journals,
    sidecar,
    routes,
    qualification: checkQualification(qualificationJson, QUALIFICATION_EXPECTED),
    agentConfig,
    appAllowlist,
    ...(input.retrievalRate !== null && { retrievalRate: input.retrievalRate }),
    inputErrors,
  });
}
