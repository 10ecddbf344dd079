// The selected segment's content, fetched from the worker on demand and shown as text (textContent only).
import { el } from './dom.ts';
import { formatBytes, formatTokens, unrecordedSetupText } from '../render/format.ts';
import { copyOriginalText, setInertText } from './inert-text.ts';
import { visibleLabel } from '../core/text/invisible.ts';
import { CATEGORY_LABELS } from '../render/palette.ts';
import { swatch } from './swatch.ts';
import type { SegmentTextAnswer } from '../worker/handlers/segment-text.ts';
import type { RequestView } from '../worker/view-model.ts';

/** Characters shown before "Show all": a huge tool result should not freeze the page on one click. */
const PREVIEW_CHARS = 100_000;

export type AskText = (request: number, segment: number) => Promise<SegmentTextAnswer>;

export interface ContentSource {
  /** Fetches the segment's text from the worker. */
  ask: AskText;
  /** Aborted when the content is no longer wanted (another segment, another request). */
  signal: AbortSignal;
}

export function renderContent(host: HTMLElement, request: RequestView, segment: number, { ask, signal }: ContentSource): void {
  const s = request.segments[segment];
  if (!s) return;
  if (s.category === 'setup_inferred') {
    // Not a block of the log: there is no text to fetch, only what its size was inferred from.
    host.replaceChildren(
      el('section', { className: 'content', attrs: { 'aria-label': 'Segment content', 'data-segment': String(segment) } }, [
        el('h3', {}, [swatch(s.category), CATEGORY_LABELS[s.category]]),
        el('p', { text: `The transcript does not record all the agent sent: ${unrecordedSetupText(s.tokens, request.unrecorded)} (the recorded prompt minus the blocks rebuilt from the transcript). The cache simulation sends it as the start of every prompt.` }),
      ]),
    );
    return;
  }
  const body = el('div', { className: 'content-body' }, [el('p', { className: 'muted', text: 'Loading content…' })]);
  const facts: [string, string][] = [
    ['Tokens', formatTokens(s.tokens, request.exact)],
    ['Bytes', formatBytes(s.bytes)],
    ['Path', visibleLabel(s.path)],
    ['Hash', s.hash],
    ['Cache marker', s.cacheMarker ? `cache_control (ttl ${s.cacheMarker.ttl})` : 'none'],
  ];
  if (s.toolName) facts.splice(2, 0, ['Tool', visibleLabel(s.toolName)]);
  if (s.role) facts.splice(2, 0, ['Role', visibleLabel(s.role)]);
  host.replaceChildren(
    el('section', { className: 'content', attrs: { 'aria-label': 'Segment content', 'data-segment': String(segment) } }, [
      el('h3', {}, [swatch(s.category), `${CATEGORY_LABELS[s.category]} · segment ${segment + 1}`]),
      el('dl', { className: 'facts' }, facts.flatMap(([k, v]) => [el('dt', { text: k }), el('dd', { className: k === 'Path' || k === 'Hash' ? 'mono' : '', text: v })])),
      body,
    ]),
  );

  ask(request.index, segment)
    .then((answer) => {
      if (signal.aborted) return;
      let mode: 'text' | 'wire' = answer.text === '' ? 'wire' : 'text';
      let full = false;
      const pre = el('pre', { className: 'payload', attrs: { tabindex: '0' } });
      copyOriginalText(pre);
      const controls = el('div', { className: 'content-controls' });
      const draw = (): void => {
        const source = mode === 'text' ? answer.text : answer.wire;
        setInertText(pre, full || source.length <= PREVIEW_CHARS ? source : source.slice(0, PREVIEW_CHARS));
        const showAll =
          !full && source.length > PREVIEW_CHARS
            ? el('button', {
                className: 'link',
                text: `Showing ${PREVIEW_CHARS.toLocaleString('en-US')} of ${source.length.toLocaleString('en-US')} characters — show all`,
                attrs: { type: 'button' },
                on: { click: () => ((full = true), draw()) },
              })
            : '';
        controls.replaceChildren(
          el('div', { className: 'segmented', attrs: { role: 'group', 'aria-label': 'Content view' } }, [
            el('button', {
              text: 'Text',
              attrs: { type: 'button', 'aria-pressed': String(mode === 'text') },
              on: { click: () => ((mode = 'text'), draw()) },
            }),
            el('button', {
              text: 'JSON as sent',
              attrs: { type: 'button', 'aria-pressed': String(mode === 'wire') },
              on: { click: () => ((mode = 'wire'), draw()) },
            }),
          ]),
          showAll,
        );
      };
      draw();
      // The preview is an <img> of a data: URL the worker checked (raster type, base64 only): it cannot run script.
      const preview = answer.image ? el('img', { className: 'preview', attrs: { src: answer.image, alt: `Image of segment ${segment + 1}` } }) : '';
      body.replaceChildren(
        answer.media ? el('p', { className: 'muted', text: `Media: ${answer.media}` }) : '',
        preview,
        controls,
        pre,
      );
    })
    .catch((error: unknown) => {
      if (signal.aborted) return;
      body.replaceChildren(el('p', { className: 'error', text: `Could not load the content: ${(error as Error).message}` }));
    });
}
