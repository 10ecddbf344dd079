// Checks between a request and the one it is compared with (conversations.ts): setup changes (volatile values,
// reordered tools, key-order drift), a model change, breakpoints that all sit after the first change.
import type { ParsedRequest, Segment } from '../../model.ts';
import { setupSegmentIndices, type ConversationLink } from '../conversations.ts';
import { canonicalJson, normalizeVolatile } from '../normalize.ts';
import { comparePrefix, prefixTokensThrough } from '../prefix.ts';
import { formatCount } from '../../text/format.ts';
import type { FindingGroups } from './groups.ts';
import type { FindingsInput } from './types.ts';

/** A request (`newer`, index `r`) and the one it is compared with (`older`, index `compared`), and how they link. */
export interface RequestPair {
  older: ParsedRequest;
  newer: ParsedRequest;
  r: number;
  compared: number;
  link: ConversationLink;
}

/** True when the two sides differ in some way the rules below recognize (and report). */
export type Explained = boolean;

/**
 * canonicalJson and normalizeVolatile of each distinct wire, once per findFindings call: a system prompt that
 * changes every request (the case these rules exist for) would otherwise be parsed, re-serialized and scanned by
 * three regexes twice per request, which showed as the top regex in profiles of the flagship example.
 */
export class NormalizedWires {
  private readonly canonical = new Map<string, string>();
  private readonly volatileFree = new Map<string, string>();

  canonicalOf(wire: string): string {
    let known = this.canonical.get(wire);
    if (known === undefined) {
      known = canonicalJson(wire);
      this.canonical.set(wire, known);
    }
    return known;
  }

  /** normalizeVolatile(canonicalOf(wire)). */
  withoutVolatileValues(wire: string): string {
    let known = this.volatileFree.get(wire);
    if (known === undefined) {
      known = normalizeVolatile(this.canonicalOf(wire));
      this.volatileFree.set(wire, known);
    }
    return known;
  }
}

/**
 * System prompt, instructions and tool definitions compared between a request and the one it is compared with:
 * volatile values, a reordered tool list, schema key order drift. Returns whether a difference was explained.
 */
export function checkSetupChanges(groups: FindingGroups, pair: RequestPair, normalized: NormalizedWires): Explained {
  const { older, newer, r } = pair;
  let explained = false;
  const olderByPath = new Map<string, Segment>();
  for (const index of setupSegmentIndices(older)) {
    const segment = older.segments[index]!;
    if (segment.category !== 'tools') olderByPath.set(segment.path, segment);
  }
  const olderTools = older.segments.filter((s) => s.category === 'tools');
  const newerTools = newer.segments.filter((s) => s.category === 'tools');
  const olderToolByName = new Map(olderTools.map((s) => [s.toolName ?? s.path, s]));

  for (const index of setupSegmentIndices(newer)) {
    const segment = newer.segments[index]!;
    const before =
      segment.category === 'tools' ? olderToolByName.get(segment.toolName ?? segment.path) : olderByPath.get(segment.path);
    if (before === undefined || before.wire === segment.wire) continue;
    if (normalized.canonicalOf(before.wire) === normalized.canonicalOf(segment.wire)) {
      if (segment.category !== 'tools') continue;
      explained = true;
      groups.add({
        code: 'tool_schema_key_order',
        key: segment.path,
        request: r,
        segmentPath: segment.path,
        detail: segment.toolName,
        render: (when) => ({
          message: `Tool definition ${segment.path} serializes its keys in a different order than the request it follows (${when}); the cache compares bytes, so tools, system and messages all miss.`,
          fix: 'Serialize tool schemas with a stable key order (build them once, or sort keys) so the bytes never change between requests.',
        }),
      });
    } else if (normalized.withoutVolatileValues(before.wire) === normalized.withoutVolatileValues(segment.wire)) {
      explained = true;
      const where = segment.category === 'tools' ? 'A tool definition' : 'The system prompt';
      const model = newer.model ?? '';
      groups.add({
        code: 'volatile_value_in_prefix',
        key: segment.path,
        request: r,
        segmentPath: segment.path,
        detail: null,
        render: (when) => ({
          message: `${where} (${segment.path}) contains a value that changes every request: a timestamp, UUID or epoch number (${when}). Everything after it misses the cache.`,
          fix: volatileFix(newer, model),
        }),
      });
    }
  }

  const reorder = toolReorder(olderTools, newerTools);
  if (reorder !== null) {
    explained = true;
    const positions = reorder.first === reorder.last ? `position ${reorder.first + 1}` : `positions ${reorder.first + 1}–${reorder.last + 1}`;
    groups.add({
      code: 'tools_reordered',
      key: positions,
      request: r,
      segmentPath: newerTools[reorder.first]?.path ?? null,
      detail: `[${reorder.before.join(', ')}] → [${reorder.after.join(', ')}]`,
      render: (when) => ({
        message: `Tools reordered at ${positions} of the tool list (${when}): the same tools in another order are a different prefix, so nothing after them is read from the cache.`,
        fix: 'Send the tool list in a deterministic order (e.g. sorted by name), not the iteration order of a map or set.',
      }),
    });
  }
  return explained;
}

