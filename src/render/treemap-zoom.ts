// Treemap zoom and search, shared by the app and anything else that draws a request's treemap. A request's blocks
// fall into zoom groups: the message (turn, Responses input item) each belongs to, or, for blocks outside the
// messages (system prompt, tool definitions, instructions, the inferred setup), their category. Zooming into a
// group draws only its blocks over the whole map. Search matches block names (path, tool) and kinds (category,
// its label, the message's role); it marks cells, it never moves them.
import { CATEGORIES, type Category } from '../core/model.ts';
import { CATEGORY_LABELS } from './palette.ts';

export interface ZoomBlock {
  category: Category;
  /** Index of the message the block belongs to; -1 outside the messages. */
  messageIndex: number;
  role: string | null;
}

export interface SearchBlock extends ZoomBlock {
  path: string;
  toolName: string | null;
}

/** `m<i>` for message i, else the block's category: stable across requests of one conversation, and link-safe. */
export function zoomGroupOf(block: ZoomBlock): string {
  return block.messageIndex >= 0 ? `m${block.messageIndex}` : block.category;
}

/** A group key as a link may carry it: `m` and a message index, or a category name. */
export function isZoomGroup(text: string): boolean {
  return /^m\d{1,7}$/.test(text) || (CATEGORIES as readonly string[]).includes(text);
}

/** Indices of the blocks in `group`, ascending; empty when the request has no such group. */
export function zoomMembers(blocks: readonly ZoomBlock[], group: string): number[] {
  const members: number[] = [];
  blocks.forEach((block, index) => {
    if (zoomGroupOf(block) === group) members.push(index);
  });
  return members;
}

/** What a breadcrumb calls the group: "message 3 · user", or the category's label. */
export function zoomGroupLabel(blocks: readonly ZoomBlock[], group: string): string {
  if (group.startsWith('m')) {
    const index = Number(group.slice(1));
    const role = blocks.find((b) => b.messageIndex === index)?.role ?? null;
    return `message ${index}${role !== null ? ` · ${role}` : ''}`;
  }
  return CATEGORY_LABELS[group as Category] ?? group;
}

/** The search box's text as it is matched: trimmed, case-folded; empty matches nothing (no search). */
export function searchNeedle(text: string): string {
  return text.trim().toLowerCase();
}

/** Whether a block's path or tool name holds the needle (already folded by `searchNeedle`). */
export function blockNameMatches(block: { path: string; toolName: string | null }, needle: string): boolean {
  return block.path.toLowerCase().includes(needle) || (block.toolName?.toLowerCase().includes(needle) ?? false);
}

/** Whether a block matches the needle by name or by kind (category id or label, the message's role). */
export function blockMatches(block: SearchBlock, needle: string): boolean {
  if (needle === '') return false;
  return (
    blockNameMatches(block, needle) ||
    block.category.includes(needle) ||
    CATEGORY_LABELS[block.category].toLowerCase().includes(needle) ||
    (block.role?.toLowerCase().includes(needle) ?? false)
  );
}

/** Indices of the blocks matching the search text, ascending. */
export function searchBlocks(blocks: readonly SearchBlock[], text: string): number[] {
  const needle = searchNeedle(text);
  const found: number[] = [];
  if (needle === '') return found;
  blocks.forEach((block, index) => {
    if (blockMatches(block, needle)) found.push(index);
  });
  return found;
}
