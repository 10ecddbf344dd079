// Builds the text-free AnalysisView the page renders from the core Analysis (which keeps the text in the worker).
import { unrecordedParts } from '../core/cache/unrecorded-setup.ts';
import type { Analysis } from '../core/analysis/types.ts';
import { allUsageOnly, recordedPromptTokens, type ParsedRequest, type WireFormat } from '../core/model.ts';
import { MODELS } from '../core/pricing/table.ts';
import type { AnalysisView, RequestView, SectionName, SegmentView } from './view-model.ts';
import { visibleId } from '../core/text/invisible.ts';
import { openingRequest } from './opening.ts';

/** Core Analysis fields that are the base view (or carry text); every other defined field is an optional section. */
const BASE_FIELD_NAMES = [
  'generatedBy',
  'pricedOn',
  'files',
  'requests',
  'models',
  'tokens',
  'segmentTokens',
  'overheadTokens',
  'totals',
  'modelUse',
  'errors',
  'distinctTexts',
  // Calls dropped as copies of earlier files' calls: the CLI reports them; the app's views do not show them yet.
  'duplicateCalls',
] as const;
const BASE_FIELDS: ReadonlySet<string> = new Set(BASE_FIELD_NAMES);

/** Fails to compile when the Analysis gains (or loses) a field that is neither base nor a listed SectionName. */
type Sections = Exclude<keyof Analysis, (typeof BASE_FIELD_NAMES)[number]>;
const SECTIONS_ARE_LISTED: [Sections] extends [SectionName] ? ([SectionName] extends [Sections] ? true : never) : never = true;
void SECTIONS_ARE_LISTED;

export function sectionsOf(analysis: Analysis): Record<string, unknown> {
  const sections: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(analysis)) {
    if (!BASE_FIELDS.has(key) && value !== undefined && value !== null) sections[key] = value;
  }
  return sections;
}

/** Tool name per call id from the request's tool calls, so a tool result can be labelled with its tool. */
function toolNamesByCall(request: ParsedRequest): Map<string, string> {
  const names = new Map<string, string>();
  for (const segment of request.segments) {
    if (segment.category === 'tool_call' && segment.callId !== null && segment.toolName !== null) names.set(segment.callId, segment.toolName);
  }
  return names;
}

function nullableLabel(id: string | null): string | null {
  return id === null ? null : visibleId(id);
}

/**
 * The system prompt and tools the transcript did not record, sized from recorded usage: one more segment after
 * the request's own, so the treemap, the segment table and the totals show it. It has no path, bytes or text.
 */
function unrecordedSetupSegment(tokens: number): SegmentView[] {
  if (tokens <= 0) return [];
  return [{ category: 'setup_inferred', path: '', tokens, bytes: 0, hash: '', cacheMarker: null, messageIndex: -1, role: null, toolName: null }];
}

export function buildView(analysis: Analysis): AnalysisView {
  const requests: RequestView[] = analysis.requests.map((request, i) => {
    const tokens = analysis.tokens[i];
    const model = analysis.models[i];
    const callNames = toolNamesByCall(request);
    return {
      index: request.index,
      line: request.line,
      file: request.file,
      format: request.format,
      // Ids come from the input: bidi and control characters become visible ⟨U+XXXX⟩ labels in every cell and picker.
      model: nullableLabel(model?.id ?? request.model),
      exact: tokens?.exact ?? false,
      band: tokens?.band ?? null,
      total: tokens?.total ?? 0,
      overhead: tokens?.overheadTotal ?? 0,
      byCategory: tokens?.byCategory ?? {},
      messageCount: request.messageCount,
      notes: request.notes.map((note) => note.code),
      recordedPrompt:
        request.recorded === null
          ? null
          : recordedPromptTokens(request.recorded),
      segments: [
        ...request.segments.map((segment, j): SegmentView => ({
        category: segment.category,
        path: segment.path,
        tokens: tokens?.segments[j] ?? 0,
        bytes: segment.bytes,
        hash: segment.hash,
        cacheMarker: segment.cacheMarker,
        messageIndex: segment.messageIndex,
        role: segment.role,
          toolName: segment.toolName ?? (segment.callId !== null ? (callNames.get(segment.callId) ?? null) : null),
        })),
        ...unrecordedSetupSegment(tokens?.byCategory.setup_inferred ?? 0),
      ],
      unrecorded: unrecordedParts(request),
    };
  });
  const formats: WireFormat[] = [];
  for (const request of analysis.requests) if (!formats.includes(request.format)) formats.push(request.format);
  return {
    files: analysis.files.map((file) => ({
      name: file.name,
      format: file.format,
      envelope: file.envelope,
      records: file.records,
      requests: file.requests,
      errors: file.errors,
    })),
    requests,
    errors: analysis.errors,
    totals: {
      total: analysis.totals.tokens,
      exact: analysis.totals.requests > 0 && analysis.totals.exactRequests === analysis.totals.requests,
      byCategory: analysis.totals.byCategory,
    },
    formats,
    sections: Object.keys(sectionsOf(analysis)) as SectionName[],
    usageOnly: allUsageOnly(analysis.requests),
    nearDuplicatesCut: analysis.cache?.nearDuplicatesCut ? { ...analysis.cache.nearDuplicatesCut } : null,
    initialRequest: openingRequest(
      analysis.requests,
      requests.map((r) => r.total),
    ),
    models: analysis.modelUse.map((use) => ({ ...use, id: nullableLabel(use.id) })),
    pricedOn: analysis.pricedOn,
    // The picker groups by API; Gemini rows (Chat-rebuilt, OpenAI cache mechanics) are priced, not offered there.
    knownModels: MODELS.filter((m) => m.vendor !== 'google').map((m) => ({ id: m.id, displayName: m.displayName, provider: m.provider })),
  };
}
