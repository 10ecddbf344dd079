// The reference of allowed changes: for each API, where in a complete request body the text of a given tool
// result lives. Clearing may change exactly these leaves (for the targeted earlier results) and nothing else.
// Located in the payload built WITHOUT clearing, by the wire identity that pairs a result with its call.
// This file is hashed into the qualification record's sourceDigest.
import type { JsonPath } from './diff.ts';
import type { QualifiedApi } from './fixtures.ts';

/** Where each targeted result's text leaf is, and which targets could not be located exactly once. */
export interface TargetLeaves {
  paths: JsonPath[];
  /** Targeted tool-call ids with no result in the payload, or with more than one. */
  unlocated: string[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function arrayAt(payload: unknown, key: string): unknown[] {
  if (!isRecord(payload)) return [];
  const value = payload[key];
  return Array.isArray(value) ? value : [];
}

/** The wire id a pi-ai tool-call id becomes: Responses-family ids are "call|item" and the result pairs by call id. */
function wireCallId(api: QualifiedApi, toolCallId: string): string {
  if (api === 'openai-responses' || api === 'openai-codex-responses') return toolCallId.split('|')[0] ?? toolCallId;
  return toolCallId;
}

/** Every (wire id, text-leaf path) of a plain-text tool result in this API's payload shape. */
function resultTextLeaves(api: QualifiedApi, payload: unknown): { wireId: string; path: JsonPath }[] {
  const leaves: { wireId: string; path: JsonPath }[] = [];
  switch (api) {
    case 'anthropic-messages': {
      // messages[i] (role user) . content[j] {type:"tool_result", tool_use_id, content: "<text>"}
      arrayAt(payload, 'messages').forEach((message, i) => {
        if (!isRecord(message) || message.role !== 'user' || !Array.isArray(message.content)) return;
        message.content.forEach((block: unknown, j: number) => {
          if (!isRecord(block) || block.type !== 'tool_result' || typeof block.tool_use_id !== 'string') return;
          if (typeof block.content === 'string') leaves.push({ wireId: block.tool_use_id, path: ['messages', i, 'content', j, 'content'] });
        });
      });
      break;
    }
    case 'openai-responses':
    case 'openai-codex-responses': {
      // input[i] {type:"function_call_output", call_id, output: "<text>"}
      arrayAt(payload, 'input').forEach((item, i) => {
        if (!isRecord(item) || item.type !== 'function_call_output' || typeof item.call_id !== 'string') return;
        if (typeof item.output === 'string') leaves.push({ wireId: item.call_id, path: ['input', i, 'output'] });
      });
      break;
    }
    case 'openai-completions': {
      // messages[i] {role:"tool", tool_call_id, content: "<text>"}
      arrayAt(payload, 'messages').forEach((message, i) => {
        if (!isRecord(message) || message.role !== 'tool' || typeof message.tool_call_id !== 'string') return;
        if (typeof message.content === 'string') leaves.push({ wireId: message.tool_call_id, path: ['messages', i, 'content'] });
      });
      break;
    }
  }
  return leaves;
}

/** The text leaves of the targeted results in `payload`; a target must match exactly one plain-text result. */
export function targetedResultLeaves(api: QualifiedApi, payload: unknown, targetedToolCallIds: readonly string[]): TargetLeaves {
  const byWireId = new Map<string, JsonPath[]>();
  for (const leaf of resultTextLeaves(api, payload)) {
    const found = byWireId.get(leaf.wireId);
    if (found) found.push(leaf.path);
    else byWireId.set(leaf.wireId, [leaf.path]);
  }
  const paths: JsonPath[] = [];
  const unlocated: string[] = [];
  for (const id of targetedToolCallIds) {
    const found = byWireId.get(wireCallId(api, id));
    if (found?.length === 1) paths.push(found[0]!);
    else unlocated.push(id);
  }
  return { paths, unlocated };
}
