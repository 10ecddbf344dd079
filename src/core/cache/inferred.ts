// What a transcript does not record, inferred from the usage it does record, so the simulation "as sent" models
// what the agent really sent:
// - the cache breakpoint: pi and Claude Code put a rolling breakpoint on the newest block of every request (and
//   on the system prompt, which sits inside the unrecorded setup). Its TTL is read from the recorded writes: a
//   session that wrote 1-hour entries (Claude Code on recent versions, pi with long retention) used 1h, one that
//   only wrote or read 5-minute entries used 5m, and one whose recorded usage shows no cache activity at all sent
//   no breakpoint;
// - the size of the unrecorded system prompt and tools: recorded prompt − reconstructed prompt, so the simulated
//   prompt is the provider's count. A request without a usable record takes the last size its conversation and
//   model recorded;
// - the agent's own breakpoint inside that setup (pi and Claude Code mark the system prompt): a recorded read that
//   stopped part-way into the setup shows where it sits, so the simulation keeps that part as an entry of its own,
//   which a request whose later part changed still reads.
// Nothing is invented for logs that record cache_control (request captures): they are simulated as written.
import { providerOf, recordedPromptTokens, threadKey, type CacheMarker, type ParsedRequest } from '../model.ts';
import type { Conversations } from './conversations.ts';

export interface InferenceInput {
  requests: readonly ParsedRequest[];
  /** Per request, reconstructed prompt tokens (segments + overhead). */
  reconstructed: readonly number[];
  conversations: Conversations;
  /** Requests whose log does not record where the agent put its breakpoints. */
  breakpointsUnknown: (requestIndex: number) => boolean;
}

export interface InferredFromUsage {
  /** Per request: the tail breakpoint inferred from recorded usage, or null (recorded, or nothing to infer from). */
  markers: (CacheMarker | null)[];
  /** Per request: tokens of the unrecorded system prompt and tools inferred from recorded usage; 0 when none. */
  setupTokens: number[];
  /** Anthropic requests whose log records no breakpoint and whose recorded usage gave none to infer. */
  uninferred: number;
  /**
   * Per request: which version of the unrecorded setup it sent, 0 for the first. A request that continues its
   * conversation yet read less than its setup from the cache (recorded) sent a setup that changed: the version
   * goes up, so the simulation misses there as the provider did.
   */
  setupVersions: number[];
  /**
   * Per request: which version of the setup up to its own breakpoint (the system prompt's) it sent, 0 for the
   * first. A read that stopped part-way into the setup (above 0) shows that part unchanged: only `setupVersions`
   * goes up; a read of nothing changes both.
   */
  setupBreakpointVersions: number[];
  /**
   * Per request: tokens of the unrecorded setup through the agent's breakpoint on it, as the first recorded read
   * that stopped there (0 < read < setup) in its breakpoint version shows; 0 where no read showed it.
   */
  setupBreakpointTokens: number[];
  /**
   * Per request: tokens at the start of its prompt that were already cached when the log began (the first
   * recorded call of a session that read the cache: an earlier session wrote the same setup); 0 elsewhere.
   */
  warmTokens: number[];
}

/** The transcript left out the system prompt and/or the tool definitions (the importers note it). */
export const hasUnrecordedSetup = (request: ParsedRequest): boolean =>
  request.notes.some((note) => note.code === 'transcript_missing_system' || note.code === 'transcript_missing_tools');

interface CacheActivity {
  recorded: number;
  wrote1h: boolean;
  cached: boolean;
}

