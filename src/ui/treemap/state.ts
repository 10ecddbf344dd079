// What one treemap holds while it is on screen: its elements, the request it draws and the view state that changes
// (zoom, focus, selection, search matches, the rectangles drawn).
import type { RequestView } from '../../worker/view-model.ts';
import type { Cell } from '../../render/treemap-layout.ts';
import { searchBlocks, zoomMembers } from '../../render/treemap-zoom.ts';
import type { TreemapParts } from './parts.ts';

export interface TreemapOptions {
  /** The segment selected when the map opens, or null. */
  initial: number | null;
  /** The zoom group to open on (`zoomGroupOf`), or null for the whole request; ignored when the request lacks it. */
  zoom: string | null;
  /** Search text to open with ('' for none). */
  search: string;
  onSelect(segment: number): void;
  /** The zoom or the search changed (view state: the page keeps it for the next request and the link). */
  onView(view: { zoom: string | null; search: string }): void;
}

export interface TreemapState {
  cells: Cell[];
  /** Rectangle of each segment drawn at the current zoom. */
  nodes: Map<number, HTMLElement>;
  selected: number | null;
  zoom: string | null;
  /** The segments of the zoom group drawn, or undefined for the whole request. */
  members: number[] | undefined;
  focusIndex: number;
  /** Whether the focus went to a rectangle since the map opened (so the zoom button names its message). */
  focusMoved: boolean;
  matches: Set<number>;
}

export interface TreemapContext {
  host: HTMLElement;
  request: RequestView;
  options: TreemapOptions;
  parts: TreemapParts;
  state: TreemapState;
}

/** The state a map opens in: the options' zoom when the request has that group, the focus on the selected block. */
/** `search`: the search box's text as the box holds it. */
export function initialState(request: RequestView, options: TreemapOptions, search: string): TreemapState {
  const { initial } = options;
  const zoom = options.zoom !== null && zoomMembers(request.segments, options.zoom).length > 0 ? options.zoom : null;
  const members = zoom === null ? undefined : zoomMembers(request.segments, zoom);
  const focusIndex = initial !== null && (members === undefined || members.includes(initial)) ? initial : (members?.[0] ?? 0);
  return {
    cells: [],
    nodes: new Map(),
    selected: initial,
    zoom,
    members,
    focusIndex,
    focusMoved: false,
    matches: new Set(searchBlocks(request.segments, search)),
  };
}
