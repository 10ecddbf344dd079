// A SYNTHETIC opencode storage folder, written in a temporary folder, shaped as opencode writes it: the paths of
// Storage.write(["session", projectID, id]), (["message", sessionID, id]) and (["part", messageID, id]) in
// packages/opencode/src/session/index.ts, JSON.stringify(content, null, 2) as storage/storage.ts writes, and the
// records of Session.Info (session/index.ts) and MessageV2.Assistant / MessageV2.User (session/message-v2.ts) —
// anomalyco/opencode (formerly sst/opencode) at commit 0002b1fa7df4460349692a647b6fa61d3cc58f12. Every id, path,
// text and figure here is made up.
import fs from 'node:fs';
import path from 'node:path';

export interface SyntheticTokens {
  input: number;
  output: number;
  reasoning: number;
  read: number;
  write: number;
}

const write = (root: string, key: string[], value: unknown) => {
  const target = path.join(root, ...key) + '.json';
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.writeFileSync(target, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
};

function session(root: string, projectID: string, id: string, created: number) {
  write(root, ['session', projectID, id], {
    id,
    version: '0.15.0',
    projectID,
    directory: '/synthetic/project',
    title: 'Synthetic session',
    time: { created, updated: created + 60_000 },
  });
}

function user(root: string, sessionID: string, id: string, created: number) {
  write(root, ['message', sessionID, id], { id, sessionID, role: 'user', time: { created }, agent: 'build', model: { providerID: 'anthropic', modelID: 'claude-sonnet-4-5-20250929' } });
  write(root, ['part', id, `prt_${id.slice(4)}0`], { id: `prt_${id.slice(4)}0`, sessionID, messageID: id, type: 'text', text: 'synthetic prompt' });
}

function assistant(root: string, at: { sessionID: string; id: string; created: number }, model: { providerID: string; modelID: string }, tokens: SyntheticTokens, extra: Record<string, unknown> = {}) {
  const { sessionID, id, created } = at;
  write(root, ['message', sessionID, id], {
    id,
    sessionID,
    role: 'assistant',
    time: { created, completed: created + 4_000 },
    parentID: 'msg_synthetic_parent',
    modelID: model.modelID,
    providerID: model.providerID,
    mode: 'build',
    agent: 'build',
    path: { cwd: '/synthetic/project', root: '/synthetic/project' },
    cost: 0.5,
    tokens: { input: tokens.input, output: tokens.output, reasoning: tokens.reasoning, cache: { read: tokens.read, write: tokens.write } },
    ...extra,
  });
  write(root, ['part', id, `prt_${id.slice(4)}1`], { id: `prt_${id.slice(4)}1`, sessionID, messageID: id, type: 'text', text: 'synthetic answer', time: { start: created, end: created + 4_000 } });
}

export const T0 = Date.UTC(2026, 10, 20, 9, 0, 0);

/**
 * Writes the synthetic storage under `root` (the `storage` folder):
 *  - ses_synthA (project 4f1a… a made-up root-commit hash), Anthropic claude-sonnet-4-5-20250929: two calls;
 *  - ses_synthB (project "global"), Google gemini-2.5-flash, a reasoning model: one call with reasoning tokens,
 *    one call aborted before any usage (all zeros), and one message file cut short (not JSON).
 */
export function writeSyntheticStorage(root: string): void {
  const project = '4f1a0000000000000000000000000000000000aa';
  session(root, project, 'ses_synthA', T0);
  user(root, 'ses_synthA', 'msg_synthA1', T0);
  const claude = { providerID: 'anthropic', modelID: 'claude-sonnet-4-5-20250929' };
  assistant(root, { sessionID: 'ses_synthA', id: 'msg_synthA2', created: T0 + 1_000 }, claude, { input: 1000, output: 200, reasoning: 0, read: 0, write: 4000 });
  assistant(root, { sessionID: 'ses_synthA', id: 'msg_synthA3', created: T0 + 10_000 }, claude, { input: 50, output: 300, reasoning: 0, read: 5000, write: 500 });
  session(root, 'global', 'ses_synthB', T0 + 3_600_000);
  user(root, 'ses_synthB', 'msg_synthB1', T0 + 3_600_000);
  const gemini = { providerID: 'google', modelID: 'gemini-2.5-flash' };
  assistant(root, { sessionID: 'ses_synthB', id: 'msg_synthB2', created: T0 + 3_601_000 }, gemini, { input: 2000, output: 100, reasoning: 400, read: 1000, write: 0 });
  assistant(root, { sessionID: 'ses_synthB', id: 'msg_synthB3', created: T0 + 3_610_000 }, gemini, { input: 0, output: 0, reasoning: 0, read: 0, write: 0 }, { error: { name: 'MessageAbortedError', data: { message: 'synthetic abort' } } });
  write(root, ['message', 'ses_synthB', 'msg_synthB4'], '{\n  "id": "msg_synthB4",\n  "sessionID": "ses_synthB",\n  "role": "assis');
}
