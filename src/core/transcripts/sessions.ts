// Sessions of a folder of agent logs (`ctxray analyze ~/.claude/projects`): one row per session, with what the
// provider recorded for its requests, what that cost, its hit rate, and — with the cache analysis' misses — what
// the misses cost. A session is an input file with requests; a Claude Code subagent's transcript is counted in the
// row of the session that started it (same session id), never in a row of its own; a Cline task's two files give
// one row (its requests are on the file read second). Rows carry the file's path relative to the folder given,
// never an absolute path, and the project: the first folder of that path (a Claude Code project slug, a Gemini CLI
// project hash), or "" for a file at the top.
import { recordedPromptTokens } from '../model.ts';
import type { AnalysisFile } from '../analysis/types.ts';
import { priceRecorded, type PricedRequest } from '../cache/cost.ts';
import type { ModelPricing } from '../pricing/types.ts';
import { isoTime, utcDay } from './time.ts';

export interface RecordedSums {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite5m: number;
  cacheWrite1h: number;
}

export interface MissSums {
  count: number;
  /** Prompt tokens written again or sent uncached that hits would have read. */
  tokens: number;
  /** USD those misses cost over hits (priced misses only). */
  cost: number;
}

export interface SessionRow {
  /** Path relative to the folder given (or the file's name); the file of the main session. */
  file: string;
  /** The importer that read it (claude-code, codex-rollout, gemini-cli, cline-task, pi-session) or the wire format. */
  agent: string;
  project: string;
  /** ISO times of its first and last timestamped request, or null. */
  start: string | null;
  end: string | null;
  /** Requests of the session, its subagents' included. */
  requests: number;
  /** Subagent transcripts counted in this row, and their requests. */
  subagents: { files: number; requests: number };
  /** Requests whose usage the log recorded (the sums below are over those). */
  recordedRequests: number;
  recorded: RecordedSums;
  /** USD of the recorded usage at the models' prices; requests on an unpriced model add nothing. */
  cost: number;
  unpricedRequests: number;
  /** cacheRead ÷ (input + cacheRead + cache writes) over the recorded requests; null when nothing was recorded. */
  hitRate: number | null;
  /** Cache misses of its requests, when the analysis has them. */
  misses: MissSums | null;
}

export interface GroupRow {
  /** The project, or the UTC day (YYYY-MM-DD, null for requests without a time). */
  key: string | null;
  sessions: number;
  requests: number;
  recorded: RecordedSums;
  cost: number;
  hitRate: number | null;
  misses: MissSums | null;
}

/** What the tables read of an analysis: a full Analysis, or a folder's usage pass (src/core/folder/usage-pass.ts). */
export interface SessionSource {
  files: readonly Pick<AnalysisFile, 'name' | 'format' | 'folderPath' | 'session' | 'requests'>[];
  requests: readonly (PricedRequest & { file: number })[];
  models: readonly { pricing: ModelPricing | null }[];
}

export interface SessionTable {
  sessions: SessionRow[];
  projects: GroupRow[];
  days: GroupRow[];
}

/** Per request: its miss tokens and cost, when the cache analysis has a miss analysis. */
export type MissOf = (request: number) => { tokens: number; cost: number | null } | null;

export const emptySums = (): RecordedSums => ({ input: 0, output: 0, cacheRead: 0, cacheWrite5m: 0, cacheWrite1h: 0 });

export function hitRate(sums: RecordedSums): number | null {
  const prompt = recordedPromptTokens(sums);
  return prompt === 0 ? null : sums.cacheRead / prompt;
}

export function addSums(into: RecordedSums, from: RecordedSums): void {
  into.input += from.input;
  into.output += from.output;
  into.cacheRead += from.cacheRead;
  into.cacheWrite5m += from.cacheWrite5m;
  into.cacheWrite1h += from.cacheWrite1h;
}

/** The path inside the folder given; without one (a file given alone, the library), the name's last part only. */
const nameOf = (file: SessionSource['files'][number]): string => file.folderPath ?? file.name.split(/[\\/]/).pop() ?? file.name;

export function projectOf(folderPath: string): string {
  const parts = folderPath.split('/').filter((part) => part !== '' && part !== '.');
  return parts.length > 1 ? parts[0]! : '';
}

