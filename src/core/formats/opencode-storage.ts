// opencode's storage folder ($XDG_DATA_HOME/opencode/storage, one JSON file per record, as written by
// packages/opencode/src/storage/storage.ts and session/index.ts of sst/opencode, now anomalyco/opencode):
//   session/<projectID>/<sessionID>.json   the session (id, projectID, directory, parentID, title, version, time)
//   message/<sessionID>/<messageID>.json   one message (MessageV2.Info): role "user" or "assistant"; an assistant
//                                          message records modelID, providerID, time.created/completed, cost and
//                                          tokens {input, output, reasoning, cache {read, write}}
//   part/<messageID>/<partID>.json         the message's text, reasoning, tool calls and their output
// The layout before opencode's first storage migration kept the same records under
// <data>/project/<dir>/storage/session/{info,message,part/<sessionID>}/…; its file names are read the same way.
//
// Each assistant message with usage is one recorded call, usage-only (`usage_only`): the parts hold what the model
// wrote and the tools returned, never the request body opencode sent (system prompt, tools, provider options), so
// there is no exact body to break down. Usage as opencode's Session.getUsage records it: `tokens.input` excludes
// the cached tokens for every provider (it subtracts them where the AI SDK counts them in), `tokens.cache.write` is
// Anthropic's / Bedrock's cache creation, and opencode prices `tokens.reasoning` at the output rate beside
// `tokens.output`, so ctxray counts output + reasoning as output. The session file gives the project (opencode's
// projectID folder); every file of a session carries its sessionID, so the session tables make one row of them.

import type { RecordedUsage } from '../model.ts';
import { isObject, numberField, stringField, type JsonObject } from '../input/json-value.ts';
import { loggedCallRequest } from './logged-call.ts';
import type { SessionLink, TranscriptContext, TranscriptImport, TranscriptImporter, TranscriptRecord } from './types.ts';

export const OPENCODE_FORMAT = 'opencode-storage';

type Kind = 'session' | 'message' | 'part';

// storage/session/<projectID>/<ses>.json, storage/message/<ses>/<msg>.json, storage/part/<msg>/<prt>.json, and the
// older storage/session/info/<ses>.json, storage/session/message/<ses>/<msg>.json, storage/session/part/<ses>/<msg>/<prt>.json.
const NAMES: [Kind, RegExp][] = [
  ['message', /(?:^|[\\/])(?:session[\\/])?message[\\/](ses_[^\\/]+)[\\/]msg_[^\\/]+\.json$/],
  ['part', /(?:^|[\\/])(?:session[\\/])?part[\\/](?:ses_[^\\/]+[\\/])?msg_[^\\/]+[\\/]prt_[^\\/]+\.json$/],
  ['session', /(?:^|[\\/])session[\\/]([^\\/]+)[\\/]ses_[^\\/]+\.json$/],
];

export function opencodeKind(fileName: string): Kind | null {
  return NAMES.find(([, pattern]) => pattern.test(fileName))?.[0] ?? null;
}

const link = (sessionId: string, project?: string): SessionLink => ({ sessionId, agentId: null, startedBy: null, subagentTasks: {}, shared: true, ...(project === undefined ? {} : { project }) });

// projectID came with opencode's projects (the first storage migration); the older session/info files lack it.
const isSession = (value: unknown): value is JsonObject => isObject(value) && typeof value['id'] === 'string' && value['id'].startsWith('ses_') && isObject(value['time']);

const isMessage = (value: unknown): value is JsonObject =>
  isObject(value) && typeof value['id'] === 'string' && value['id'].startsWith('msg_') && typeof value['sessionID'] === 'string' && (value['role'] === 'user' || value['role'] === 'assistant');

export const opencodeStorageImporter: TranscriptImporter = {
  id: OPENCODE_FORMAT,
  matchesName: (fileName) => opencodeKind(fileName) !== null,
  // A message file given under another name: opencode's ids (ses_…, msg_…) and its usage record say it is one.
  matchesRecords: (first) => first.length === 1 && ((isMessage(first[0]!.value) && isObject(first[0]!.value['tokens'])) || (isSession(first[0]!.value) && 'directory' in first[0]!.value)),
  importFile(records: readonly TranscriptRecord[], ctx: TranscriptContext): TranscriptImport {
    const kind = opencodeKind(ctx.fileName) ?? (records.length === 1 && isSession(records[0]!.value) ? 'session' : 'message');
    // Parts hold what the model wrote and the tools returned: no call, no usage.
    if (kind === 'part') return { requests: [], errors: [] };
    const record = records.length === 1 ? records[0]! : null;
    if (record === null) return refused(ctx, 1, `holds ${records.length} records; opencode writes one JSON object per file`);
    // A file cut short (its error already reported) is no record to judge.
    if (record.cut === true) return { requests: [], errors: [] };
    if (kind === 'session') {
      if (!isSession(record.value)) return refused(ctx, record.line, 'is not an opencode session (an object with id "ses_…" and time)');
      return { requests: [], errors: [], session: link(record.value['id'] as string, stringField(record.value, 'projectID') ?? undefined) };
    }
    return messageFile(record, ctx);
  },
};

function refused(ctx: TranscriptContext, line: number, what: string): TranscriptImport {
  return { requests: [], errors: [{ file: ctx.file, line, message: `opencode storage file ${what}` }] };
}

function messageFile(record: TranscriptRecord, ctx: TranscriptContext): TranscriptImport {
  const message = record.value;
  if (!isMessage(message)) return refused(ctx, record.line, 'is not an opencode message (an object with id "msg_…", sessionID and role "user" or "assistant")');
  const session = link(message['sessionID'] as string);
  if (message['role'] === 'user') return { requests: [], errors: [], session };
  const usage = usageOf(message);
  if (typeof usage === 'string') return { ...refused(ctx, record.line, `assistant message: ${usage}`), session };
  // opencode writes the assistant message before the call answers and fills its tokens after: all zeros is a call
  // that failed or was aborted before any usage came (its `error` says which), not a call with no tokens.
  if (usage === null) return { requests: [], errors: [], session };
  const time = isObject(message['time']) ? numberField(message['time'], 'created') : null;
  const request = loggedCallRequest({ model: stringField(message, 'modelID'), prompt: null, tools: null, recorded: usage, line: record.line, timestamp: time }, ctx);
  return { requests: [request], errors: [], session };
}

const count = (value: unknown): number | null => (typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : null);

/** The recorded usage, null when it records none (all zeros), or what is wrong with it. */
function usageOf(message: JsonObject): RecordedUsage | null | string {
  const tokens = message['tokens'];
  if (!isObject(tokens)) return 'no "tokens" object';
  const cache = isObject(tokens['cache']) ? tokens['cache'] : {};
  const fields = { input: tokens['input'], output: tokens['output'], reasoning: tokens['reasoning'] ?? 0, 'cache.read': cache['read'] ?? 0, 'cache.write': cache['write'] ?? 0 };
  for (const [name, value] of Object.entries(fields)) if (count(value) === null) return `tokens.${name} is ${JSON.stringify(value) ?? 'missing'}, not a whole number of tokens`;
  const usage = recorded(fields as Record<keyof typeof fields, number>);
  return usage.input + usage.output + usage.cacheRead + usage.cacheWrite5m === 0 ? null : usage;
}

function recorded(fields: { input: number; output: number; reasoning: number; 'cache.read': number; 'cache.write': number }): RecordedUsage {
  return { input: fields.input, cacheRead: fields['cache.read'], cacheWrite5m: fields['cache.write'], cacheWrite1h: 0, output: fields.output + fields.reasoning };
}