/** The smallest window where two tool lists with the same names differ in order, or null. */
function toolReorder(
  older: readonly Segment[],
  newer: readonly Segment[],
): { first: number; last: number; before: string[]; after: string[] } | null {
  if (older.length !== newer.length || older.length < 2) return null;
  const namesBefore = older.map((s) => s.toolName ?? s.path);
  const namesAfter = newer.map((s) => s.toolName ?? s.path);
  // Same order (the usual case) is answered before sorting and joining both lists.
  let first = 0;
  while (first < namesBefore.length && namesBefore[first] === namesAfter[first]) first++;
  if (first === namesBefore.length) return null;
  if ([...namesBefore].sort().join('\u0000') !== [...namesAfter].sort().join('\u0000')) return null;
  let last = namesBefore.length - 1;
  while (namesBefore[last] === namesAfter[last]) last--;
  return { first, last, before: namesBefore.slice(first, last + 1), after: namesAfter.slice(first, last + 1) };
}

/** Models that keep the cache valid when a change moves into a `{"role":"system"}` message inside messages. */
const MID_CONVERSATION_SYSTEM_MODELS = [
  /^claude-opus-4-8/,
  /^claude-opus-5(?!\d)/,
  /^claude-fable-5/,
  /^claude-mythos-5/,
];

function acceptsMidConversationSystem(model: string): boolean {
  const id = model.replace(/^(?:us|eu|apac|global)\./, '').replace(/^anthropic\./, '');
  return MID_CONVERSATION_SYSTEM_MODELS.some((pattern) => pattern.test(id));
}

function volatileFix(request: ParsedRequest, model: string): string {
  const base =
    'Keep the prefix byte-identical: drop the value, round it (e.g. to the day), or move it after the last cache breakpoint';
  if (request.format !== 'anthropic-messages') return `${base}, e.g. into the latest user message.`;
  if (acceptsMidConversationSystem(model)) {
    return `${base}: on ${model} a {"role":"system"} message at the end of messages carries it without invalidating the cache.`;
  }
  return `${base}, e.g. into the latest user message (${model || 'this model'} does not keep the cache across a mid-conversation system message).`;
}

/**
 * A request on another model than the request it is compared with. Caches are per model (the simulation's
 * `cacheScope`: the priced id, so a dated snapshot and its alias are one model). Within a conversation that is
 * always a loss; between two conversations sharing a setup, only when the shared prefix was large enough to be
 * cached and this request did not read it.
 */
export function checkModelChange(groups: FindingGroups, input: FindingsInput, pair: RequestPair): void {
  const { older, newer, r, compared, link } = pair;
  if (older.model === null || newer.model === null) return;
  const simulated = input.costs.actual.simulation.requests;
  const olderScope = simulated[compared]?.cacheScope ?? older.model;
  const newerScope = simulated[r]?.cacheScope ?? newer.model;
  if (olderScope === newerScope) return;
  if (link === 'same-setup' && !lostSharedPrefix(input, older, newer, r)) return;
  const from = older.model;
  const to = newer.model;
  const where = link === 'same-setup' ? 'between conversations that share a setup' : 'mid-conversation';
  const lost = link === 'same-setup' ? 'the shared setup is re-sent uncached' : 'the whole prompt is re-sent uncached';
  groups.add({
    code: 'model_changed',
    key: `${from}\u0000${to}`,
    request: r,
    segmentPath: null,
    detail: null,
    render: (when) => ({
      message: `Model changed ${where} from ${from} to ${to} (${when}, first after request ${compared + 1}); caches are per model, so ${lost}.`,
      fix: 'Keep a conversation on one model; send side tasks (titles, summaries, classification) as separate short requests instead of switching the conversation.',
    }),
  });
}

/** Whether the prefix two requests share was cacheable on the newer request's model and it read less than that. */
function lostSharedPrefix(input: FindingsInput, older: ParsedRequest, newer: ParsedRequest, r: number): boolean {
  const common = comparePrefix(older.segments, newer.segments).commonSegments;
  if (common === 0) return false;
  const shared = prefixTokensThrough(input, r, common);
  const minimum = input.pricingOf(r)?.minCacheableTokens ?? 1024;
  return shared >= minimum && (input.costs.actual.simulation.requests[r]?.read ?? 0) < shared;
}

/**
 * A request whose breakpoints all sit after the first block that changed since the request it continues: the
 * unchanged prefix before the change is never written where this request could read it. Skipped when the change
 * is already explained by a volatile value, a reorder or key-order drift (those findings carry the fix).
 */
export function checkBreakpointBeforeChange(
  groups: FindingGroups,
  input: FindingsInput,
  pair: RequestPair,
  explained: Explained,
): void {
  const { older, newer, r, compared } = pair;
  if (explained || newer.format !== 'anthropic-messages') return;
  const simulated = input.costs.actual.simulation.requests[r];
  if (simulated === undefined || simulated.hit || simulated.rejected || simulated.breakpoints.length === 0) return;
  const { firstChange } = comparePrefix(older.segments, newer.segments);
  if (firstChange === null || firstChange === 0 || firstChange >= newer.segments.length) return;
  if (simulated.breakpoints.some((bp) => bp.segment < firstChange)) return;
  const stableTokens = prefixTokensThrough(input, r, firstChange);
  const minimum = input.pricingOf(r)?.minCacheableTokens ?? 0;
  if (stableTokens < minimum) return;
  const changed = newer.segments[firstChange]!;
  const stable = newer.segments[firstChange - 1]!;
  groups.add({
    code: 'breakpoint_before_change',
    key: changed.path,
    request: r,
    segmentPath: changed.path,
    detail: null,
    render: (when) => ({
      message: `Every cache breakpoint sits after ${changed.path}, which differs from the request it follows (${when}, first after request ${compared + 1}); the ≈${formatCount(stableTokens)} unchanged tokens before it are never read.`,
      fix: `Add a cache_control breakpoint on ${stable.path}, the last block that stays the same, or move the changing block after the breakpoint.`,
    }),
  });
}