/** Which row each file's requests go to: its own, (a subagent) its parent session's file, or (a piece of a session kept in many files) the session's first. */
function rowFiles(files: SessionSource['files']): number[] {
  const mainBySession = new Map<string, number>();
  const firstPiece = new Map<string, number>();
  files.forEach((file, i) => {
    const link = file.session;
    if (link?.shared === true && link.sessionId !== null && !firstPiece.has(`${file.format}\u0000${link.sessionId}`)) firstPiece.set(`${file.format}\u0000${link.sessionId}`, i);
    if (link && link.agentId === null && link.sessionId !== null && file.requests > 0 && !mainBySession.has(`${file.format}\u0000${link.sessionId}`)) {
      mainBySession.set(`${file.format}\u0000${link.sessionId}`, i);
    }
  });
  return files.map((file, i) => {
    const link = file.session;
    if (link?.shared === true && link.sessionId !== null) return firstPiece.get(`${file.format}\u0000${link.sessionId}`) ?? i;
    if (!link || link.agentId === null || link.sessionId === null) return i;
    return mainBySession.get(`${file.format}\u0000${link.sessionId}`) ?? i;
  });
}

/**
 * One session's share of the tables: its row, and its figures per UTC day it has requests on (a session can
 * span midnight). Parts of sessions analysed one at a time (a folder, in bounded memory) give the same table as
 * one analysis of all of them (`sessionTableOf`).
 */
export interface SessionPart {
  row: SessionRow;
  /** Per UTC day (key YYYY-MM-DD, null for requests without a time), `sessions` 1. */
  days: GroupRow[];
  /** Per UTC day and model the request named: the folder charts' stacks (src/core/transcripts/daily.ts). */
  dayModels: DayModelRow[];
}

/** One session's requests on one UTC day to one model. */
export interface DayModelRow {
  day: string | null;
  model: string | null;
  requests: number;
  recorded: RecordedSums;
  cost: number;
  /** Requests whose recorded usage is on a model without a price (in no cost). */
  unpricedRequests: number;
  misses: MissSums | null;
}

type OpenRow = SessionRow & {
  first: number | null;
  last: number | null;
  subagentFiles: Set<number>;
  days: Map<string | null, GroupRow>;
  dayModels: Map<string, DayModelRow>;
};

const emptyGroup = (key: string | null, withMisses: boolean): GroupRow => ({
  key,
  sessions: 1,
  requests: 0,
  recorded: emptySums(),
  cost: 0,
  hitRate: null,
  misses: withMisses ? { count: 0, tokens: 0, cost: 0 } : null,
});

/** The parts of an analysis' sessions, in the order their first request comes. */
export function sessionParts(analysis: SessionSource, missOf: MissOf | null): SessionPart[] {
  const owner = rowFiles(analysis.files);
  // A file counted in another file's row is a subagent's, unless it is a piece of that session (opencode).
  const subagent = analysis.files.map((file, i) => owner[i] !== i && file.session?.shared !== true);
  const rows = new Map<number, OpenRow>();
  analysis.requests.forEach((request, r) => {
    const fileIndex = owner[request.file] ?? request.file;
    const file = analysis.files[fileIndex];
    if (file === undefined) return;
    let row = rows.get(fileIndex);
    if (row === undefined) {
      row = openRow(file, missOf !== null);
      rows.set(fileIndex, row);
    }
    if (subagent[request.file] === true) {
      row.subagents.requests++;
      row.subagentFiles.add(request.file);
    }
    const time = request.timestamp;
    if (time !== null) {
      row.first = row.first === null ? time : Math.min(row.first, time);
      row.last = row.last === null ? time : Math.max(row.last, time);
    }
    const figures = emptySums();
    let cost = 0;
    let priced = true;
    if (request.recorded !== null) {
      const usage = request.recorded;
      figures.input = usage.input;
      figures.output = usage.output;
      figures.cacheRead = usage.cacheRead;
      figures.cacheWrite5m = usage.cacheWrite5m;
      figures.cacheWrite1h = usage.cacheWrite1h;
      row.recordedRequests++;
      const total = priceRecorded(request, analysis.models[r]?.pricing ?? null)?.total ?? null;
      if (total === null) priced = false;
      else cost = total;
    }
    if (!priced) row.unpricedRequests++;
    const dayKey = utcDay(time);
    const day = dayOf(row, dayKey, missOf !== null);
    const dayModel = dayModelOf(row, dayKey, request.model, missOf !== null);
    if (!priced) dayModel.unpricedRequests++;
    const miss = missOf?.(r) ?? null;
    const added: AddedRequest = { figures, cost, miss };
    for (const target of [row, day, dayModel]) addRequest(target, added);
  });
  return [...rows.values()].map(({ first, last, subagentFiles, days, dayModels, ...row }) => ({
    row: { ...row, start: isoTime(first), end: isoTime(last), subagents: { files: subagentFiles.size, requests: row.subagents.requests }, hitRate: hitRate(row.recorded) },
    days: [...days.values()].map((day) => ({ ...day, hitRate: hitRate(day.recorded) })),
    dayModels: [...dayModels.values()],
  }));
}

