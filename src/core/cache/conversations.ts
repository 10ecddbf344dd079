// Which earlier request each request continues. A log is rarely one conversation: a proxy capture interleaves an
// agent's main loop with side requests, a gateway log interleaves every user. Matching is by content only, so a
// conversation reads the same whether it is alone in the file or interleaved with others.
import type { ParsedRequest, Segment } from '../model.ts';
import { WireMemo } from '../text/wire-memo.ts';
import { optimizedWire } from './normalize.ts';

/**
 * How a request relates to the request it is compared with:
 * - `continues`: it starts with all of that request's messages, in order (the next turn of a loop, or a retry).
 * - `edited`: it re-sends at least half of a recent request's messages (sliding window, trimmed tool result).
 * - `same-setup`: a new conversation, compared with the earlier request sharing the most tools and system prompt.
 * - `new`: a new conversation with nothing to compare it with.
 */
export type ConversationLink = 'continues' | 'edited' | 'same-setup' | 'new';

export interface Conversations {
  /** Conversation number of each request, 0-based in order of first appearance. */
  conversationOf: number[];
  /** The request each request is compared with (null for `new`). For `same-setup` it is in another conversation. */
  continues: (number | null)[];
  kind: ConversationLink[];
  /** Number of conversations. */
  count: number;
}

export interface ConversationOptions {
  /**
   * How many most recently active conversations a request with an edited history is compared against. Bounds the
   * work per request; the conversation of the deepest prefix match is always among the candidates.
   */
  recentConversations?: number;
}

const DEFAULT_RECENT_CONVERSATIONS = 32;
/** Most recently used setups remembered per setup item (tool definition, system block). */
const SETUPS_PER_ITEM = 64;

/** A trie node over message identities; `lastRequest` is the latest request whose messages end exactly here. */
interface TrieNode {
  children: Map<number, TrieNode>;
  lastRequest: number;
}

const newNode = (): TrieNode => ({ children: new Map(), lastRequest: -1 });

/** How far a request's message path runs in the trie: the node reached, its depth, and the deepest request ending on it. */
interface PathWalk {
  node: TrieNode;
  depth: number;
  /** The latest request whose messages end at the deepest such node on the path, or -1; and that depth. */
  match: number;
  matchDepth: number;
}

function walkPath(root: TrieNode, ids: Int32Array): PathWalk {
  const walk: PathWalk = { node: root, depth: 0, match: -1, matchDepth: 0 };
  for (; walk.depth < ids.length; walk.depth++) {
    const child = walk.node.children.get(ids[walk.depth]!);
    if (child === undefined) break;
    walk.node = child;
    if (child.lastRequest >= 0) {
      walk.match = child.lastRequest;
      walk.matchDepth = walk.depth + 1;
    }
  }
  return walk;
}

/** Adds the rest of the path after where the walk stopped; returns the node the whole path ends at. */
function extendPath(walk: PathWalk, ids: Int32Array): TrieNode {
  let node = walk.node;
  for (let depth = walk.depth; depth < ids.length; depth++) {
    const id = ids[depth]!;
    let child = node.children.get(id);
    if (child === undefined) {
      child = newNode();
      node.children.set(id, child);
    }
    node = child;
  }
  return node;
}

