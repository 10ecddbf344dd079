// Fuzz target for the worker protocol (src/worker/dispatch.ts): batches of malformed and hostile messages, sent
// the way the page sends them (concurrently, ids reused, cancels in between), to a worker with or without an
// analyzed input. Every request gets exactly one reply, a failure is located and never an internal error (an
// exception a handler did not turn into a refusal), and nothing hangs.
import fc from 'fast-check';
import { createDispatcher, UNADDRESSED } from '../../src/worker/dispatch.ts';
import { QUERY_HANDLERS } from '../../src/worker/handlers.ts';
import { isFromWorker, type FromWorker } from '../../src/worker/protocol.ts';
import type { FuzzTarget } from './targets.ts';
import { hostileJsonValue } from './mutate.ts';

/** The synthetic log the worker analyzes first: two requests of one conversation, the second with a broken prefix. */
const LOG = [
  { model: 'claude-sonnet-4-5', system: 'synthetic system', messages: [{ role: 'user', content: [{ type: 'text', text: 'synthetic a' }, { type: 'text', text: 'synthetic b' }] }] },
  { model: 'claude-sonnet-4-5', system: 'synthetic system', messages: [{ role: 'user', content: [{ type: 'text', text: 'synthetic b' }, { type: 'text', text: 'synthetic a' }] }, { role: 'assistant', content: 'synthetic' }, { role: 'user', content: 'more' }] },
].map((body) => JSON.stringify(body)).join('\n') + '\n';
const REQUESTS = 2;

/** Longest a batch may go without every reply (a hang, or a reply that never comes). */
const REPLY_BUDGET_MS = 4_000;
const MAX_MESSAGE = 600;

const hostileNumber = fc.constantFrom(-1, -0, 0.5, 1, REQUESTS, REQUESTS + 1, 2 ** 31, 2 ** 53, 2 ** 60, 1e308, -1e308, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY);
const hostileValue = fc.oneof(hostileNumber, hostileJsonValue, fc.constant(null).map(() => new Blob(['synthetic'])), fc.constant(undefined));
const blob = fc.oneof(
  fc.constant(null).map(() => new Blob([LOG])),
  fc.string({ maxLength: 60 }).map((text) => new Blob([text])),
  fc.uint8Array({ maxLength: 60 }).map((bytes) => new Blob([bytes])),
);
const file = fc.record({ name: fc.oneof(fc.constantFrom('log.jsonl', 'log.jsonl.gz', 'sidecar.sqlite', 'routes.json', ''), fc.string({ maxLength: 20 })), blob });
/** Param objects made of the keys the handlers read, each with a valid-looking or hostile value. */
const params = fc.oneof(
  hostileValue,
  fc.dictionary(
    fc.constantFrom('request', 'segment', 'around', 'window', 'rows', 'name', 'calibrate', 'file', 'files', 'journals', 'sidecar', 'siblingNames', 'retrievalRate', '__proto__'),
    fc.oneof(hostileValue, fc.nat({ max: 3 }), fc.constantFrom('cache', 'findings', 'conversations', '__proto__', 'toString'), file, fc.array(file, { maxLength: 2 })),
    { maxKeys: 4 },
  ),
);
const queryName = fc.oneof(fc.constantFrom(...Object.keys(QUERY_HANDLERS)), fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty', ''), fc.string({ maxLength: 12 }));
const id = fc.oneof({ weight: 6, arbitrary: fc.nat({ max: 5 }) }, { weight: 1, arbitrary: hostileValue });
const message = fc.oneof(
  { weight: 5, arbitrary: fc.record({ type: fc.constant('query'), id, name: queryName, params }) },
  {
    weight: 2,
    arbitrary: fc.record({
      type: fc.constantFrom('analyze', 'analyze-folder'),
      id,
      inputs: fc.oneof(fc.array(file, { maxLength: 2 }), hostileValue),
      options: fc.oneof(fc.record({ format: fc.constantFrom(undefined, 'auto', 'anthropic-messages', 'openai-chat', 'bogus', 7), model: fc.constantFrom(undefined, 'gpt-4o', 'synthetic-model', 3) }), hostileValue),
    }),
  },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('cancel'), id }) },
  { weight: 1, arbitrary: fc.record({ type: hostileValue, id, name: queryName }) },
  { weight: 1, arbitrary: hostileValue },
);