/** A session's row before its first request is added. */
function openRow(file: SessionSource['files'][number], withMisses: boolean): OpenRow {
  const name = nameOf(file);
  return {
    file: name,
    agent: file.format ?? 'unknown',
    project: file.session?.project ?? projectOf(name),
    start: null,
    end: null,
    requests: 0,
    subagents: { files: 0, requests: 0 },
    recordedRequests: 0,
    recorded: emptySums(),
    cost: 0,
    unpricedRequests: 0,
    hitRate: null,
    misses: withMisses ? { count: 0, tokens: 0, cost: 0 } : null,
    first: null,
    last: null,
    subagentFiles: new Set(),
    days: new Map(),
    dayModels: new Map(),
  };
}

function dayOf(row: OpenRow, dayKey: string | null, withMisses: boolean): GroupRow {
  let day = row.days.get(dayKey);
  if (day === undefined) {
    day = emptyGroup(dayKey, withMisses);
    row.days.set(dayKey, day);
  }
  return day;
}

function dayModelOf(row: OpenRow, dayKey: string | null, model: string | null, withMisses: boolean): DayModelRow {
  // \u0001 stands for null, which no day key nor model id is.
  const modelKey = `${dayKey ?? '\u0001'}\u0000${model ?? '\u0001'}`;
  let dayModel = row.dayModels.get(modelKey);
  if (dayModel === undefined) {
    const { key: _key, sessions: _sessions, hitRate: _hitRate, ...sums } = emptyGroup(dayKey, withMisses);
    dayModel = { day: dayKey, model, ...sums, unpricedRequests: 0 };
    row.dayModels.set(modelKey, dayModel);
  }
  return dayModel;
}

/** One request's recorded figures, cost and cache miss. */
interface AddedRequest {
  figures: RecordedSums;
  cost: number;
  miss: ReturnType<MissOf>;
}

/** Adds a request to a session, day or day-and-model row. */
function addRequest(target: Pick<GroupRow, 'requests' | 'recorded' | 'cost' | 'misses'>, request: AddedRequest): void {
  const { figures, cost, miss } = request;
  target.requests++;
  addSums(target.recorded, figures);
  target.cost += cost;
  if (miss !== null && target.misses !== null) {
    target.misses.count++;
    target.misses.tokens += miss.tokens;
    target.misses.cost += miss.cost ?? 0;
  }
}

function addGroup(into: GroupRow, from: SessionRow | GroupRow): void {
  into.requests += from.requests;
  addSums(into.recorded, from.recorded);
  into.cost += from.cost;
  if (into.misses !== null && from.misses !== null) {
    into.misses.count += from.misses.count;
    into.misses.tokens += from.misses.tokens;
    into.misses.cost += from.misses.cost;
  }
}

/** The tables of sessions: rows the costliest first, projects likewise, days in date order (no time last). */
export function sessionTableOf(parts: readonly SessionPart[]): SessionTable {
  const projects = new Map<string | null, GroupRow>();
  const days = new Map<string | null, GroupRow>();
  const group = (map: Map<string | null, GroupRow>, key: string | null, withMisses: boolean): GroupRow => {
    let row = map.get(key);
    if (row === undefined) {
      row = { ...emptyGroup(key, withMisses), sessions: 0 };
      map.set(key, row);
    }
    return row;
  };
  for (const { row, days: rowDays } of parts) {
    const project = group(projects, row.project, row.misses !== null);
    project.sessions++;
    addGroup(project, row);
    for (const day of rowDays) {
      const target = group(days, day.key, day.misses !== null);
      target.sessions++;
      addGroup(target, day);
    }
  }
  const finish = (map: Map<string | null, GroupRow>): GroupRow[] => [...map.values()].map((row) => ({ ...row, hitRate: hitRate(row.recorded) }));
  const byCost = <T extends { cost: number }>(a: T, b: T) => b.cost - a.cost;
  const dayOrder = (a: GroupRow, b: GroupRow) => (a.key === b.key ? 0 : a.key === null ? 1 : b.key === null ? -1 : a.key < b.key ? -1 : 1);
  return {
    sessions: parts.map((part) => part.row).sort(byCost),
    projects: finish(projects).sort(byCost),
    days: finish(days).sort(dayOrder),
  };
}

export function sessionTable(analysis: SessionSource, missOf: MissOf | null): SessionTable {
  return sessionTableOf(sessionParts(analysis, missOf));
}
