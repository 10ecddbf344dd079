// The header: the brand (back to the start), what is on screen, the format and model pickers of an analysed input,
// and the actions (back to a folder's sessions, open files, copy a link).
import type { WireFormat } from '../core/model.ts';
import { formatCount } from '../render/format.ts';
import { el } from './dom.ts';
import { download } from './export.ts';
import { FORMAT_LABELS, sourceLabel, transcriptKinds } from './labels.ts';
import type { Message } from './notice.ts';
import { folderOf, loadedOf, type Loaded, type Screen } from './screen.ts';
import type { WorkerClient } from './worker-client.ts';

export interface HeaderContext {
  screen: Screen;
  format: WireFormat | undefined;
  model: string | undefined;
  /** What "Copy link" puts in a link (its tooltip). */
  linkTitle: string;
  home(): void;
  /** The user picked another format or model for the input on screen. */
  reanalyze(options: { format: WireFormat | undefined; model: string | undefined }): void;
  openFiles(): void;
  copyLink(): void;
  backToFolder(): void;
  /** Saves the analysis on screen as `ctxray analyze --json` (`record`) or `--html` (`html`) writes it. */
  exportAnalysis(format: 'record' | 'html'): void;
  /** "Compare with…": the input or folder on screen against another run (or two saved records). */
  compareWith(): void;
}

/** The worker builds the file (the CLI's own code); the page only downloads it, or says why it could not. */
export function saveAnalysis(client: Pick<WorkerClient, 'ask'>, format: 'record' | 'html', notify: (message: Message) => void): Promise<void> {
  return client.ask('analysis-export', { format }).then(
    (text) => (format === 'record' ? download('ctxray-analysis.json', text, 'application/json') : download('ctxray-report.html', text, 'text/html;charset=utf-8')),
    (error: unknown) => notify({ kind: 'error', text: `The ${format === 'record' ? 'record' : 'report'} could not be saved: ${error instanceof Error ? error.message : String(error)}` }),
  );
}

/**
 * "Export": the analysis record and the HTML report of a session, or the folder's record (which the worker made
 * with the folder's table). The tables export their own rows as CSV and JSON beside them.
 */
function exportMenu(ctx: HeaderContext, loaded: Loaded | null): HTMLElement | null {
  const folder = ctx.screen.kind === 'folder' ? ctx.screen.folder : null;
  if (loaded === null && folder === null) return null;
  const item = (text: string, id: string, title: string, run: () => void) =>
    el('button', { text, attrs: { type: 'button', 'data-export': id, title }, on: { click: () => run() } });
  const items = loaded
    ? [
        item('Analysis record (JSON)', 'ctxray-analysis-json', 'The ctxray.analysis record, as `ctxray analyze --json` writes it', () => ctx.exportAnalysis('record')),
        item('HTML report', 'ctxray-report-html', 'The self-contained report `ctxray analyze --html` writes (no script, no payload text)', () => ctx.exportAnalysis('html')),
      ]
    : [item('Folder record (JSON)', 'ctxray-folder-json', 'The folder\'s ctxray.analysis record, as `ctxray analyze <folder> --json` writes it', () => folder!.view.record !== '' && download('ctxray-folder.json', folder!.view.record, 'application/json'))];
  const menu = el('details', { className: 'export-menu', attrs: { id: 'export-menu' } }, [el('summary', { text: 'Export' }), el('div', { className: 'export-menu-items' }, items)]);
  // A choice closes the menu, as a menu does.
  menu.addEventListener('click', (event) => {
    if ((event.target as Element).closest('button') !== null) menu.open = false;
  });
  return menu;
}

function sourceInfo(screen: Screen, loaded: Loaded | null): HTMLElement {
  if (loaded) {
    const { source, view } = loaded;
    const read = transcriptKinds(view.files) ?? (view.formats.map((f) => FORMAT_LABELS[f]).join(', ') || 'no format');
    return el('div', { className: 'source' }, [
      // The view's one h1: what was opened (the start screen and the folder table have their own).
      el('h1', { className: 'source-name', text: sourceLabel(source), attrs: { title: sourceLabel(source) } }),
      source.kind === 'example' ? el('span', { className: 'badge', text: 'synthetic' }) : null,
      el('span', { className: 'muted', text: `${formatCount(view.requests.length)} request${view.requests.length === 1 ? '' : 's'} · ${read}` }),
    ]);
  }
  if (screen.kind === 'folder') {
    const { folder } = screen;
    return el('div', { className: 'source' }, [
      el('span', { className: 'source-name', text: folder.label, attrs: { title: folder.label } }),
      el('span', { className: 'muted', text: `folder · ${formatCount(folder.view.sessions.length)} sessions` }),
    ]);
  }
  return el('div', { className: 'source muted', text: 'Local-first X-ray of LLM agent requests' });
}