interface Sent {
  /** Id the reply must carry, or null for a cancel (no reply of its own). */
  replyId: number | null;
}

/** What reply a message must get: a cancel none, a message without a usable id one refusal that names no request. */
function expectedReply(sent: unknown): Sent {
  if (typeof sent !== 'object' || sent === null || Array.isArray(sent)) return { replyId: UNADDRESSED };
  const { id, type } = sent as { id?: unknown; type?: unknown };
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 0) return { replyId: UNADDRESSED };
  return { replyId: type === 'cancel' ? null : id };
}

function replyViolation(reply: FromWorker): string | null {
  if (!isFromWorker(reply)) return 'a reply that is not a protocol message';
  try {
    structuredClone(reply);
  } catch {
    return `a ${reply.type} reply that cannot cross to the page (not structured-cloneable)`;
  }
  if (reply.type !== 'failed') return null;
  const { kind, message } = reply.error;
  if (kind === 'internal') return `an internal error instead of a refusal: ${message.slice(0, 200)}`;
  if (!['cancelled', 'input', 'no-analysis', 'unknown-query', 'protocol'].includes(kind)) return `failure kind ${String(kind)}`;
  if (typeof message !== 'string' || message.trim() === '') return 'a failure without a message';
  if (message.length > MAX_MESSAGE) return `a failure message of ${message.length} characters (quoting the input?)`;
  return null;
}

export function workerTargets(): FuzzTarget[] {
  return [
    {
      name: 'worker:protocol',
      weight: 2,
      arbitrary: fc.tuple(fc.boolean(), fc.array(message, { minLength: 1, maxLength: 5 })),
      async run(input) {
        const [analyzed, batch] = input as [boolean, unknown[]];
        const replies: FromWorker[] = [];
        const dispatch = createDispatcher((reply) => replies.push(reply));
        if (analyzed) {
          await dispatch({ type: 'analyze', id: 100, inputs: [{ name: 'log.jsonl', blob: new Blob([LOG]) }], options: {} });
          if (replies.at(-1)?.type !== 'analyzed') return 'the synthetic log was not analyzed';
          replies.length = 0;
        }
        // All at once, as the page does: a request may run while the next one arrives.
        let timer: ReturnType<typeof setTimeout> | undefined;
        const timeout = new Promise<'hang'>((resolve) => (timer = setTimeout(() => resolve('hang'), REPLY_BUDGET_MS)));
        const settled = await Promise.race([Promise.allSettled(batch.map((sent) => dispatch(sent))), timeout]);
        clearTimeout(timer);
        if (settled === 'hang') return `no reply within ${REPLY_BUDGET_MS} ms`;
        const thrown = settled.find((result) => result.status === 'rejected');
        if (thrown) return `the message handler threw: ${String((thrown as PromiseRejectedResult).reason).slice(0, 200)}`;
        for (const reply of replies) {
          const problem = replyViolation(reply);
          if (problem) return problem;
        }
        // Exactly one final reply per request (progress aside); a cancelled one still answers (with kind cancelled).
        const expected = new Map<number, number>();
        for (const sent of batch) {
          const { replyId } = expectedReply(sent);
          if (replyId !== null) expected.set(replyId, (expected.get(replyId) ?? 0) + 1);
        }
        const got = new Map<number, number>();
        for (const reply of replies) if (reply.type !== 'progress') got.set(reply.id, (got.get(reply.id) ?? 0) + 1);
        for (const [replyId, count] of expected) {
          if ((got.get(replyId) ?? 0) !== count) return `${count} request(s) with id ${replyId}, ${got.get(replyId) ?? 0} final reply(ies)`;
        }
        for (const replyId of got.keys()) if (!expected.has(replyId)) return `a reply to id ${replyId}, which no message carried`;
        return null;
      },
    },
  ];
}
