// The Duplicates panel: the exact-duplicate contract (ctxray.dupes/1: verdict + duplicate-block table) for the
// loaded input or a dropped envelope, and beside it — labelled as a different measure — the near-duplicate
// (shingle) groups of the cache analysis when that section is present. Everything shown is text-free.
import './duplicates.css';
import { el } from '../dom.ts';
import { download } from '../export.ts';
import { numCell, scrollingTable } from '../data-table.ts';
import { formatCount } from '../../render/format.ts';
import type { AnalysisView } from '../../worker/view-model.ts';
import type { DupesAnswer, DupesExportParams, ShownGroup } from '../../worker/handlers/dupes.ts';
import type { BlockOrigin, DupesRecord } from '../../core/dupes/index.ts';
import { REASON_MEANINGS } from '../../core/dupes/codes.ts';
import type { Panel, PanelContext } from './types.ts';

/** Near-duplicate rows shown; the cache analysis keeps every group. */
const MAX_ROWS = 200;
/** The section of the core analysis holding near-duplicate groups (src/core/cache/near-duplicates.ts). */
const NEAR_SECTION = 'nearDuplicates';

interface NearDuplicateGroupView {
  requestIndex: number;
  segments: number[];
  similarity: number;
}

/** The loaded input's record, computed once per analysis (re-renders happen on every request change). */
const loadedAnswers = new WeakMap<AnalysisView, Promise<DupesAnswer>>();
/** The last file checked on the panel, kept across re-renders. */
let fileResult: { name: string; answer: DupesAnswer } | null = null;

/** Where a block sits, in words built from indices only. */
export function describeOrigin(index: number, origin: BlockOrigin | undefined): string {
  if (origin === undefined) return `block ${index}`;
  if (origin.event !== undefined) return `event ${origin.event} ${origin.field ?? ''}`.trim();
  const parts: string[] = [];
  if (origin.request !== undefined) parts.push(`request ${origin.request + 1}`);
  if (origin.message !== undefined) parts.push(origin.message < 0 ? 'system' : `message ${origin.message}`);
  if (origin.part !== undefined) parts.push(`part ${origin.part}`);
  return parts.join(' · ');
}

function counted(n: number, one: string, many: string): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

/** One-line verdict sentence; `groupCount`: the record's repeated content hashes. */
export function verdictSentence(record: Pick<DupesRecord, 'result' | 'reason' | 'totals'>, groupCount: number): string {
  const { totals } = record;
  if (record.result === 'pass') return `No block is sent twice among ${counted(totals.blocks, 'block', 'blocks')}.`;
  if (record.result === 'fail') {
    return (
      `${counted(totals.duplicateBlocks, 'duplicate block', 'duplicate blocks')} ` +
      `(${counted(groupCount, 'repeated content hash', 'repeated content hashes')}) ` +
      `cost ${counted(totals.wastedBytes, 'byte', 'bytes')} and ${counted(totals.wastedTokens, 'whitespace token', 'whitespace tokens')}.`
    );
  }
  return record.reason === null ? 'Not measured.' : `${record.reason}: ${REASON_MEANINGS[record.reason]}`;
}

interface SavedFile {
  /** The button's text. */
  label: string;
  /** The file's name and media type. */
  name: string;
  type: string;
  /** The file's text, written when the button is clicked. */
  content: () => Promise<string>;
}

/**
 * A button that saves the whole record as JSON or markdown: the worker writes it when clicked (the page holds
 * only what it lists; a long log's record is tens of MB).
 */
function recordButton(file: SavedFile, failed: (message: string) => void): HTMLButtonElement {
  const button = el('button', { className: 'link', text: file.label, attrs: { type: 'button' } });
  button.addEventListener('click', () => {
    button.disabled = true;
    file
      .content()
      .then((text) => download(file.name, text, file.type))
      .catch((error: unknown) => failed(error instanceof Error ? error.message : String(error)))
      .finally(() => (button.disabled = false));
  });
  return button;
}

/** `live`: the record is of the loaded input (its blocks point at requests on screen), not of a dropped file. */
interface RecordOf {
  live: boolean;
}

function originCell(origin: BlockOrigin | null, index: number, ctx: PanelContext, { live }: RecordOf): HTMLElement {
  const text = describeOrigin(index, origin ?? undefined);
  // Blocks of the loaded log point at a request: let the user jump there.
  if (live && origin?.request !== undefined && origin.request < ctx.view.requests.length) {
    const request = origin.request;
    return el('td', {}, [el('button', { className: 'link', text, attrs: { type: 'button' }, on: { click: () => ctx.selectRequest(request) } })]);
  }
  return el('td', { className: 'muted', text });
}

