// The built-in Tokens panel: treemap, totals by category, sortable segment table and on-demand content.
import { el } from '../dom.ts';
import { renderCategoryTotals } from '../category-totals.ts';
import { renderContent } from '../content-view.ts';
import { renderSegmentTable } from '../segment-table.ts';
import { renderTreemap } from '../treemap/view.ts';
import { renderFindingsStrip } from '../findings-strip.ts';
import type { SegmentTextAnswer } from '../../worker/handlers/segment-text.ts';
import type { Panel } from './types.ts';

export const tokensPanel: Panel = {
  id: 'tokens',
  title: 'Tokens',
  needs: [],
  render(container, ctx) {
    const { request } = ctx;
    if (request.segments.length === 0) {
      container.append(el('p', { className: 'empty', text: 'This request has no segments to show.' }));
      return;
    }
    const mapHost = el('div', { className: 'map-host' });
    const totalsHost = el('div', { className: 'totals-host' });
    const contentHost = el('div', { className: 'content-host' }, [
      el('p', { className: 'muted hint', text: 'Click a rectangle or a row to read the segment. Arrow keys move between rectangles; Enter opens one.' }),
    ]);
    const tableHost = el('div', { className: 'table-host' });
    const findingsHost = el('div', { className: 'findings-host' });
    void renderFindingsStrip(findingsHost, ctx);
    container.append(
      findingsHost,
      el('div', { className: 'tokens-layout' }, [
        el('div', { className: 'tokens-main' }, [mapHost, tableHost]),
        el('aside', { className: 'tokens-side' }, [
          el('h2', { className: 'section-title', text: 'By category' }),
          totalsHost,
          contentHost,
        ]),
      ]),
    );
    renderCategoryTotals(totalsHost, request.byCategory, request.total, request.overhead, request.exact);

    let contentAbort: AbortController | null = null;
    const select = (segment: number, fromMap: boolean): void => {
      map.select(segment, !fromMap ? false : true);
      table.select(segment);
      contentAbort?.abort();
      contentAbort = new AbortController();
      ctx.signal.addEventListener('abort', () => contentAbort?.abort(), { once: true });
      renderContent(
        contentHost,
        request,
        segment,
        (r, s) => ctx.ask<SegmentTextAnswer>('segment-text', { request: r, segment: s }),
        contentAbort.signal,
      );
    };
    const map = renderTreemap(mapHost, request, (segment) => select(segment, true), null);
    const table = renderSegmentTable(tableHost, request, (segment) => select(segment, false));
    ctx.signal.addEventListener('abort', () => map.destroy(), { once: true });
  },
};
