// The Diff panel: the selected request against the request it is compared with, block by block (Myers diff over
// the whole segment lists, so a moved tool or an edited system block shows as a local change), and, on request,
// the line-level diff of a replaced block's text. Text is fetched from the worker only when the user asks.
import './findings.css';
import type { DiffHunk } from '../../core/cache/index.ts';
import { myersDiff } from '../../core/cache/myers.ts';
import type { DiffAnswer } from '../../worker/handlers/diff.ts';
import { el } from '../dom.ts';
import { formatCount, formatTokens } from '../../render/format.ts';
import { copyOriginalText, setInertText } from '../inert-text.ts';
import { visibleLabel } from '../../core/text/invisible.ts';
import { categoryTag } from '../swatch.ts';
import type { RequestView, SegmentView } from '../../worker/view-model.ts';
import type { Panel, PanelContext } from './types.ts';

/** Unchanged runs longer than this show only their first and last block. */
const FOLD_EQUAL = 6;
/** Lines of a text diff drawn at most. */
const MAX_TEXT_LINES = 2000;
/** Block rows drawn at most (a new conversation compared on its setup can differ in thousands of blocks). */
const MAX_BLOCK_ROWS = 1500;

const LINK_WORDS: Record<DiffAnswer['link'], string> = {
  continues: 'which it continues',
  edited: 'whose history it edits',
  'same-setup': 'the earlier request on the same setup',
  new: '',
};

function blockRow(kind: DiffHunk['kind'], request: RequestView, index: number, extra: HTMLElement | null = null): HTMLElement {
  const segment: SegmentView | undefined = request.segments[index];
  const mark = kind === 'insert' ? '+' : kind === 'delete' ? '−' : ' ';
  return el('li', { className: kind, attrs: { 'data-path': segment?.path ?? '', 'data-side': kind === 'delete' ? 'older' : 'newer' } }, [
    el('span', { className: 'diff-mark', text: mark, attrs: { role: 'img', 'aria-label': kind } }),
    segment === undefined ? null : categoryTag(segment.category),
    el('span', { className: 'mono', text: segment ? visibleLabel(segment.path) : `#${index}` }),
    segment?.toolName ? el('span', { className: 'mono muted', text: visibleLabel(segment.toolName) }) : null,
    el('span', { className: 'num muted', text: `${formatTokens(segment?.tokens ?? 0, request.exact)} tok` }),
    extra,
  ]);
}

/** The line diff of two texts as rows (long unchanged runs folded), stopping a little past MAX_TEXT_LINES. */
function textDiffLines(a: readonly string[], b: readonly string[]): HTMLElement[] {
  const lines: HTMLElement[] = [];
  for (const hunk of myersDiff(a, b)) {
    if (hunk.kind === 'equal') {
      const length = hunk.aEnd - hunk.aStart;
      if (length > FOLD_EQUAL) {
        lines.push(el('div', { text: `  ${a[hunk.aStart] ?? ''}` }), el('div', { className: 'muted', text: `  … ${length - 2} unchanged line(s) …` }), el('div', { text: `  ${a[hunk.aEnd - 1] ?? ''}` }));
      } else for (let k = hunk.aStart; k < hunk.aEnd; k++) lines.push(el('div', { text: `  ${a[k] ?? ''}` }));
    } else if (hunk.kind === 'delete') for (let k = hunk.aStart; k < hunk.aEnd; k++) lines.push(el('div', { className: 'delete', text: `− ${a[k] ?? ''}` }));
    else for (let k = hunk.bStart; k < hunk.bEnd; k++) lines.push(el('div', { className: 'insert', text: `+ ${b[k] ?? ''}` }));
    if (lines.length > MAX_TEXT_LINES) break;
  }
  return lines;
}

/** Line diff of two block texts, asked for by the user (this is where payload text enters the page). */
async function showTextDiff(host: HTMLElement, ctx: PanelContext, older: [number, number], newer: [number, number]): Promise<void> {
  host.replaceChildren(el('p', { className: 'muted', text: 'Loading both blocks…' }));
  try {
    const [before, after] = await Promise.all([
      ctx.ask('segment-text', { request: older[0], segment: older[1] }),
      ctx.ask('segment-text', { request: newer[0], segment: newer[1] }),
    ]);
    if (ctx.signal.aborted) return;
    const lines = textDiffLines((before.text || before.wire).split('\n'), (after.text || after.wire).split('\n'));
    // Diff lines are payload text: invisible and bidi characters become visible markers, copy keeps the original.
    const shown = lines.slice(0, MAX_TEXT_LINES);
    for (const line of shown) if (!line.classList.contains('muted')) setInertText(line, line.textContent ?? '');
    const diff = el('div', { className: 'text-diff' }, shown);
    copyOriginalText(diff);
    host.replaceChildren(diff);
  } catch (error) {
    if (!ctx.signal.aborted) host.replaceChildren(el('p', { className: 'error', text: error instanceof Error ? error.message : String(error) }));
  }
}

/** Marks the block the view has selected (a finding's block, the treemap's) in this request's rows, and on a
 * navigation scrolls it into view and focuses it. */
