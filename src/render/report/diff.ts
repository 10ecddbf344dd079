// The report's prefix diffs: each request whose prefix broke, against the request it is compared with, block by
// block (paths and categories; tool names and excerpts only with content), cut to a size a browser can open.
import type { Analysis } from '../../core/analysis/types.ts';
import type { CacheAnalysis } from '../../core/cache/index.ts';
import { diffSegments } from '../../core/cache/prefix.ts';
import { isCoarse, type DiffHunk } from '../../core/cache/myers.ts';
import type { ParsedRequest } from '../../core/model.ts';
import { visibleLabel } from '../../core/text/invisible.ts';
import { escapeHtml } from './escape.ts';
import type { ContentOption } from './sections.ts';

/** At most this many request diffs are drawn; the rest are counted. */
export const MAX_DIFFS = 40;
/** Unchanged runs longer than this are folded to their first and last lines. */
const FOLD_EQUAL = 6;
/** Lines drawn per diff; the rest is counted in one closing line. */
export const MAX_DIFF_LINES = 500;
const EXCERPT_CHARS = 160;

/** Diffs of the requests whose prefix broke against the request they are compared with. */
export function diffSection(analysis: Analysis, cache: CacheAnalysis, options: ContentOption): string {
  const broken: number[] = [];
  cache.prefixes.forEach((prefix, r) => {
    if (prefix?.prefixBroken) broken.push(r);
  });
  if (broken.length === 0) {
    return '<section><h2>Prefix diffs</h2><p>Every request that continues another starts with all of its blocks: no prefix was broken.</p></section>';
  }
  const shown = broken.slice(0, MAX_DIFFS).map((r) => {
    const compared = cache.conversations.continues[r]!;
    const older = analysis.requests[compared]!;
    const newer = analysis.requests[r]!;
    const hunks = diffSegments(older.segments, newer.segments);
    const prefix = cache.prefixes[r]!;
    const coarse = isCoarse(hunks)
      ? '\n<p class="muted">Coarse diff: the requests differ by too many edits for a shortest edit script within its work budget, so everything between the shared start and end is shown as removed and added.</p>'
      : '';
    return `<h3 id="diff-${r + 1}">Request ${r + 1} against request ${compared + 1} (${escapeHtml(cache.conversations.kind[r] ?? '')}; ${prefix.commonSegments} block(s) in common from the start)</h3>${coarse}
<pre>${renderHunks(hunks, older, newer, options).join('\n')}</pre>`;
  });
  const more = broken.length > MAX_DIFFS ? `<p class="muted">${broken.length - MAX_DIFFS} more diff(s) not drawn.</p>` : '';
  return `<section><h2>Prefix diffs (${broken.length})</h2>\n${shown.join('\n')}${more}</section>`;
}

function renderHunks(hunks: readonly DiffHunk[], older: ParsedRequest, newer: ParsedRequest, options: ContentOption): string[] {
  const lines: string[] = [];
  const line = (mark: string, cls: string, request: ParsedRequest, index: number) => {
    const segment = request.segments[index]!;
    const name = options.content && segment.toolName !== null ? ` ${segment.toolName}` : '';
    const excerpt = options.content && segment.text.length > 0 ? ` “${oneLine(segment.text)}”` : '';
    // Payload text: bidi and invisible characters are written as ⟨U+XXXX⟩ so they cannot reorder the report.
    lines.push(`<span class="${cls}">${mark} ${escapeHtml(visibleLabel(`${segment.path} ${segment.category}${name}${excerpt}`))}</span>`);
  };
  for (const hunk of hunks) {
    if (hunk.kind === 'equal') {
      const length = hunk.aEnd - hunk.aStart;
      if (length <= FOLD_EQUAL) for (let k = 0; k < length; k++) line(' ', 'eq', newer, hunk.bStart + k);
      else {
        line(' ', 'eq', newer, hunk.bStart);
        lines.push(`<span class="fold">  … ${length - 2} unchanged block(s) …</span>`);
        line(' ', 'eq', newer, hunk.bEnd - 1);
      }
    } else if (hunk.kind === 'delete') for (let k = hunk.aStart; k < hunk.aEnd && lines.length < MAX_DIFF_LINES; k++) line('−', 'del', older, k);
    else for (let k = hunk.bStart; k < hunk.bEnd && lines.length < MAX_DIFF_LINES; k++) line('+', 'add', newer, k);
    if (lines.length >= MAX_DIFF_LINES) {
      // A diff of tens of thousands of moved blocks would make the report hundreds of MB; the rest is counted.
      const changed = hunks.reduce((total, h) => total + (h.kind === 'equal' ? 0 : h.aEnd - h.aStart + h.bEnd - h.bStart), 0);
      const drawn = lines.filter((text) => !text.includes('class="eq"') && !text.includes('class="fold"')).length;
      lines.push(`<span class="fold">  … diff cut at ${MAX_DIFF_LINES} lines: ${changed - drawn} more removed or added block(s) not drawn …</span>`);
      break;
    }
  }
  return lines;
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > EXCERPT_CHARS ? `${flat.slice(0, EXCERPT_CHARS)}…` : flat;
}
