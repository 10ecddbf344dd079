// The app's screen transitions (src/ui/screen.ts): what each event leads to, worked out from the rules the app had
// before they were one function (a failed open falls back to the folder it came from, else the start page; a
// paste that gave no request stays on the start page with its text; the clearing workspace survives a failed open).
import { describe, expect, it } from 'vitest';
import { folderOf, loadedOf, START, transition, type FolderEntry, type Loaded, type Screen } from '../../src/ui/screen.ts';
import type { AnalysisView } from '../../src/worker/view-model.ts';

// Synthetic views: only `requests.length` matters to the transitions.
const viewOf = (requests: number): AnalysisView => ({ requests: Array.from({ length: requests }, () => ({})) }) as unknown as AnalysisView;
const loaded = (requests: number): Loaded => ({ source: { kind: 'paste', text: '{}' }, view: viewOf(requests) });
const series = { bucketing: 'day' as const, models: [], buckets: [], days: 0, untimedRequests: 0 };
const folder: FolderEntry = {
  view: { sessions: [], projects: [], days: [], files: 0, skipped: [], series: { day: series, week: { ...series, bucketing: 'week' }, auto: 'day' }, record: '{}\n' },
  inputs: [],
  label: 'logs',
  state: { tab: 'sessions', only: null, opened: -1 },
};

describe('transition', () => {
  it('opens a session, keeping the folder it came from to go back to', () => {
    const a = loaded(3);
    const session = transition(START, { type: 'opened', loaded: a, folder });
    expect(session).toEqual({ kind: 'session', loaded: a, folder });
    expect(folderOf(session)).toBe(folder);
    expect(loadedOf(session)).toBe(a);
    expect(transition(session, { type: 'back-to-folder' })).toEqual({ kind: 'folder', folder });
  });

  it('keeps an input that gave no request on the start page (its paste in the box), or returns to its folder', () => {
    const empty = loaded(0);
    expect(transition(START, { type: 'opened', loaded: empty, folder: null })).toEqual({ kind: 'start', unread: empty });
    expect(transition(START, { type: 'opened', loaded: empty, folder })).toEqual({ kind: 'folder', folder });
  });

  it('falls back on a failed open: to the folder, else the start page; the clearing workspace stays', () => {
    const session: Screen = { kind: 'session', loaded: loaded(2), folder: null };
    expect(transition(session, { type: 'open-failed', folder: null })).toBe(START);
    expect(transition(session, { type: 'open-failed', folder })).toEqual({ kind: 'folder', folder });
    const clearing: Screen = { kind: 'clearing' };
    expect(transition(clearing, { type: 'open-failed', folder: null })).toBe(clearing);
  });

  it('goes home from anywhere, dropping the folder; back-to-folder without one changes nothing', () => {
    const session: Screen = { kind: 'session', loaded: loaded(2), folder };
    expect(transition(session, { type: 'home' })).toBe(START);
    expect(folderOf(transition(session, { type: 'home' }))).toBeNull();
    expect(transition(START, { type: 'back-to-folder' })).toBe(START);
    expect(transition(START, { type: 'clearing' })).toEqual({ kind: 'clearing' });
    expect(transition(START, { type: 'folder-opened', folder })).toEqual({ kind: 'folder', folder });
  });
});

describe('transition to and from a comparison', () => {
  const compared = { record: {} as never, names: { before: 'a.jsonl', after: 'b.jsonl' } };

  it('keeps the session it started from (with its open request and folder) and goes back to it', () => {
    const a = loaded(3);
    const session: Screen = { kind: 'session', loaded: a, folder };
    const compare = transition(session, { type: 'compared', compared, request: 2 });
    expect(compare).toEqual({ kind: 'compare', compared, back: { kind: 'session', loaded: a, folder, request: 2 } });
    expect(loadedOf(compare)).toBeNull();
    expect(folderOf(compare)).toBe(folder);
    expect(transition(compare, { type: 'back-from-compare' })).toEqual(session);
  });

  it('goes back to a folder or the start page; a second comparison keeps the first one\'s origin', () => {
    const fromFolder = transition({ kind: 'folder', folder }, { type: 'compared', compared, request: 0 });
    expect(transition(fromFolder, { type: 'back-from-compare' })).toEqual({ kind: 'folder', folder });
    const again = transition(fromFolder, { type: 'compared', compared, request: 0 });
    expect(transition(again, { type: 'back-from-compare' })).toEqual({ kind: 'folder', folder });
    const fromStart = transition(START, { type: 'compared', compared, request: 0 });
    expect(folderOf(fromStart)).toBeNull();
    expect(transition(fromStart, { type: 'back-from-compare' })).toEqual(START);
    expect(transition(START, { type: 'back-from-compare' })).toBe(START);
    expect(transition(fromStart, { type: 'home' })).toBe(START);
  });
});
