// The Clearing workspace: drop pi journals (files or a folder), the tool-history sidecar, routes, the
// qualification record and optional attestations; the worker runs the clearing analysis with sql.js and answers
// the text-free ctxray.clearing/1 record. Shown: the overall verdict, one card per API with its codes explained
// in plain words and every criterion's measured value next to its threshold, and the record itself.
import './clearing.css';
import { el } from '../dom.ts';
import { numCell } from '../data-table.ts';
import { API_CODES, CODE_MEANINGS, GLOBAL_CODES, type ApiCode, type GlobalCode } from '../../core/clearing/codes.ts';
import type { ClearingOutcome } from '../../core/clearing/analyze.ts';
import type { ApiRecord, ClearingRecord, Criterion } from '../../core/clearing/record.ts';
import type { ClearingFile, ClearingParams } from '../../worker/handlers/clearing.ts';
import type { ClearingRole } from '../../worker/handlers/clearing-roles.ts';
import type { Ask } from '../../worker/queries.ts';
import type { Panel } from './types.ts';

/** What the workspace needs from its host: the Clearing tab, or the start screen with no request log loaded. */
export interface WorkspaceContext {
  ask: Ask;
  signal: AbortSignal;
}

/** What each criterion measures, in plain words (thresholds come from the record). */
const CRITERION_LABELS: Record<Criterion['name'], string> = {
  pressured_boundaries: 'Pressured pre-turn boundaries (0.75·T ≤ estimate < T)',
  cold_pressured_boundaries: 'Cold pressured boundaries (gap > cache lifetime + margin)',
  admitting_share: 'Share of cold pressured boundaries admitting ≥ 20,000 new lower-bound net tokens',
  pressure_reduction: 'Modeled compaction-pressure reduction (supplied retrieval rate)',
  max_cost_increase: 'Largest modeled cost increase (all retrieval rates, list and quota views)',
  unintended_payload_differences: 'Unintended payload differences in offline qualification',
};

const RATIO_CRITERIA: ReadonlySet<Criterion['name']> = new Set(['admitting_share', 'pressure_reduction', 'max_cost_increase']);

/** Inputs chosen on the panel and the last result, kept across re-renders (selecting a request re-renders). */
const state: {
  journals: ClearingFile[];
  sidecar: ClearingFile | null;
  siblingNames: string[];
  routes: File | null;
  qualification: File | null;
  agentConfig: File | null;
  appAllowlist: File | null;
  retrievalRate: number | null;
  outcome: ClearingOutcome | null;
  error: string | null;
} = {
  journals: [],
  sidecar: null,
  siblingNames: [],
  routes: null,
  qualification: null,
  agentConfig: null,
  appAllowlist: null,
  retrievalRate: null,
  outcome: null,
  error: null,
};

function relativeName(file: File): string {
  return file.webkitRelativePath || file.name;
}

/**
 * A file input that shows the files already chosen for its role: a re-render (or files recognised in a dropped
 * folder) must not leave "No file chosen" beside a summary saying they are chosen.
 */
interface FileInputOptions {
  label: string;
  id: string;
  multiple?: boolean;
  folder?: boolean;
  /** The files already chosen for the role. */
  chosen: readonly Blob[];
  onChange: (files: File[]) => void;
}

function fileInput(options: FileInputOptions): HTMLElement[] {
  const { label, id, chosen, onChange } = options;
  const attrs: Record<string, string> = { type: 'file', id };
  if (options.multiple) attrs.multiple = '';
  if (options.folder) attrs.webkitdirectory = '';
  const input = el('input', { attrs, on: { change: () => onChange([...(input.files ?? [])]) } });
  const files = chosen.filter((blob): blob is File => blob instanceof File);
  if (files.length > 0 && typeof DataTransfer === 'function') {
    const transfer = new DataTransfer();
    for (const file of files) transfer.items.add(file);
    input.files = transfer.files;
  }
  return [el('label', { text: label, attrs: { for: id } }), input];
}