function formatPicker(ctx: HeaderContext): HTMLSelectElement {
  const select = el('select', { attrs: { id: 'format-picker', 'aria-label': 'Input format' } }, [
    el('option', { text: 'Format: detect', attrs: { value: 'auto' } }),
    ...(Object.keys(FORMAT_LABELS) as WireFormat[]).map((f) => el('option', { text: FORMAT_LABELS[f], attrs: { value: f } })),
  ]);
  select.value = ctx.format ?? 'auto';
  select.addEventListener('change', () => ctx.reanalyze({ format: select.value === 'auto' ? undefined : (select.value as WireFormat), model: ctx.model }));
  return select;
}

function modelPicker(ctx: HeaderContext, loaded: Loaded): HTMLSelectElement {
  const select = el('select', { attrs: { id: 'model-picker', 'aria-label': 'Model to count and price as' } }, [el('option', { text: 'Model: as in requests', attrs: { value: '' } })]);
  for (const provider of ['anthropic', 'openai'] as const) {
    const models = loaded.view.knownModels.filter((m) => m.provider === provider);
    if (models.length === 0) continue;
    const options = models.map((m) => el('option', { text: m.displayName === m.id ? m.id : `${m.displayName} (${m.id})`, attrs: { value: m.id } }));
    select.append(el('optgroup', { attrs: { label: provider === 'anthropic' ? 'Anthropic' : 'OpenAI' } }, options));
  }
  if (ctx.model && ![...select.options].some((o) => o.value === ctx.model)) select.append(el('option', { text: ctx.model, attrs: { value: ctx.model } }));
  select.value = ctx.model ?? '';
  select.addEventListener('change', () => ctx.reanalyze({ format: ctx.format, model: select.value === '' ? undefined : select.value }));
  return select;
}

export function renderHeader(header: HTMLElement, ctx: HeaderContext): void {
  const { screen } = ctx;
  const loaded = loadedOf(screen);
  const brand = el('a', { className: 'brand', attrs: { href: './', title: 'Start over' } }, [el('span', { className: 'brand-mark', attrs: { 'aria-hidden': 'true' } }), 'ctxray']);
  brand.addEventListener('click', (event) => {
    event.preventDefault();
    ctx.home();
  });
  const folder = folderOf(screen);
  const back = folder && loaded
    ? el('button', { className: 'folder-back', text: '← Sessions', attrs: { type: 'button', id: 'folder-back', title: `Back to the sessions in ${folder.label}` }, on: { click: () => ctx.backToFolder() } })
    : null;
  // On a phone the pickers and buttons fold behind "Options" (styles.css), so the picture starts on the first screen.
  const more = loaded
    ? el('button', { className: 'header-more', text: 'Options', attrs: { type: 'button', 'aria-expanded': 'false', 'aria-controls': 'header-options' } })
    : null;
  more?.addEventListener('click', () => more.setAttribute('aria-expanded', String(header.classList.toggle('options-open'))));
  header.classList.remove('options-open');
  const actions = el('div', { className: 'actions' }, [
    back,
    more,
    el('div', { className: 'header-options', attrs: { id: 'header-options' } }, [
      loaded ? formatPicker(ctx) : null,
      loaded ? modelPicker(ctx, loaded) : null,
      el('button', { text: 'Open…', attrs: { type: 'button', id: 'open-files', title: 'Open request files' }, on: { click: () => ctx.openFiles() } }),
      el('button', {
        // With a run on screen (or compared from one) the dialog picks the other side; else both.
        text: loaded || screen.kind === 'folder' || (screen.kind === 'compare' && screen.back.kind !== 'start') ? 'Compare with…' : 'Compare…',
        attrs: { type: 'button', id: 'compare-with', title: 'Before → after: this run against another (files, a folder or a saved analyze --json record)' },
        on: { click: () => ctx.compareWith() },
      }),
      loaded ? el('button', { text: 'Copy link', attrs: { type: 'button', id: 'copy-link', title: ctx.linkTitle }, on: { click: () => ctx.copyLink() } }) : null,
      exportMenu(ctx, loaded),
    ]),
  ]);
  header.classList.toggle('has-options', loaded !== null);
  header.replaceChildren(brand, sourceInfo(screen, loaded), actions);
}