export function findConversations(
  requests: readonly ParsedRequest[],
  options: ConversationOptions = {},
): Conversations {
  const recentLimit = Math.max(1, options.recentConversations ?? DEFAULT_RECENT_CONVERSATIONS);
  const messages = new MessageIdentities();
  const setups = new SetupIndex();
  const root = newNode();

  const conversationOf: number[] = [];
  const continues: (number | null)[] = [];
  const kind: ConversationLink[] = [];
  // Per conversation: its latest request. Message ids are kept for tips only, so memory follows conversations.
  const tipOf: number[] = [];
  const tipMessages = new Map<number, Int32Array>();
  const recency = new RecencyList();

  for (let r = 0; r < requests.length; r++) {
    const request = requests[r]!;
    const ids = messages.idsOf(request);
    // What rule 2 counts: the conversation's own messages, not a leading system/developer message every
    // conversation of the application shares (OpenAI's system prompt is messages[0]).
    const own = ids.subarray(Math.min(ids.length, leadingInstructionCount(request)));

    // Rule 1: the deepest trie node on this request's path where an earlier request ended.
    const walk = walkPath(root, ids);
    const prefixMatch = walk.match;
    const prefixDepth = walk.matchDepth;

    let link: ConversationLink = 'new';
    let compared: number | null = null;
    if (prefixMatch >= 0) {
      link = 'continues';
      compared = prefixMatch;
    }

    // Rule 2, also consulted when the prefix match is a request its conversation already moved past (a shallow
    // match such as the first turn): an edited history that re-sends more messages than that match holds is read
    // as an edit of the recent request, not as a fork from the first turn. A normal next turn skips this.
    const matchIsTip = prefixMatch >= 0 && tipOf[conversationOf[prefixMatch]!] === prefixMatch;
    if (!matchIsTip && own.length > 0) {
      const candidates = recency.latest(recentLimit).map((c) => tipOf[c]!);
      if (prefixMatch >= 0) {
        const tip = tipOf[conversationOf[prefixMatch]!]!;
        if (!candidates.includes(tip)) candidates.push(tip);
      }
      const edited = bestEditedMatch(own, candidates, tipMessages, Math.max(0, prefixDepth - (ids.length - own.length)));
      if (edited !== null) {
        link = 'edited';
        compared = edited;
      }
    }

    let conversation: number;
    if (compared !== null) conversation = conversationOf[compared]!;
    else {
      conversation = tipOf.length;
      const sameSetup = setups.bestMatch(request);
      if (sameSetup !== null) {
        link = 'same-setup';
        compared = sameSetup;
      }
    }

    conversationOf.push(conversation);
    continues.push(compared);
    kind.push(link);
    setups.add(request, r);

    // Record the request: its full message path ends at a trie node, and it becomes its conversation's tip.
    if (ids.length > 0) extendPath(walk, ids).lastRequest = r;
    const previousTip = tipOf[conversation];
    if (previousTip !== undefined) tipMessages.delete(previousTip);
    tipOf[conversation] = r;
    tipMessages.set(r, own);
    recency.touch(conversation);
  }

  return { conversationOf, continues, kind, count: tipOf.length };
}

/**
 * Conversations in order of last activity: a doubly linked list over conversation numbers, so marking one active
 * and reading the few most recent are O(1) and O(limit) however many conversations the log holds.
 */
class RecencyList {
  private readonly previous: number[] = [];
  private readonly next: number[] = [];
  private newest = -1;

  touch(conversation: number): void {
    if (conversation === this.newest) return;
    const known = conversation < this.previous.length;
    if (known) {
      // Unlink from its current place (it is not the newest, so it has a successor).
      const before = this.previous[conversation]!;
      const after = this.next[conversation]!;
      this.previous[after] = before;
      if (before >= 0) this.next[before] = after;
    }
    this.previous[conversation] = this.newest;
    this.next[conversation] = -1;
    if (this.newest >= 0) this.next[this.newest] = conversation;
    this.newest = conversation;
  }

  /** Up to `limit` conversations, most recently active first. */
  latest(limit: number): number[] {
    const out: number[] = [];
    for (let c = this.newest; c >= 0 && out.length < limit; c = this.previous[c]!) out.push(c);
    return out;
  }
}

/**
 * The candidate at least half of whose messages this request re-sends, re-sending the most of them (and more than
 * `mustExceed`, the depth of the prefix match it would replace); ties go to the most recent request.
 */
function bestEditedMatch(
  ids: Int32Array,
  candidates: readonly number[],
  tipMessages: ReadonlyMap<number, Int32Array>,
  mustExceed: number,
): number | null {
  const present = new Set<number>(ids);
  let best: number | null = null;
  let bestShared = mustExceed;
  for (const candidate of candidates) {
    const theirs = tipMessages.get(candidate);
    if (theirs === undefined || theirs.length === 0) continue;
    let shared = 0;
    for (const id of theirs) if (present.has(id)) shared++;
    if (shared * 2 < theirs.length) continue;
    if (shared > bestShared || (shared === bestShared && best !== null && candidate > best)) {
      best = candidate;
      bestShared = shared;
    }
  }
  return best;
}

const EMPTY_IDS = new Int32Array(0);

interface MessageNode {
  children: Map<number, MessageNode>;
  /** Message id of the message that ends here, or -1. */
  id: number;
}

/**
 * What a block says, independent of how it was spelled: a message sent once as a plain string and once as a
 * one-block array (as SDKs do when they move a rolling cache_control marker) is the same message. Media and
 * blocks without text keep their exact wire identity.
 */