/** Fills the workspace from a dropped folder whose files the worker sorted by role (`clearing-roles`). */
export function prefillClearing(files: readonly ClearingFile[], roles: readonly ClearingRole[]): void {
  const withRole = (role: ClearingRole) => files.filter((_, i) => roles[i] === role);
  const single = (role: ClearingRole): File | null => {
    const blob = withRole(role)[0]?.blob;
    return blob instanceof File ? blob : null;
  };
  state.journals = withRole('journal');
  state.sidecar = withRole('sidecar')[0] ?? null;
  state.siblingNames = withRole('sidecar-companion').map((f) => f.name);
  state.routes = single('routes');
  state.qualification = single('qualification');
  state.agentConfig = single('agent-config');
  state.appAllowlist = single('app-allowlist');
  state.outcome = null;
  state.error = null;
}

function formatValue(criterion: Criterion): string {
  if (criterion.value === null) return 'not measurable';
  if (RATIO_CRITERIA.has(criterion.name)) return `${(criterion.value * 100).toFixed(1)}%`;
  return String(criterion.value);
}

function formatThreshold(criterion: Criterion): string {
  const symbol = criterion.comparison === 'at_least' ? '≥' : '≤';
  const value = RATIO_CRITERIA.has(criterion.name) ? `${(criterion.threshold * 100).toFixed(0)}%` : String(criterion.threshold);
  const conversations = criterion.conversationsThreshold !== undefined ? ` across ≥ ${criterion.conversationsThreshold} conversations` : '';
  return `${symbol} ${value}${conversations}`;
}

function criteriaTable(api: ApiRecord): HTMLElement {
  return el('table', { className: 'data' }, [
    el('thead', {}, [el('tr', {}, [el('th', { text: 'Criterion' }), el('th', { text: 'Measured' }), el('th', { text: 'Threshold' }), el('th', { text: 'Met' })])]),
    el(
      'tbody',
      {},
      api.criteria.map((criterion) =>
        el('tr', {}, [
          el('td', { text: CRITERION_LABELS[criterion.name] }),
          el('td', {
            className: 'num',
            text: `${formatValue(criterion)}${criterion.conversations !== undefined ? ` in ${criterion.conversations} conversations` : ''}`,
          }),
          numCell(formatThreshold(criterion)),
          el('td', { className: criterion.met ? 'met' : 'unmet', text: criterion.met ? 'yes' : 'no' }),
        ]),
      ),
    ),
  ]);
}

function codeList(codes: readonly (ApiCode | GlobalCode)[]): HTMLElement {
  return el(
    'ul',
    { className: 'clearing-codes' },
    codes.map((code) => el('li', {}, [el('span', { className: 'mono', text: code }), ' — ', CODE_MEANINGS[code]])),
  );
}

function verdictBadge(verdict: string): HTMLElement {
  return el('span', { className: `clearing-verdict v-${verdict}`, text: verdict });
}

function apiCard(api: ApiRecord): HTMLElement {
  const facts = [
    `${api.evidence.conversations} conversations`,
    `${api.usage.requests} requests (${api.usage.fallbackRequests} priced by the uncached fallback)`,
    `${api.identity.provenCandidates} of ${api.identity.plainTextCandidates} plain-text results with proven identity`,
    `retention ${api.retention.matched} of ${api.retention.proven} proven results matched`,
    `${api.model.admittedNetTokens.toLocaleString('en-US')} modeled admitted net tokens`,
  ];
  return el('section', { className: 'clearing-card', attrs: { 'data-api': api.api } }, [
    el('h3', {}, [el('span', { className: 'mono', text: api.api }), verdictBadge(api.verdict)]),
    api.codes.length > 0 ? codeList(api.codes) : el('p', { className: 'muted', text: 'Every BUILD criterion is met.' }),
    criteriaTable(api),
    el('p', { className: 'muted', text: facts.join(' · ') }),
  ]);
}