function revealBlock(container: HTMLElement, ctx: PanelContext): void {
  if (ctx.segment === null) return;
  const rows = [...container.querySelectorAll<HTMLElement>('.diff-lines li[data-path]')].filter((li) => li.dataset['path'] === ctx.segment);
  const row = rows.find((li) => li.dataset['side'] === 'newer') ?? rows[0];
  if (!row) return;
  row.setAttribute('aria-current', 'true');
  if (!ctx.reveal) return;
  row.tabIndex = -1;
  row.focus({ preventScroll: true });
  row.scrollIntoView({ block: 'center' });
}

function diffList(answer: DiffAnswer, ctx: PanelContext, textHost: HTMLElement): HTMLElement {
  const older = ctx.view.requests[answer.compared ?? 0]!;
  const newer = ctx.request;
  const rows: HTMLElement[] = [];
  answer.hunks.forEach((hunk, h) => {
    if (hunk.kind === 'equal') {
      const length = hunk.bEnd - hunk.bStart;
      if (length <= FOLD_EQUAL) for (let k = hunk.bStart; k < hunk.bEnd; k++) rows.push(blockRow('equal', newer, k));
      else {
        rows.push(blockRow('equal', newer, hunk.bStart));
        rows.push(el('li', { className: 'fold', text: `… ${formatCount(length - 2)} unchanged block(s) …` }));
        rows.push(blockRow('equal', newer, hunk.bEnd - 1));
      }
      return;
    }
    if (hunk.kind === 'delete') {
      // A deletion followed by an insertion is a replacement: offer the line diff of the first pair.
      const next = answer.hunks[h + 1];
      const pair = next?.kind === 'insert' ? next : null;
      for (let k = hunk.aStart; k < hunk.aEnd; k++) {
        const offset = k - hunk.aStart;
        const partner = pair !== null && pair.bStart + offset < pair.bEnd ? pair.bStart + offset : null;
        const button =
          partner === null
            ? null
            : el('button', {
                className: 'link',
                text: 'line diff',
                attrs: { type: 'button', title: 'Show the line-level diff of this block and its replacement (loads their text)' },
                on: { click: () => void showTextDiff(textHost, ctx, [older.index, k], [newer.index, partner]) },
              });
        rows.push(blockRow('delete', older, k, button));
      }
      return;
    }
    for (let k = hunk.bStart; k < hunk.bEnd; k++) rows.push(blockRow('insert', newer, k));
  });
  if (rows.length > MAX_BLOCK_ROWS) {
    const hidden = rows.length - MAX_BLOCK_ROWS;
    rows.length = MAX_BLOCK_ROWS;
    rows.push(el('li', { className: 'fold', text: `… ${formatCount(hidden)} more row(s) not drawn …` }));
  }
  return el('ul', { className: 'diff-lines', attrs: { 'aria-label': `Blocks of request ${newer.index + 1} against request ${older.index + 1}` } }, rows);
}

export const diffPanel: Panel = {
  id: 'diff',
  title: 'Diff',
  readsBodies: true,
  async render(container, ctx) {
    let answer: DiffAnswer;
    try {
      answer = await ctx.ask('diff', { request: ctx.request.index });
    } catch (error) {
      if (ctx.signal.aborted) return;
      container.replaceChildren(el('p', { className: 'error', text: error instanceof Error ? error.message : String(error) }));
      return;
    }
    if (ctx.signal.aborted) return;
    const title = el('h2', { className: 'section-title', text: `Request ${ctx.request.index + 1}: what changed` });
    if (answer.compared === null) {
      container.replaceChildren(title, el('p', { className: 'empty', text: 'This request starts a conversation and shares no setup with an earlier request: nothing to compare.' }));
      return;
    }
    const compared = answer.compared;
    const older = ctx.view.requests[compared];
    const changes = answer.hunks.filter((h) => h.kind !== 'equal');
    const firstChange = answer.firstChange === null ? null : (ctx.request.segments[answer.firstChange]?.path ?? 'the end');
    const textHost = el('div', {});
    container.replaceChildren(
      title,
      el('p', {}, [
        'Compared with ',
        el('button', { className: 'link', text: `request ${compared + 1}`, attrs: { type: 'button' }, on: { click: () => ctx.selectRequest(compared) } }),
        `, ${LINK_WORDS[answer.link]}: ${formatCount(answer.commonSegments)} of its ${formatCount(older?.segments.length ?? 0)} blocks in common from the start; `,
        firstChange === null ? 'the prefix is intact (this request only appends).' : `the prefix breaks at ${firstChange}.`,
      ]),
      el('p', { className: 'muted', text: `${formatCount(changes.length)} changed run(s): − removed from request ${compared + 1}, + added in request ${ctx.request.index + 1}.` }),
      ...(answer.coarse
        ? [
            el('p', {
              className: 'notice coarse-diff',
              text: 'Coarse diff: the requests differ by too many edits for a shortest edit script within its work budget, so everything between the shared start and end is shown as removed and added.',
            }),
          ]
        : []),
      diffList(answer, ctx, textHost),
      textHost,
    );
    revealBlock(container, ctx);
  },
};
