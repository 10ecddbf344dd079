// Worker side of a dropped clearing case: which role each file of a dropped folder plays (journal, sidecar and its
// companions, routes, qualification, agent config, app allowlist), told from its content, never from its name
// alone, so a folder laid out differently is still recognised. Reads at most the first 64 KiB of a journal and
// small JSON files whole; answers roles and reasons only (no content).
import type { ClearingFile } from './clearing.ts';
import { QueryError } from '../session.ts';

export type ClearingRole = 'journal' | 'sidecar' | 'sidecar-companion' | 'routes' | 'qualification' | 'agent-config' | 'app-allowlist' | 'other';

export interface ClearingRolesAnswer {
  /** Aligned with the files asked about. */
  roles: ClearingRole[];
  /** True when the folder is a clearing case: at least one journal and a sidecar. */
  isCase: boolean;
}

const SQLITE_MAGIC = 'SQLite format 3\u0000';
/** JSON inputs of a case are small; a larger .json is a request log, not a case file. */
const MAX_JSON_BYTES = 8 * 1024 * 1024;
const HEAD_BYTES = 64 * 1024;

async function headText(blob: Blob, bytes: number): Promise<string> {
  return new TextDecoder('utf-8', { fatal: false }).decode(await blob.slice(0, bytes).arrayBuffer());
}

function jsonRole(value: unknown): ClearingRole {
  if (Array.isArray(value)) {
    if (value.length > 0 && value.every((r) => typeof r === 'object' && r !== null && 'api' in r && 'triggerTokens' in r)) return 'routes';
    if (value.length > 0 && value.every((r) => typeof r === 'object' && r !== null && 'server' in r && 'tool' in r)) return 'app-allowlist';
    return 'other';
  }
  if (typeof value !== 'object' || value === null) return 'other';
  const record = value as Record<string, unknown>;
  if (record['schema'] === 'ctxray.qualification/1') return 'qualification';
  if (Array.isArray(record['builtins']) || Array.isArray(record['mcpTools'])) return 'agent-config';
  return 'other';
}

export async function roleOf(file: ClearingFile): Promise<ClearingRole> {
  const name = file.name.toLowerCase();
  if (/-(wal|shm|journal)$/.test(name)) return 'sidecar-companion';
  const head = await headText(file.blob, Math.min(HEAD_BYTES, file.blob.size));
  if (head.startsWith(SQLITE_MAGIC)) return 'sidecar';
  const firstLine = head.split('\n', 1)[0]?.trim() ?? '';
  if (firstLine.startsWith('{') && firstLine.length < head.length) {
    // A pi session file opens with its session header.
    try {
      const header = JSON.parse(firstLine) as { type?: unknown };
      if (header.type === 'session') return 'journal';
      // A JSON value with more than blanks after it is one JSON value per line (a transcript, a request log): no
      // whole-document JSON, so not a case file, told without reading the whole file (a folder of sessions).
      if (head.slice(head.indexOf('\n')).trim() !== '') return 'other';
    } catch {
      // Not one JSON object per line: fall through to whole-document JSON.
    }
  }
  if (file.blob.size > MAX_JSON_BYTES || !/^\s*[[{]/.test(head)) return 'other';
  try {
    return jsonRole(JSON.parse(await file.blob.text()));
  } catch {
    return 'other';
  }
}

export async function clearingRolesQuery(_session: unknown, params: unknown): Promise<ClearingRolesAnswer> {
  const files = (params as { files?: unknown } | null)?.files;
  if (!Array.isArray(files) || !files.every((f) => typeof f === 'object' && f !== null && typeof f.name === 'string' && f.blob instanceof Blob)) {
    throw new QueryError('clearing-roles: `files` must be a list of files.');
  }
  const roles: ClearingRole[] = [];
  for (const file of files as ClearingFile[]) roles.push(await roleOf(file));
  return { roles, isCase: roles.includes('journal') && roles.includes('sidecar') };
}