export function inferFromUsage(input: InferenceInput): InferredFromUsage {
  const { requests } = input;
  // Per file and model (one session can run its side calls on another model with other settings), and per file.
  const byGroup = new Map<string, CacheActivity>();
  const note = (key: string, request: ParsedRequest) => {
    let activity = byGroup.get(key);
    if (activity === undefined) {
      activity = { recorded: 0, wrote1h: false, cached: false };
      byGroup.set(key, activity);
    }
    const usage = request.recorded!;
    activity.recorded++;
    activity.wrote1h ||= usage.cacheWrite1h > 0;
    activity.cached ||= usage.cacheRead + usage.cacheWrite5m + usage.cacheWrite1h > 0;
  };
  requests.forEach((request, r) => {
    if (!inferable(input, request, r) || request.recorded === null || promptOfUsage(request) === 0) return;
    note(groupKey(request), request);
    note(threadKey(request), request);
  });
  let uninferred = 0;
  const markers = requests.map((request, r): CacheMarker | null => {
    if (!inferable(input, request, r)) return null;
    const activity = byGroup.get(groupKey(request)) ?? byGroup.get(threadKey(request));
    if (activity === undefined || !activity.cached) {
      uninferred++;
      return null;
    }
    return { ttl: activity.wrote1h ? '1h' : '5m' };
  });
  const setup = setupTokens(input);
  const ttlOf = (request: ParsedRequest): number => (byGroup.get(groupKey(request))?.wrote1h === true ? HOUR_MS : FIVE_MINUTES_MS);
  const history = setupHistory(input, setup, ttlOf);
  return {
    markers,
    setupTokens: setup,
    uninferred,
    setupVersions: history.versions,
    setupBreakpointVersions: history.breakpointVersions,
    setupBreakpointTokens: history.breakpointTokens,
    warmTokens: history.warm,
  };
}

/** An Anthropic request rebuilt from a log without cache_control: no marker anywhere, none recorded. */
function inferable(input: InferenceInput, request: ParsedRequest, r: number): boolean {
  return (
    input.breakpointsUnknown(r) &&
    providerOf(request.format) === 'anthropic' &&
    request.topLevelCacheMarker === null &&
    !request.segments.some((segment) => segment.cacheMarker !== null)
  );
}

const groupKey = (request: ParsedRequest): string => `${threadKey(request)}\u0000${request.model ?? ''}`;

function promptOfUsage(request: ParsedRequest): number {
  const usage = request.recorded;
  return usage === null ? 0 : recordedPromptTokens(usage);
}

function setupTokens(input: InferenceInput): number[] {
  const lastKnown = new Map<string, number>();
  return input.requests.map((request, r) => {
    if (!hasUnrecordedSetup(request)) return 0;
    const group = `${input.conversations.conversationOf[r] ?? 0}\u0000${request.model ?? ''}`;
    const recorded = promptOfUsage(request);
    if (recorded > 0) {
      const inferred = Math.max(0, recorded - (input.reconstructed[r] ?? 0));
      lastKnown.set(group, inferred);
      return inferred;
    }
    return lastKnown.get(group) ?? 0;
  });
}

/**
 * Share of the previous recorded prompt below which a read that also stopped inside the setup is taken as a
 * changed setup (a smaller shortfall is a partial miss in the history: misses.ts).
 */
const SETUP_CHANGE_SHARE = 0.5;

const FIVE_MINUTES_MS = 5 * 60_000;
const HOUR_MS = 60 * 60_000;

interface SetupHistory {
  versions: number[];
  breakpointVersions: number[];
  breakpointTokens: number[];
  warm: number[];
}

/** Per group (thread and model), what the requests read so far say about its unrecorded setup. */
class SetupTracker {
  private readonly versionOf = new Map<string, number>();
  private readonly breakpointVersionOf = new Map<string, number>();
  private readonly lastPrompt = new Map<string, number>();
  private readonly lastTime = new Map<string, number | null>();
  /** Per group and breakpoint version: where the first read that stopped inside the setup stopped. */
  readonly stoppedAt = new Map<string, number>();
  readonly warm: number[];
  readonly breakpointVersions: number[];

  constructor(
    input: InferenceInput,
    private readonly setup: readonly number[],
    private readonly ttlOf: (request: ParsedRequest) => number,
  ) {
    this.warm = input.requests.map(() => 0);
    this.breakpointVersions = input.requests.map(() => 0);
  }

