// A folder of agent sessions, read one session at a time: which files are one session, the sums kept of each, and
// the record they give.
export { claudeCodeSessionId, isFlatAgentFile, sessionGroups } from './groups.ts';
export { addSession, emptyFolder, folderSummary, mergeFolder, type FindingCount, type FolderAnalysis, type MissCauseTotals } from './accumulate.ts';
export { folderRecord } from './record.ts';
export { foldSession, type FoldedSession, type SessionOptions } from './session.ts';
export { foldSessionApart, SessionOrder, type SessionApart, type SessionFiles } from './apart.ts';
