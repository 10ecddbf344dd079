// node --import tsx scripts/claude-estimate-features.ts <requests.jsonl> <recorded.jsonl> > tests/tokens/data/claude-usage-features.jsonl
// The Claude estimate's inputs, per recorded request: what the fit in tests/tokens/claude-fit.ts weighs (o200k_base
// counts by text kind, messages, tool calls, the hidden tool prompt's group, images by the pixel rule, PDF pages...),
// the recorded prompt and the shipped estimate, with the request's provenance. No payload text leaves the bodies.
// <requests.jsonl>: one Anthropic Messages body a line; <recorded.jsonl>: line for line {project, repo, path, commit,
// interaction, prompt}. Both stay outside the repository (third-party payloads; docs/tokens.md says how they were read).
import { readFileSync } from 'node:fs';
import { analyzeInput } from '../src/core/analysis/analyze.ts';
import { RESPONSE_FORMAT_PATHS } from '../src/core/formats/response-format.ts';
import type { ParsedRequest, Segment } from '../src/core/model.ts';
import {
  CLAUDE_UNKNOWN_IMAGE_SIZE,
  claudeImageTokens,
  claudeToolPromptGroup,
  isCodeLikeText,
  keepsEarlierThinking,
  TASK_BUDGET_PATH,
  toolsReferencedByConversation,
  usageMeasuresOtherPrompt,
  usesNewTokenizer,
} from '../src/core/tokens/claude.ts';
import { pdfPageCount } from '../src/core/tokens/media.ts';
import { loadEncoding, renderResponseFormat } from '../src/core/tokens/openai.ts';

interface Recorded {
  project: string;
  repo: string;
  path: string;
  commit: string;
  interaction: number;
  prompt: number;
}

const [requestsFile, recordedFile] = process.argv.slice(2);
if (!requestsFile || !recordedFile) {
  console.error('usage: claude-estimate-features.ts <requests.jsonl> <recorded.jsonl>');
  process.exit(1);
}
const text = readFileSync(requestsFile, 'utf8');
const recorded = readFileSync(recordedFile, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Recorded);
const analysis = await analyzeInput([{ name: 'requests.jsonl', bytes: new TextEncoder().encode(text) }], { format: 'anthropic-messages' });
const o200k = await loadEncoding('o200k_base');

function isDeferred(segment: Segment): boolean {
  return segment.category === 'tools' && segment.messageIndex < 0 && /"defer_loading"\s*:\s*true/.test(segment.wire);
}

function lastUserTurn(request: ParsedRequest): number {
  let last = -1;
  for (const s of request.segments) if (s.role === 'user' && s.category !== 'tool_result' && s.messageIndex > last) last = s.messageIndex;
  return last;
}

function features(request: ParsedRequest) {
  const f = { prose: 0, code: 0, tools: 0, thinking: 0, segments: 0, images: 0, inlineImages: 0, unknownImages: 0, pdfPages: 0, unknownDocuments: 0, textDocuments: 0, outputFormats: 0, taskBudgets: 0 };
  const add = (value: string, kind?: 'tools' | 'thinking'): void => {
    if (value === '') return;
    f.segments++;
    f[kind ?? (isCodeLikeText(value) ? 'code' : 'prose')] += o200k(value);
  };
  const strippedBefore = keepsEarlierThinking(request.model) ? -1 : lastUserTurn(request);
  const loaded = request.segments.some(isDeferred) ? toolsReferencedByConversation(request.segments) : null;
  for (const segment of request.segments) {
    if (segment.category === 'thinking' && segment.messageIndex < strippedBefore) continue;
    if (loaded !== null && isDeferred(segment) && !loaded.has(segment.toolName ?? '')) continue;
    if (RESPONSE_FORMAT_PATHS.has(segment.path)) {
      f.outputFormats++;
      add(renderResponseFormat(JSON.parse(segment.wire))?.schema ?? segment.text);
    } else if (segment.path === TASK_BUDGET_PATH) f.taskBudgets++;
    else if (segment.category === 'tools') add(segment.text, 'tools');
    else if (segment.category === 'tool_call') {
      add(segment.toolName ?? '');
      add(segment.text);
    } else if (segment.category === 'thinking') add(segment.text, 'thinking');
    else if (segment.category === 'image') {
      if (segment.media?.width == null) f.unknownImages++;
      else f.inlineImages++;
      f.images += claudeImageTokens(segment.media?.width ?? CLAUDE_UNKNOWN_IMAGE_SIZE.width, segment.media?.height ?? CLAUDE_UNKNOWN_IMAGE_SIZE.height);
    } else if (segment.category === 'document') {
      const pages = pdfPageCount(segment.wire);
      if (pages === null && segment.text !== '') {
        f.textDocuments++;
        add(segment.text);
      } else {
        if (pages === null) f.unknownDocuments++;
        f.pdfPages += pages ?? 1;
      }
    } else add(segment.text);
  }
  const hasTools = request.segments.some((s) => s.category === 'tools');
  const choice = /^(?:any|tool)\b/.test(request.options.toolChoice ?? 'auto') ? 'any' : 'auto';
  const thinking = request.options.thinking ?? '';
  return {
    newTokenizer: usesNewTokenizer(request.model),
    toolPrompt: hasTools ? `${claudeToolPromptGroup(request.model)}:${choice}` : null,
    thinkingMode: /^enabled\b/.test(thinking) ? 'enabled' : /^adaptive\b/.test(thinking) ? 'adaptive' : null,
    messages: request.messageCount,
    toolCalls: request.segments.filter((s) => s.category === 'tool_call').length,
    ...f,
  };
}

analysis.requests.forEach((request, i) => {
  const row = recorded[request.line - 1];
  if (!row) return;
  const tokens = analysis.tokens[i]!;
  const excluded = usageMeasuresOtherPrompt(request) || tokens.notes.includes('server_tool_not_modelled');
  if (excluded) return;
  const { project, repo, path, commit, interaction, prompt } = row;
  console.log(JSON.stringify({ project, repo, path, commit: commit.slice(0, 12), interaction, model: request.model, recorded: prompt, shipped: tokens.total, ...features(request) }));
});