  /** The setup version request r sent. */
  versionAt(request: ParsedRequest, r: number): number {
    if (!hasUnrecordedSetup(request)) return 0;
    if (providerOf(request.format) !== 'anthropic') {
      this.openaiWarm(request, r);
      return 0;
    }
    return this.anthropicVersion(request, r);
  }

  /**
   * OpenAI caches without breakpoints: only the warm start applies (Codex sends the same instructions and tools
   * every session, so a session's first call can read what an earlier one left).
   */
  private openaiWarm(request: ParsedRequest, r: number): void {
    const group = groupKey(request);
    if (request.recorded !== null && promptOfUsage(request) > 0 && !this.lastPrompt.has(group)) {
      this.warm[r] = Math.min(request.recorded.cacheRead, this.setup[r] ?? 0);
      this.lastPrompt.set(group, promptOfUsage(request));
    }
  }

  private anthropicVersion(request: ParsedRequest, r: number): number {
    const group = groupKey(request);
    const version = this.versionOf.get(group) ?? 0;
    this.breakpointVersions[r] = this.breakpointVersionOf.get(group) ?? 0;
    const usage = request.recorded;
    const prompt = promptOfUsage(request);
    if (usage === null || prompt === 0) return version;
    const previous = this.lastPrompt.get(group);
    const inside = usage.cacheRead > 0 && usage.cacheRead < (this.setup[r] ?? 0);
    // A read that shows where the setup's breakpoint sits: one that stopped inside the setup on a first call (what
    // an earlier session left) or on a miss (what outlived a change after it). A whole read of a shorter previous
    // prompt can also be below the setup inferred here, so a hit never counts.
    let shows = false;
    let next = version;
    if (previous === undefined) {
      // The first recorded call of a session reads only what an earlier session left.
      this.warm[r] = Math.min(usage.cacheRead, this.setup[r] ?? 0);
      shows = inside;
    } else if (this.setupChanged(request, r, previous)) {
      shows = inside;
      next = version + 1;
      this.versionOf.set(group, next);
      if (!inside) {
        this.breakpointVersions[r]!++;
        this.breakpointVersionOf.set(group, this.breakpointVersions[r]!);
      }
    }
    const stop = `${group}\u0000${this.breakpointVersions[r]}`;
    if (shows && !this.stoppedAt.has(stop)) this.stoppedAt.set(stop, usage.cacheRead);
    this.lastPrompt.set(group, prompt);
    this.lastTime.set(group, request.timestamp);
    return next;
  }

  /** A read far below the previous prompt that also stopped inside the setup, with no pause to explain it. */
  private setupChanged(request: ParsedRequest, r: number, previous: number): boolean {
    const before = this.lastTime.get(groupKey(request)) ?? null;
    // A pause longer than the entries' TTL explains an empty read by itself: no evidence the setup changed.
    const expired = before !== null && request.timestamp !== null && request.timestamp - before > this.ttlOf(request);
    const read = request.recorded!.cacheRead;
    return !expired && read < SETUP_CHANGE_SHARE * previous && read < (this.setup[r] ?? 0);
  }
}

function setupHistory(input: InferenceInput, setup: readonly number[], ttlOf: (request: ParsedRequest) => number): SetupHistory {
  const tracker = new SetupTracker(input, setup, ttlOf);
  const versions = input.requests.map((request, r) => tracker.versionAt(request, r));
  const { stoppedAt, warm, breakpointVersions } = tracker;
  // Every request of a breakpoint version sent that part: the ones before the read that showed it wrote it.
  const breakpointTokens = input.requests.map((request, r) =>
    hasUnrecordedSetup(request) && providerOf(request.format) === 'anthropic'
      ? Math.min(stoppedAt.get(`${groupKey(request)}\u0000${breakpointVersions[r]}`) ?? 0, setup[r] ?? 0)
      : 0,
  );
  return { versions, breakpointVersions, breakpointTokens, warm };
}
