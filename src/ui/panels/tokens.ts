// The built-in Tokens panel: treemap, totals by category, sortable segment table and on-demand content.
import { el } from '../dom.ts';
import { renderCategoryTotals } from '../category-totals.ts';
import { renderContent } from '../content-view.ts';
import { renderSegmentTable } from '../segment-table.ts';
import { renderTreemap } from '../treemap/view.ts';
import { renderFindingsStrip } from '../findings-strip.ts';
import { isUsageOnlyRequest, renderUsageOnly } from '../usage-only.ts';
import type { Panel } from './types.ts';

export const tokensPanel: Panel = {
  id: 'tokens',
  title: 'Tokens',
  render(container, ctx) {
    const { request } = ctx;
    // Recorded usage and no body: its figures, and no treemap or table of blocks that were never read.
    if (isUsageOnlyRequest(request)) return renderUsageOnly(container, ctx);
    if (request.segments.length === 0) {
      container.append(el('p', { className: 'empty', text: 'This request has no segments to show.' }));
      return;
    }
    const mapHost = el('div', { className: 'map-host' });
    const totalsHost = el('div', { className: 'totals-host' });
    const contentBody = el('div', { className: 'content-body' }, [
      el('p', { className: 'muted hint', text: 'Click a rectangle or a row to read the segment. Arrow keys move between rectangles; Enter opens one; double-click or + zooms into its message, Esc zooms out.' }),
    ]);
    // On a narrow screen the content is a sheet over the treemap (styles.css); this closes it.
    const closeSheet = el('button', { className: 'sheet-close', text: 'Close', attrs: { type: 'button', 'aria-label': 'Close the segment' } });
    const contentHost = el('div', { className: 'content-host', attrs: { 'aria-label': 'Segment content', role: 'region' } }, [closeSheet, contentBody]);
    const hideSheet = (): void => {
      if (!contentHost.classList.contains('open')) return;
      contentHost.classList.remove('open');
      if (selectedSegment !== null) map.select(selectedSegment, { focus: true });
    };
    closeSheet.addEventListener('click', hideSheet);
    contentHost.addEventListener('keydown', (event) => {
      if (event.key !== 'Escape') return;
      event.preventDefault();
      hideSheet();
    });
    let selectedSegment: number | null = null;
    const tableHost = el('div', { className: 'table-host' });
    const findingsHost = el('div', { className: 'findings-host' });
    void renderFindingsStrip(findingsHost, ctx);
    // The findings beside the treemap (below it on a narrow screen), so the picture starts near the top.
    container.append(
      el('div', { className: 'tokens-layout' }, [
        el('div', { className: 'tokens-main' }, [mapHost, tableHost]),
        el('aside', { className: 'tokens-side' }, [
          findingsHost,
          el('h2', { className: 'section-title', text: 'By category' }),
          totalsHost,
          contentHost,
        ]),
      ]),
    );
    renderCategoryTotals(totalsHost, request);

    let contentAbort: AbortController | null = null;
    /** `openSheet`: the user picked it (on a narrow screen the content opens as a sheet over the treemap). */
    const select = (segment: number, { fromMap, openSheet = true }: { fromMap: boolean; openSheet?: boolean }): void => {
      map.select(segment, { focus: fromMap });
      table.select(segment);
      // The inferred setup has no path in the request: nothing to keep selected on the next request.
      const picked = request.segments[segment];
      ctx.selectSegment(picked === undefined || picked.category === 'setup_inferred' ? null : picked.path);
      contentHost.classList.toggle('open', openSheet);
      selectedSegment = segment;
      contentAbort?.abort();
      contentAbort = new AbortController();
      ctx.signal.addEventListener('abort', () => contentAbort?.abort(), { once: true });
      renderContent(contentBody, request, segment, {
        ask: (r, s) => ctx.ask('segment-text', { request: r, segment: s }),
        signal: contentAbort.signal,
      });
    };
    // The block selected before (kept from the previous request when this one has it too, or named by a link).
    const kept = ctx.segment === null ? -1 : request.segments.findIndex((s) => s.path === ctx.segment);
    const map = renderTreemap(mapHost, request, {
      initial: kept >= 0 ? kept : null,
      zoom: ctx.treemap.zoom,
      search: ctx.treemap.search,
      onSelect: (segment) => select(segment, { fromMap: true }),
      onView: (treemap) => ctx.setTreemap(treemap),
    });
    const table = renderSegmentTable(tableHost, request, (segment) => select(segment, { fromMap: false }));
    ctx.signal.addEventListener('abort', () => map.destroy(), { once: true });
    if (kept >= 0) {
      select(kept, { fromMap: ctx.reveal, openSheet: ctx.reveal });
      // A finding's link: the block it names ends in view and focused.
      if (ctx.reveal) map.reveal(kept);
    }
  },
};