function contentIdentity(segment: Segment): string {
  if (segment.media !== null || segment.text.length === 0) return segment.wire;
  return `${segment.category}\u0000${segment.callId ?? ''}\u0000${segment.toolName ?? ''}\u0000${segment.text}`;
}

/**
 * Numbers messages by content. A message is identified by the content identities of its segments, in order;
 * those get small integers first so the message key is short whatever the message's size.
 */
class MessageIdentities {
  private readonly contentIds = new Map<string, number>();
  /** Content id per wire: re-sent history costs an array lookup a block. */
  private readonly byWire = new WireMemo((segment) => this.contentId(contentIdentity(segment)));
  /** Message id by the first segment object of a message's blocks (see runId). */
  private readonly byRun = new Map<Segment, { length: number; last: Segment; id: number }>();
  /** Messages are numbered through a trie (role, then content ids): no key string is built per message. */
  private readonly messageRoots = new Map<string, MessageNode>();
  private messageCount = 0;

  idsOf(request: ParsedRequest): Int32Array {
    const segments = request.segments;
    // Importers keep messageIndex < messageCount; grow defensively rather than drop a block if one does not.
    let messages = request.messageCount;
    for (const segment of segments) if (segment.messageIndex >= messages) messages = segment.messageIndex + 1;
    const ids = new Int32Array(messages).fill(-1);
    // Importers add a message's blocks one after another; a message split into several runs is numbered by
    // gathering its blocks first (never seen from the importers, kept for hand-built requests).
    for (let start = 0; start < segments.length; ) {
      const m = segments[start]!.messageIndex;
      let end = start + 1;
      while (end < segments.length && segments[end]!.messageIndex === m) end++;
      if (m >= 0) {
        if (ids[m] !== -1) return this.idsOfScattered(request, messages);
        ids[m] = this.runId(segments, start, end);
      }
      start = end;
    }
    // A message with no blocks (empty content) still occupies its place in the conversation.
    for (let m = 0; m < messages; m++) if (ids[m] === -1) ids[m] = this.messageId(EMPTY_IDS, '');
    return ids;
  }

  /**
   * Id of the message made of segments[start, end). A resent message reuses the importer's segment objects, so
   * the same first and last segment over the same length is the same message: one Map lookup instead of a
   * content id per block and a trie walk.
   */
  private runId(segments: readonly Segment[], start: number, end: number): number {
    const first = segments[start]!;
    const known = this.byRun.get(first);
    if (known !== undefined && known.length === end - start && known.last === segments[end - 1]) return known.id;
    const contentIds = new Int32Array(end - start);
    for (let i = start; i < end; i++) contentIds[i - start] = this.byWire.get(segments[i]!);
    const id = this.messageId(contentIds, segments[end - 1]!.role ?? '');
    this.byRun.set(first, { length: end - start, last: segments[end - 1]!, id });
    return id;
  }

  /** idsOf for a request whose messages' blocks are not contiguous: a counting sort by message index. */
  private idsOfScattered(request: ParsedRequest, messages: number): Int32Array {
    const segments = request.segments;
    const start = new Int32Array(messages + 1);
    for (const segment of segments) if (segment.messageIndex >= 0) start[segment.messageIndex + 1]!++;
    for (let m = 0; m < messages; m++) start[m + 1]! += start[m]!;
    const next = start.slice(0, messages);
    const contentIds = new Int32Array(start[messages]!);
    const roles = new Array<string>(messages).fill('');
    for (const segment of segments) {
      if (segment.messageIndex < 0) continue;
      contentIds[next[segment.messageIndex]!++] = this.byWire.get(segment);
      roles[segment.messageIndex] = segment.role ?? '';
    }
    const ids = new Int32Array(messages);
    for (let m = 0; m < messages; m++) ids[m] = this.messageId(contentIds.subarray(start[m]!, start[m + 1]!), roles[m]!);
    return ids;
  }

  private contentId(identity: string): number {
    let id = this.contentIds.get(identity);
    if (id === undefined) {
      id = this.contentIds.size;
      this.contentIds.set(identity, id);
    }
    return id;
  }

