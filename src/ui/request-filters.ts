// The request table's filter controls: text over block paths and tool names, model, conversation, cache miss and
// finding. The miss, finding and conversation filters wait for the worker's `request-rows` answer.
import { el } from './dom.ts';
import type { MissCause, RequestRowsAnswer } from '../worker/handlers/request-rows.ts';
import type { AnalysisView } from '../worker/view-model.ts';
import { missLabel, type RequestFilter } from './request-table-data.ts';

export interface FilterControls {
  search: HTMLInputElement;
  /** The model filter (shown only when the requests name more than one model). */
  modelSelect: HTMLSelectElement;
  modelCount: number;
  conversationInput: HTMLInputElement;
  missSelect: HTMLSelectElement;
  findingSelect: HTMLSelectElement;
}

export function buildFilterControls(view: AnalysisView): FilterControls {
  const search = el('input', {
    className: 'rt-search',
    attrs: { type: 'search', placeholder: 'Filter: model, block path, tool', 'aria-label': 'Filter requests by model, block path or tool name', id: 'request-filter' },
  });
  const modelIds = [...new Set(view.requests.map((r) => r.model ?? ''))];
  const modelSelect = el('select', { attrs: { 'aria-label': 'Filter by model', id: 'request-filter-model' } }, [
    el('option', { text: 'All models', attrs: { value: '*' } }),
    ...modelIds.map((id) => el('option', { text: id === '' ? 'no model' : id, attrs: { value: id } })),
  ]);
  const conversationInput = el('input', {
    className: 'rt-conversation',
    attrs: { type: 'number', min: '1', placeholder: 'Conv.', 'aria-label': 'Filter by conversation number', id: 'request-filter-conversation', disabled: '' },
  });
  const missSelect = el('select', { attrs: { 'aria-label': 'Filter by cache miss', id: 'request-filter-miss', disabled: '' } }, [
    el('option', { text: 'Hits and misses', attrs: { value: 'any' } }),
    el('option', { text: 'Misses only', attrs: { value: 'misses' } }),
  ]);
  const findingSelect = el('select', { attrs: { 'aria-label': 'Filter by finding', id: 'request-filter-finding', disabled: '' } }, [
    el('option', { text: 'Any findings', attrs: { value: 'any' } }),
    el('option', { text: 'With a finding', attrs: { value: 'with' } }),
  ]);
  return { search, modelSelect, modelCount: modelIds.length, conversationInput, missSelect, findingSelect };
}

/** Tell `onChange` each change of a filter control, as the part of the filter it sets. */
export function bindFilterControls(controls: FilterControls, onChange: (change: Partial<RequestFilter>) => void): void {
  const { search, modelSelect, conversationInput, missSelect, findingSelect } = controls;
  let typing: number | undefined;
  search.addEventListener('input', () => {
    window.clearTimeout(typing);
    // Matching block paths walks every segment of every request: once the typing pauses, not per key.
    typing = window.setTimeout(() => onChange({ text: search.value }), 120);
  });
  modelSelect.addEventListener('change', () => onChange({ model: modelSelect.value === '*' ? null : modelSelect.value }));
  conversationInput.addEventListener('input', () => {
    const n = Number(conversationInput.value);
    onChange({ conversation: conversationInput.value !== '' && Number.isInteger(n) && n >= 1 ? n : null });
  });
  missSelect.addEventListener('change', () => onChange({ miss: missSelect.value }));
  findingSelect.addEventListener('change', () => onChange({ finding: findingSelect.value }));
}

/** The worker answered: the conversation, miss and finding filters open, with the causes and codes it found. */
export function enableRowFilters(controls: FilterControls, answer: RequestRowsAnswer): void {
  const { conversationInput, missSelect, findingSelect } = controls;
  conversationInput.disabled = false;
  conversationInput.max = String(answer.conversation.reduce((max, c) => Math.max(max, c + 1), 1));
  missSelect.disabled = false;
  findingSelect.disabled = false;
  const causes = [...new Set(answer.missCause.filter((c): c is MissCause => c !== null))];
  missSelect.append(...causes.map((c) => el('option', { text: `Miss: ${missLabel(c)}`, attrs: { value: c } })));
  findingSelect.append(...[...new Set(answer.findingCodes)].map((code) => el('option', { text: code, attrs: { value: code } })));
}