function renderRecord(host: HTMLElement, answer: DupesAnswer, ctx: PanelContext, of: RecordOf): void {
  const { record, groups, groupCount } = answer;
  host.append(
    el('p', {}, [el('span', { className: `dupes-verdict ${record.result}`, text: record.result.toUpperCase() }), ' ', verdictSentence(record, groupCount)]),
  );
  const summary: [string, string][] = [
    ['Blocks', `${formatCount(record.totals.blocks)} (${formatCount(record.totals.bytes)} bytes, ${formatCount(record.totals.tokens)} tokens)`],
    ['Wasted by copies', `${formatCount(record.totals.wastedBytes)} bytes, ${formatCount(record.totals.wastedTokens)} tokens`],
  ];
  // How the input was mapped to blocks is the contract's bookkeeping: kept, but behind a disclosure.
  const mapping: [string, string][] = [
    ['Mapping', record.mapping ?? '—'],
    ['Adapter', record.adapter ?? 'none'],
    ['Ignored parts', formatCount(record.ignoredParts)],
    ['Skipped records', formatCount(record.skippedRecords)],
  ];
  host.append(
    definitionList(summary),
    el('details', { className: 'dupes-about' }, [el('summary', { text: 'How the input was read' }), definitionList(mapping)]),
  );

  if (groups.length > 0) {
    const rows = groups.map((group: ShownGroup) =>
      el('tr', {}, [
        el('td', { className: 'mono', text: group.hash.slice(0, 16), attrs: { title: group.hash } }),
        ...[group.occurrences, group.copies, group.bytesPerBlock, group.tokensPerBlock, group.wastedBytes, group.wastedTokens].map((n) => numCell(formatCount(n))),
        originCell(group.first, group.indices[0] ?? 0, ctx, of),
        originCell(group.firstCopy, group.indices[1] ?? 0, ctx, of),
      ]),
    );
    const head = ['Content hash', 'Occurrences', 'Copies', 'Bytes/block', 'Tokens/block', 'Wasted bytes', 'Wasted tokens', 'First', 'First copy'];
    host.append(scrollingTable({ className: 'data', attrs: { 'aria-label': 'Exact duplicate blocks' }, headers: head, rows }));
    if (groupCount > groups.length) {
      host.append(el('p', { className: 'muted', text: `${formatCount(groupCount - groups.length)} more groups are in the JSON record.` }));
    }
  }
  const saved = (format: DupesExportParams['format']) => () => ctx.ask('dupes-export', { of: answer.source, format } satisfies DupesExportParams);
  const failure = el('p', { className: 'error', attrs: { hidden: '' } });
  const failed = (message: string): void => {
    failure.textContent = `The record could not be saved: ${message}`;
    failure.hidden = false;
  };
  host.append(
    el('div', { className: 'dupes-actions' }, [
      recordButton({ label: 'Download JSON record', name: 'ctxray-dupes.json', type: 'application/json', content: saved('json') }, failed),
      recordButton({ label: 'Download markdown report', name: 'ctxray-dupes.md', type: 'text/markdown', content: saved('markdown') }, failed),
    ]),
    failure,
  );
}

function definitionList(entries: [string, string][]): HTMLElement {
  return el('dl', { className: 'dupes-summary' }, entries.flatMap(([k, v]) => [el('dt', { text: k }), el('dd', { text: v })]));
}

/** One plain sentence in view; the contract's terms (record name, hashing, token rule, adapters) in a disclosure. */
function contractIntro(): HTMLElement[] {
  const plain = el('p', {
    className: 'muted',
    text: 'Blocks sent twice, byte for byte, inside one request (a file read twice, a tool result pasted again). The same record as `ctxray dupes`.',
  });
  const terms = el('p', {
    className: 'muted',
    text:
      'Exact whole-block duplicates under the ctxray.dupes/1 contract: SHA-256 of each block\'s UTF-8 bytes; tokens are ' +
      'unicode-whitespace v1.0, not model tokens; no billing, substring, semantic or truncation claim. Hashes are ' +
      'guessable pseudonyms, not anonymization. Same record as `ctxray dupes`. A request log is measured by what ' +
      'each conversation\'s last request carries: resending the history every turn is how these APIs work, so only ' +
      'a block repeated inside one request (a file read twice, a tool result pasted again) counts, and only when it is ' +
      'byte-identical; near-duplicates below are the separate, fuzzy measure. A file checked below may be a ' +
      '{"suite":"v1"} envelope, an openai-chat-v1 or conereplay-v1 adapter envelope, or a ConeReplay trace.',
  });
  return [plain, el('details', { className: 'dupes-about' }, [el('summary', { text: 'About this measure (the ctxray.dupes/1 contract)' }), terms])];
}