function summary(record: ClearingRecord): HTMLElement {
  const skipped = Object.entries(record.journals.skippedJournals).filter(([, count]) => count > 0).map(([reason, count]) => `${count} ${reason}`);
  const skippedBoundaries = Object.entries(record.boundaries.skippedBoundaries).filter(([, count]) => count > 0).map(([reason, count]) => `${count} ${reason.replace('_', ' ')}`);
  return el('div', {}, [
    el('h3', {}, ['Overall ', verdictBadge(record.verdict), record.complete ? '' : el('span', { className: 'error', text: ' incomplete snapshot' })]),
    record.codes.length > 0 ? codeList(record.codes) : null,
    record.inputErrors.length > 0
      ? el(
          'ul',
          { className: 'clearing-codes error' },
          record.inputErrors.map((error) => el('li', { text: `${error.input.replace('_', '-')}${error.at ? ` at ${error.at}` : ''}: ${error.reason.replaceAll('_', ' ')}` })),
        )
      : null,
    el('p', {
      className: 'muted',
      text:
        `${record.journals.contributing} of ${record.journals.selected} journals contributed` +
        (skipped.length ? ` (skipped: ${skipped.join(', ')})` : '') +
        ` · ${record.boundaries.evaluated} of ${record.boundaries.total} boundaries evaluated` +
        (skippedBoundaries.length ? ` (skipped: ${skippedBoundaries.join(', ')})` : '') +
        ` · qualification ${record.qualification.status}${record.qualification.piAiVersion ? ` (pi-ai ${record.qualification.piAiVersion})` : ''}` +
        ` · retrieval rate ${(record.assumptions.retrievalRate * 100).toFixed(1)}%. All figures are modeled, not observed.`,
    }),
  ]);
}

/** The record's download link; the previous object URL is revoked when a new one is made. */
let downloadUrl: string | null = null;

function resultView(outcome: ClearingOutcome): HTMLElement {
  const json = JSON.stringify(outcome.record, null, 2);
  if (downloadUrl !== null) URL.revokeObjectURL(downloadUrl);
  downloadUrl = URL.createObjectURL(new Blob([json], { type: 'application/json' }));
  const download = el('a', {
    text: 'Download the record (ctxray.clearing/1 JSON)',
    attrs: { download: 'clearing.json', href: downloadUrl },
  });
  return el('div', { className: 'clearing-result' }, [
    summary(outcome.record),
    ...outcome.record.apis.map(apiCard),
    el('p', {}, [download]),
    el('details', {}, [el('summary', { text: 'Record JSON (codes, counts and modeled numbers only)' }), el('pre', { text: json })]),
  ]);
}

function explanations(): HTMLElement {
  return el('details', {}, [
    el('summary', { text: 'What every code means' }),
    codeList([...GLOBAL_CODES, ...API_CODES]),
  ]);
}

async function run(ctx: WorkspaceContext, render: () => void): Promise<void> {
  const params: ClearingParams = {
    journals: state.journals,
    sidecar: state.sidecar,
    siblingNames: state.siblingNames,
    routes: state.routes,
    qualification: state.qualification,
    agentConfig: state.agentConfig,
    appAllowlist: state.appAllowlist,
    retrievalRate: state.retrievalRate,
  };
  state.error = null;
  try {
    state.outcome = await ctx.ask('clearing', params);
  } catch (error) {
    state.outcome = null;
    state.error = (error as Error).message;
  }
  render();
}

export const clearingPanel: Panel = {
  id: 'clearing',
  title: 'Clearing',
  showsRequest: false,
  render(container, ctx) {
    renderClearingWorkspace(container, ctx);
  },
};

