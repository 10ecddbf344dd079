// Generic access to a text-free analysis section (`cache`, `findings`, ...) by name, for panels that only display it.
import { QueryError, quoteName, requireSession, type WorkerSession } from '../session.ts';

export function sectionOf(session: WorkerSession | null, params: unknown): unknown {
  const { sections } = requireSession(session);
  const name = typeof params === 'object' && params !== null ? (params as { name?: unknown }).name : undefined;
  if (typeof name !== 'string') throw new QueryError('section needs a string `name` param.');
  if (!Object.hasOwn(sections, name)) throw new QueryError(`The analysis has no ${quoteName(name)} section.`);
  return sections[name];
}
