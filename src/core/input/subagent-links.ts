// Subagents linked to the Task calls that started them, once a read's files are summarized (a module of its own so
// the folder's usage pass links them without loading the whole reader).
import type { SessionLink } from '../formats/types.ts';

/** A subagent's link to the Task call that started it, from its parent session's file read beside it. */
export function linkSubagents(summaries: readonly { session?: SessionLink | undefined }[]): void {
  const tasksBySession = new Map<string, Record<string, string>>();
  for (const summary of summaries) {
    const link = summary.session;
    if (link && link.agentId === null && link.sessionId !== null) tasksBySession.set(link.sessionId, link.subagentTasks);
  }
  for (const summary of summaries) {
    const link = summary.session;
    if (!link || link.agentId === null || link.sessionId === null) continue;
    link.startedBy = tasksBySession.get(link.sessionId)?.[link.agentId] ?? null;
  }
}
