// conereplay-v1: a recorded ConeReplay trace (EventRecords, reference/log-formats.md §3) → blocks.
// One-way import: it does not replay the run, and does not assert every block was sent to a provider.
import { refuse } from '../codes.ts';
import { isPlainObject, type SourceBlock, type SourceOutcome } from '../types.ts';

const ADAPTER = 'conereplay-v1';
const MAPPING = 'conereplay-events-v1';

function refused(...args: Parameters<typeof refuse>): SourceOutcome {
  return { ok: false, refusal: refuse(...args), adapter: ADAPTER, mapping: MAPPING };
}

/**
 * Events in array order; for each, its `inputs` string then its `outputs` string, each one block (an empty
 * string is a block of 0 bytes). A missing or non-string `inputs`/`outputs` refuses the whole trace with the
 * event index. The other EventRecord fields (ids, kind, hashes, timestamps) are not read.
 */
export function coneReplayEventBlocks(events: unknown): SourceOutcome {
  if (!Array.isArray(events)) return refused('EVENTS_NOT_ARRAY', { field: 'events' });
  const blocks: SourceBlock[] = [];
  for (let e = 0; e < events.length; e++) {
    const event: unknown = events[e];
    if (!isPlainObject(event)) return refused('EVENT_NOT_OBJECT', { field: 'events', eventIndex: e });
    const inputs = event['inputs'];
    if (typeof inputs !== 'string') return refused('EVENT_INPUTS_NOT_STRING', { field: 'inputs', eventIndex: e });
    const outputs = event['outputs'];
    if (typeof outputs !== 'string') return refused('EVENT_OUTPUTS_NOT_STRING', { field: 'outputs', eventIndex: e });
    blocks.push({ text: inputs, origin: { event: e, field: 'inputs' } });
    blocks.push({ text: outputs, origin: { event: e, field: 'outputs' } });
  }
  return { ok: true, source: { adapter: ADAPTER, mapping: MAPPING, blocks, ignoredParts: 0 } };
}

/** The adapter envelope form: `{"adapter":"conereplay-v1","trace":{"events":[...]}}`. */
export function coneReplayBlocks(envelope: Record<string, unknown>): SourceOutcome {
  const trace = envelope['trace'];
  if (!isPlainObject(trace)) return refused('TRACE_NOT_OBJECT', { field: 'trace' });
  return coneReplayEventBlocks(trace['events']);
}