  private messageId(contentIds: Int32Array, role: string): number {
    let root = this.messageRoots.get(role);
    if (root === undefined) {
      root = { children: new Map(), id: -1 };
      this.messageRoots.set(role, root);
    }
    let node: MessageNode = root;
    for (const contentId of contentIds) {
      let child: MessageNode | undefined = node.children.get(contentId);
      if (child === undefined) {
        child = { children: new Map(), id: -1 };
        node.children.set(contentId, child);
      }
      node = child;
    }
    if (node.id < 0) node.id = this.messageCount++;
    return node.id;
  }
}

/**
 * The shared setup of an application: tool definitions, system prompt / instructions, and leading system or
 * developer messages, each compared by its optimized identity (volatile values normalized, keys sorted) and as a
 * set (tool order ignored). An inverted index from item to setups keeps lookups proportional to the request's
 * own setup size.
 */
class SetupIndex {
  private readonly itemIds = new Map<string, number>();
  private readonly setupIds = new Map<string, number>();
  private readonly latestOfSetup: number[] = [];
  private readonly setupsOfItem = new Map<number, number[]>();
  private readonly memo = new Map<string, string>();
  /** Item id per wire (its optimized identity numbered), memoized by wire id. */
  private readonly itemIdOfWire = new WireMemo((segment) => {
    const identity = optimizedWire(segment, this.memo);
    let id = this.itemIds.get(identity);
    if (id === undefined) {
      id = this.itemIds.size;
      this.itemIds.set(identity, id);
    }
    return id;
  });

  /** The latest earlier request whose setup shares the most items with this one, or null if none shares any. */
  bestMatch(request: ParsedRequest): number | null {
    const items = this.itemsOf(request);
    const shared = new Map<number, number>();
    for (const item of items) {
      for (const setup of this.setupsOfItem.get(item) ?? []) shared.set(setup, (shared.get(setup) ?? 0) + 1);
    }
    let best: number | null = null;
    let bestShared = 0;
    for (const [setup, count] of shared) {
      const latest = this.latestOfSetup[setup]!;
      if (count > bestShared || (count === bestShared && best !== null && latest > best)) {
        best = latest;
        bestShared = count;
      }
    }
    return best;
  }

  add(request: ParsedRequest, requestIndex: number): void {
    const items = this.itemsOf(request);
    if (items.length === 0) return;
    const key = items.join(',');
    let setup = this.setupIds.get(key);
    if (setup === undefined) {
      setup = this.setupIds.size;
      this.setupIds.set(key, setup);
    }
    this.latestOfSetup[setup] = requestIndex;
    // Each item lists the setups that contain it, most recently used last, at most SETUPS_PER_ITEM of them: a batch
    // of requests that all differ in their system prompt but share tools must not make every lookup scan them all.
    for (const item of items) {
      let setupsWithItem = this.setupsOfItem.get(item);
      if (setupsWithItem === undefined) {
        setupsWithItem = [];
        this.setupsOfItem.set(item, setupsWithItem);
      }
      if (setupsWithItem[setupsWithItem.length - 1] === setup) continue;
      const at = setupsWithItem.indexOf(setup);
      if (at >= 0) setupsWithItem.splice(at, 1);
      setupsWithItem.push(setup);
      if (setupsWithItem.length > SETUPS_PER_ITEM) setupsWithItem.shift();
    }
  }

  /** Sorted distinct item ids of the request's setup. */
  private itemsOf(request: ParsedRequest): number[] {
    const items = new Set<number>();
    for (const index of setupSegmentIndices(request)) items.add(this.itemIdOfWire.get(request.segments[index]!));
    return [...items].sort((a, b) => a - b);
  }
}

/**
 * Segments of the request's setup, in order: tool definitions, system prompt or instructions, and leading
 * system/developer messages (OpenAI's system prompt is messages[0]); the first other message starts the conversation.
 */
export function setupSegmentIndices(request: ParsedRequest): number[] {
  const firstConversational = leadingInstructionCount(request);
  const indices: number[] = [];
  request.segments.forEach((segment, index) => {
    if (segment.messageIndex < firstConversational) indices.push(index);
  });
  return indices;
}

/** Index of the first message that is not a system or developer message (all of them: messageCount). */
function leadingInstructionCount(request: ParsedRequest): number {
  let first = request.messageCount;
  for (const segment of request.segments) {
    if (segment.messageIndex >= 0 && !isInstructionRole(segment.role)) first = Math.min(first, segment.messageIndex);
  }
  return first;
}

function isInstructionRole(role: string | null): boolean {
  return role === 'system' || role === 'developer';
}