/** The workspace in `container`; `analyzeNow` runs the analysis at once (a dropped case folder). */
export function renderClearingWorkspace(container: HTMLElement, ctx: WorkspaceContext, analyzeNow = false): void {
  {
    const draw = () => {
      if (ctx.signal.aborted) return;
      analyze.removeAttribute('disabled');
      status.textContent = '';
      container.replaceChildren(...content());
    };
    const status = el('span', { className: 'muted' });
    const analyze = el('button', {
      className: 'primary',
      text: 'Analyze clearing opportunity',
      attrs: { type: 'button' },
      on: {
        click: () => {
          analyze.setAttribute('disabled', '');
          status.textContent = 'Analyzing…';
          void run(ctx, draw);
        },
      },
    });
    const rate = el('input', {
      attrs: { type: 'number', id: 'clearing-rate', min: '0', max: '1', step: '0.01', placeholder: '0.05' },
      on: {
        change: () => {
          const value = rate.value.trim() === '' ? null : Number(rate.value);
          state.retrievalRate = value !== null && Number.isFinite(value) ? value : null;
        },
      },
    });
    if (state.retrievalRate !== null) rate.value = String(state.retrievalRate);
    const chosen = () =>
      `${state.journals.length} journal file${state.journals.length === 1 ? '' : 's'}, sidecar ${state.sidecar ? 'chosen' : 'missing'}, routes ${state.routes ? 'chosen' : 'missing'}, qualification ${state.qualification ? 'chosen' : 'missing'}`;
    const chosenLine = el('span', { className: 'muted', text: chosen() });
    const update = () => (chosenLine.textContent = chosen());

    function content(): Node[] {
      const form = el('div', { className: 'clearing-form' }, [
        ...fileInput({ label: 'Journals (files)', id: 'clearing-journals', multiple: true, chosen: state.journals.map((f) => f.blob), onChange: (files) => {
          state.journals = files.map((file) => ({ name: relativeName(file), blob: file }));
          update();
        } }),
        ...fileInput({ label: 'Journals (folder)', id: 'clearing-folder', folder: true, chosen: [], onChange: (files) => {
          state.journals = files.map((file) => ({ name: relativeName(file), blob: file }));
          update();
        } }),
        el('p', { className: 'hint muted', text: 'pi session files (.jsonl); a folder is searched recursively.' }),
        ...fileInput({ label: 'Sidecar (SQLite)', id: 'clearing-sidecar', multiple: true, chosen: state.sidecar ? [state.sidecar.blob] : [], onChange: (files) => {
          // Any -wal / -shm / -journal chosen with it refuses it, as on disk.
          const main = files.find((file) => !/-(wal|shm|journal)$/i.test(file.name)) ?? null;
          state.sidecar = main ? { name: main.name, blob: main } : null;
          state.siblingNames = files.filter((file) => file !== main).map((file) => file.name);
          update();
        } }),
        ...fileInput({ label: 'Routes (JSON)', id: 'clearing-routes', chosen: state.routes ? [state.routes] : [], onChange: (files) => ((state.routes = files[0] ?? null), update()) }),
        ...fileInput({ label: 'Qualification (JSON)', id: 'clearing-qualification', chosen: state.qualification ? [state.qualification] : [], onChange: (files) => ((state.qualification = files[0] ?? null), update()) }),
        ...fileInput({ label: 'Agent config (optional)', id: 'clearing-agent', chosen: state.agentConfig ? [state.agentConfig] : [], onChange: (files) => (state.agentConfig = files[0] ?? null) }),
        ...fileInput({ label: 'App allowlist (optional)', id: 'clearing-allowlist', chosen: state.appAllowlist ? [state.appAllowlist] : [], onChange: (files) => (state.appAllowlist = files[0] ?? null) }),
        el('label', { text: 'Retrieval rate', attrs: { for: 'clearing-rate' } }),
        rate,
        el('div', { className: 'clearing-actions' }, [analyze, chosenLine, status]),
      ]);
      return [
        el('p', {
          className: 'muted',
          text: 'Would clearing old tool results pay off? BUILD / DEFER / STOP per API from offline copies of pi journals and a checkpointed tool-history sidecar. Files stay in this tab; the answer holds codes and numbers only.',
        }),
        form,
        state.error ? el('p', { className: 'error', text: state.error }) : null,
        state.outcome ? resultView(state.outcome) : null,
        explanations(),
      ].filter((node): node is HTMLElement => node !== null);
    }
    draw();
    if (analyzeNow) analyze.click();
  }
}
