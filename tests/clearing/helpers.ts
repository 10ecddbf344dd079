// Small builders for hand-written pi journals (SYNTHETIC) and an initialized sql.js for the clearing tests.
import fs from 'node:fs';
import path from 'node:path';
import initSqlJs from 'sql.js';
import type { SidecarRow } from '../../src/core/clearing/sidecar-writer.ts';
import type { SqlJsStatic } from 'sql.js';

let sql: Promise<SqlJsStatic> | null = null;
export function loadSql(): Promise<SqlJsStatic> {
  sql ??= initSqlJs();
  return sql;
}

export interface LineSpec {
  id: string;
  parentId?: string | null;
  type?: string;
  message?: Record<string, unknown>;
  [field: string]: unknown;
}

/** A v3 journal: header + entries chained in order unless parentId is given. */
export function journal(sessionId: string, entries: LineSpec[], header: Record<string, unknown> = {}): string {
  const lines = [JSON.stringify({ type: 'session', version: 3, id: sessionId, timestamp: '2026-01-01T00:00:00.000Z', cwd: '/synthetic', ...header })];
  let previous: string | null = null;
  for (const spec of entries) {
    const { id, parentId, type, ...rest } = spec;
    lines.push(JSON.stringify({ type: type ?? 'message', id, parentId: parentId === undefined ? previous : parentId, timestamp: '2026-01-01T00:00:00.000Z', ...rest }));
    previous = id;
  }
  return lines.join('\n') + '\n';
}

export const user = (id: string, text: string, timestamp: number): LineSpec => ({
  id,
  message: { role: 'user', content: [{ type: 'text', text }], timestamp },
});

export const assistant = (
  id: string,
  timestamp: number,
  options: {
    text?: string;
    calls?: { id: string; name: string; args?: Record<string, unknown>; payload?: unknown }[];
    usage?: { input: number; output: number; cacheRead: number; cacheWrite: number } | null;
    stopReason?: string;
    api?: string;
  } = {},
): LineSpec => ({
  id,
  message: {
    role: 'assistant',
    content: [
      ...(options.text !== undefined ? [{ type: 'text', text: options.text }] : []),
      ...(options.calls ?? []).map((call) => ({
        type: 'toolCall',
        id: call.id,
        name: call.name,
        arguments: call.args ?? {},
        ...(call.payload !== undefined ? { payload: call.payload } : {}),
      })),
    ],
    api: options.api ?? 'anthropic-messages',
    provider: 'synthetic',
    model: 'synthetic-model',
    ...(options.usage === null ? {} : { usage: options.usage ?? { input: 10, output: 10, cacheRead: 0, cacheWrite: 0 } }),
    stopReason: options.stopReason ?? (options.calls?.length ? 'toolUse' : 'stop'),
    timestamp,
  },
});

export const toolResult = (
  id: string,
  callId: string,
  toolName: string,
  content: unknown,
  timestamp: number,
  isError = false,
): LineSpec => ({
  id,
  message: { role: 'toolResult', toolCallId: callId, toolName, content, isError, timestamp },
});

export const text = (value: string) => [{ type: 'text', text: value }];

export const ROUTE = {
  api: 'anthropic-messages',
  triggerTokens: 1000,
  drainTokens: 200,
  summaryInputTokens: 300,
  summaryOutputTokens: 50,
  cacheLifetimeMs: 300_000,
  cacheMarginMs: 30_000,
  prices: { input: 3, cacheRead: 0.3, cacheWrite: 3.75, output: 15 },
  quota: { input: 1, cacheRead: 0.1, cacheWrite: 1.25, output: 5 },
  quotaBudget: 1_000_000,
};

/** Exact finalized sidecar rows for every plain-text `read`/`kb_lookup` result of the journals in a folder. */
export function exampleRows(folder: string): SidecarRow[] {
  const rows: SidecarRow[] = [];
  for (const file of fs.readdirSync(folder)) {
    const lines = fs.readFileSync(path.join(folder, file), 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line));
    const sessionId = lines[0].id as string;
    let runId = '';
    for (const entry of lines.slice(1)) {
      const message = entry.message;
      if (message?.role === 'user') runId = entry.id;
      if (message?.role === 'toolResult' && (message.toolName === 'read' || message.toolName === 'kb_lookup')) {
        rows.push({ sessionId, runId, callId: message.toolCallId, state: 'finalized', text: message.content[0].text });
      }
    }
  }
  return rows;
}
