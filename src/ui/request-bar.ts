// The selected request's bar: its number with previous / next, its totals (tokens, what the provider counted,
// segments, messages, model, source line), its cache miss with links to what it names, and its notes.
import { formatBand, formatCount, formatTokens } from '../render/format.ts';
import type { RequestRowsAnswer } from '../worker/handlers/request-rows.ts';
import type { AnalysisView, RequestView } from '../worker/view-model.ts';
import { el } from './dom.ts';
import { noteText } from './notes.ts';
import type { NavigationTarget } from './panels/types.ts';
import { missTitle } from './request-table.ts';

export interface RequestBarContext {
  view: AnalysisView;
  index: number;
  /** The worker's per-request cache columns, once they arrived. */
  rows: RequestRowsAnswer | null;
  /** The request `delta` rows away in the request list's order, or null at an end. */
  neighbour(delta: number): number | null;
  step(delta: number): void;
  navigate(to: NavigationTarget): void;
}

function stepButton(ctx: RequestBarContext, delta: number, label: string): HTMLButtonElement {
  const button = el('button', { className: 'icon', text: delta < 0 ? '‹' : '›', attrs: { type: 'button', 'aria-label': label, title: `${label} (${delta < 0 ? 'k' : 'j'})` } });
  button.disabled = ctx.neighbour(delta) === null;
  button.addEventListener('click', () => ctx.step(delta));
  return button;
}

function stats(view: AnalysisView, request: RequestView): HTMLElement {
  const file = view.files[request.file];
  // Each term and its value in one group, so a wrapped line never separates them.
  const stat = (term: string, value: HTMLElement): HTMLElement => el('div', { className: `stat stat-${term.toLowerCase().replace(/ /g, '-')}` }, [el('dt', { text: term }), value]);
  return el('dl', { className: 'request-stats' }, [
    stat(
      'Tokens',
      el('dd', {
        className: 'big',
        text: `${formatTokens(request.total, request.exact)}${request.band === null ? '' : ` ${formatBand(request.band)}`}`,
        attrs: { id: 'request-total', 'data-total': String(request.total), 'data-exact': String(request.exact), ...(request.band === null ? {} : { 'data-band': String(request.band) }) },
      }),
    ),
    request.recordedPrompt !== null
      ? stat(
          'Provider counted',
          el('dd', {
            text: formatCount(request.recordedPrompt),
            attrs: { id: 'recorded-total', title: 'Prompt tokens the provider reported for this request (input + cache reads + cache writes), read from the log' },
          }),
        )
      : null,
    // The request's own blocks; the inferred setup is not one of them.
    stat('Segments', el('dd', { text: formatCount(request.segments.filter((s) => s.category !== 'setup_inferred').length), attrs: { id: 'segment-count' } })),
    stat('Messages', el('dd', { text: formatCount(request.messageCount) })),
    stat('Model', el('dd', { className: 'mono', text: request.model ?? 'none named' })),
    stat('Source', el('dd', { className: 'mono', text: `${file?.name ?? ''}${view.requests.length > 1 || request.line > 1 ? `, line ${request.line}` : ''}` })),
  ]);
}

function notesOf(view: AnalysisView, request: RequestView): string[] {
  const unknownModel = view.models.find((m) => m.id === request.model && !m.known);
  return [
    !request.exact
      ? request.format === 'anthropic-messages'
        ? 'Counts marked ≈ are estimates (Claude has no public tokenizer; media and some framing are estimated).'
        : 'Counts marked ≈ are estimates (OpenAI tool definitions, media and unverified framing are estimated; the rest is exact).'
      : null,
    request.band !== null
      ? `This request's shape (media of unknown size, a PDF, an image, the newer tokenizer or a very short prompt) was estimated within ${formatBand(request.band)} on projects the estimate was not fitted on, wider than the rest (p90 15%).`
      : null,
    unknownModel && request.model ? `“${request.model}” has no pricing entry (prices checked ${view.pricedOn}); it is reported, not priced as another model.` : null,
    ...request.notes.map(noteText),
  ].filter((n): n is string => n !== null);
}

/** The open request's cache miss, with links to the block it names and to the diff that shows it. */
function missLine(ctx: RequestBarContext, request: RequestView): HTMLElement | null {
  const { rows, index } = ctx;
  const cause = rows?.missCause[index] ?? null;
  if (cause === null || rows === null) return null;
  const missBlock = rows.missBlock[index] ?? null;
  const link = (text: string, to: NavigationTarget): HTMLElement =>
    el('button', { className: 'link', text, attrs: { type: 'button' }, on: { click: () => ctx.navigate(to) } });
  // A block the request shows gets a link; the unrecorded setup a miss may name is no segment of it.
  const blockLink = missBlock !== null && request.segments.some((s) => s.path === missBlock) ? link(`block ${missBlock}`, { panel: 'tokens', segment: missBlock }) : null;
  return el('p', { className: 'request-miss', attrs: { id: 'request-miss' } }, [
    el('strong', { text: 'Cache miss: ' }),
    missTitle(rows, index),
    ' · ',
    blockLink,
    blockLink !== null ? ' · ' : null,
    link('diff', { panel: 'diff', ...(missBlock !== null && { segment: missBlock }) }),
    ' · ',
    link('cache row', { panel: 'cache' }),
  ]);
}

/** The notes folded to one line (the first, cut to the width) that opens to all of them, so they never push the picture down. */
function notesOfRequest(notes: readonly string[]): HTMLElement | null {
  if (notes.length === 0) return null;
  const more = notes.length > 1 ? ` (+${notes.length - 1} more)` : '';
  return el('details', { className: 'request-notes-box' }, [
    el('summary', { className: 'request-notes-summary' }, [el('span', { className: 'request-notes-first', text: notes[0] ?? '' }), more]),
    el('ul', { className: 'request-notes' }, notes.map((n) => el('li', { text: n }))),
  ]);
}

export function renderRequestBar(ctx: RequestBarContext): HTMLElement {
  const request = ctx.view.requests[ctx.index];
  if (!request) return el('section', { className: 'request-bar' });
  const notes = notesOf(ctx.view, request);
  return el('section', { className: 'request-bar', attrs: { 'aria-label': 'Selected request' } }, [
    el('div', { className: 'request-nav' }, [
      el('h2', { className: 'section-title', text: 'Request' }),
      stepButton(ctx, -1, 'Previous request'),
      el('strong', { className: 'request-number', text: `#${formatCount(ctx.index + 1)}`, attrs: { id: 'request-current', 'data-index': String(ctx.index) } }),
      stepButton(ctx, 1, 'Next request'),
      el('span', { className: 'muted small', text: `of ${formatCount(ctx.view.requests.length)}` }),
    ]),
    stats(ctx.view, request),
    missLine(ctx, request),
    notesOfRequest(notes),
  ]);
}