function renderFileChecker(host: HTMLElement, ctx: PanelContext): void {
  const result = el('div');
  const input = el('input', { attrs: { type: 'file', 'aria-label': 'Choose a file to check for duplicate blocks' } });
  const zone = el('div', { className: 'dupes-drop' }, [
    el('p', { text: 'Drop a duplicate-check envelope or a ConeReplay trace here (the formats are listed under “About this measure”) — or choose one:' }),
    input,
  ]);
  const show = (name: string, answer: DupesAnswer): void => {
    result.replaceChildren(el('h4', { text: `File: ${name}` }));
    renderRecord(result, answer, ctx, { live: false });
  };
  const check = (file: File): void => {
    result.replaceChildren(el('p', { className: 'muted', text: 'Checking…' }));
    ctx
      .ask('dupes', { file, name: file.name })
      .then((answer) => {
        fileResult = { name: file.name, answer };
        if (!ctx.signal.aborted) show(file.name, answer);
      })
      .catch((error: unknown) => {
        if (!ctx.signal.aborted) result.replaceChildren(el('p', { className: 'error', text: error instanceof Error ? error.message : String(error) }));
      });
  };
  input.addEventListener('change', () => {
    const file = input.files?.[0];
    if (file) check(file);
  });
  zone.addEventListener('dragover', (event) => {
    event.preventDefault();
    zone.classList.add('over');
  });
  zone.addEventListener('dragleave', () => zone.classList.remove('over'));
  zone.addEventListener('drop', (event) => {
    event.preventDefault();
    event.stopPropagation(); // this drop is for the panel, not a new main input
    zone.classList.remove('over');
    const file = event.dataTransfer?.files[0];
    if (file) check(file);
  });
  host.append(el('h3', { text: 'Check another file' }), zone, result);
  if (fileResult !== null) show(fileResult.name, fileResult.answer);
}

async function renderNearDuplicates(host: HTMLElement, ctx: PanelContext): Promise<void> {
  host.append(
    el('h2', { className: 'section-title', text: 'Near-duplicate content (a different measure)' }),
    el('p', {
      className: 'muted',
      text:
        'From the cache analysis, not the exact check: blocks in the last request of a conversation whose 5-word shingle ' +
        'sets are at least 85% similar (Jaccard): the same content with small edits, which the exact check above ' +
        'misses by design. Near, not exact — these groups do not change the verdict above.',
    }),
  );
  if (!ctx.view.sections.includes(NEAR_SECTION)) {
    host.append(el('p', { className: 'empty', text: 'No near-duplicate analysis for this input.' }));
    return;
  }
  // `section` answers a section as it is; this one is the near-duplicate groups of src/worker/view.ts.
  const groups = (await ctx.ask('section', { name: NEAR_SECTION })) as NearDuplicateGroupView[];
  if (ctx.signal.aborted) return;
  const cut = ctx.view.nearDuplicatesCut;
  if (cut !== null) {
    host.append(
      el('p', { className: 'notice near-cut' }, [
        'The search stopped at its work budget in ',
        el('button', { className: 'link', text: `request ${cut.request + 1}`, attrs: { type: 'button' }, on: { click: () => ctx.selectRequest(cut.request) } }),
        `: groups from there on may be missing (${formatCount(cut.requestsNotCompared)} later request(s) not compared).`,
      ]),
    );
  }
  if (groups.length === 0) {
    host.append(el('p', { className: 'empty', text: 'No near-duplicate groups.' }));
    return;
  }
  const rows = groups.slice(0, MAX_ROWS).map((group) => {
    const request = ctx.view.requests[group.requestIndex];
    const paths = group.segments.map((s) => request?.segments[s]?.path ?? `segment ${s}`).join(', ');
    return el('tr', {}, [
      el('td', {}, [
        el('button', {
          className: 'link',
          text: `request ${group.requestIndex + 1}`,
          attrs: { type: 'button' },
          // The group's first block, in the Tokens view of its request.
          on: { click: () => ctx.navigate({ request: group.requestIndex, panel: 'tokens', segment: request?.segments[group.segments[0] ?? -1]?.path ?? null }) },
        }),
      ]),
      numCell(formatCount(group.segments.length)),
      numCell(group.similarity.toFixed(2)),
      el('td', { className: 'mono path', text: paths }),
    ]);
  });
  host.append(scrollingTable({ className: 'data', attrs: { 'aria-label': 'Near-duplicate groups' }, headers: ['Request', 'Blocks', 'Min. similarity', 'Segments'], rows }));
}

export const duplicatesPanel: Panel = {
  id: 'duplicates',
  title: 'Duplicates',
  readsBodies: true,
  async render(container, ctx) {
    const exact = el('section', { className: 'dupes-measure exact' });
    const near = el('section', { className: 'dupes-measure near' });
    const file = el('section', { className: 'dupes-measure file' });
    container.append(exact, near, file);

    exact.append(el('h2', { className: 'section-title', text: 'Exact duplicate blocks' }), ...contractIntro());
    renderFileChecker(file, ctx);
    const nearDone = renderNearDuplicates(near, ctx).catch((error: unknown) => {
      if (!ctx.signal.aborted) near.append(el('p', { className: 'error', text: error instanceof Error ? error.message : String(error) }));
    });

    let pending = loadedAnswers.get(ctx.view);
    if (pending === undefined) {
      pending = ctx.ask('dupes');
      loadedAnswers.set(ctx.view, pending);
      pending.catch(() => loadedAnswers.delete(ctx.view));
    }
    const status = el('p', { className: 'muted', text: 'Measuring…' });
    exact.append(status);
    try {
      const answer = await pending;
      if (ctx.signal.aborted) return;
      status.remove();
      renderRecord(exact, answer, ctx, { live: true });
    } catch (error) {
      if (!ctx.signal.aborted) status.replaceWith(el('p', { className: 'error', text: error instanceof Error ? error.message : String(error) }));
    }
    await nearDone;
  },
};
