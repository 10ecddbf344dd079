// `ctxray analyze --html <out>`: one self-contained HTML file (inline CSS, inline SVG treemap, no script at all)
// with the findings, the treemap of the largest request, the cache table, the conversations and the prefix diffs.
// Its own Content-Security-Policy allows nothing but its one stylesheet (by hash), so it works offline and cannot
// fetch or send anything. Payload-derived text (tool names, block text) appears only with `content: true`, and
// every string that reaches the page is HTML-escaped.
import { unrecordedParts } from '../../core/cache/unrecorded-setup.ts';
import { createHash } from 'node:crypto';
import type { Analysis } from '../../core/analysis/types.ts';
import type { CacheAnalysis, Finding } from '../../core/cache/index.ts';
import { diffSegments } from '../../core/cache/prefix.ts';
import { actualText, basisText, costHeadline, unpricedText } from '../../core/cache/headline.ts';
import { isCoarse, type DiffHunk } from '../../core/cache/myers.ts';
import { CATEGORIES, type Category, type ParsedRequest } from '../../core/model.ts';
import { visibleLabel } from '../../core/text/invisible.ts';
import { CATEGORY_COLOURS, CATEGORY_LABELS, LABEL_INK } from '../../render/palette.ts';
import { layoutTreemap } from '../../render/treemap-layout.ts';
import { formatCategoryTokens, formatCount, formatTokens, formatUsd, unrecordedSetupText } from '../../render/format.ts';

export interface HtmlReportOptions {
  /** Show tool names and block text excerpts (the user asked for content). */
  content: boolean;
}

/** At most this many request diffs are drawn; the rest are counted. */
export const MAX_DIFFS = 40;
/** Unchanged runs longer than this are folded to their first and last lines. */
const FOLD_EQUAL = 6;
/** Lines drawn per diff; the rest is counted in one closing line. */
export const MAX_DIFF_LINES = 500;
const EXCERPT_CHARS = 160;
const TREEMAP_WIDTH = 960;
const TREEMAP_HEIGHT = 420;


/**
 * Every string the report writes from the input goes through here: markup characters become entities, and bidi,
 * invisible and control characters (ESC, BEL, U+202E, …) visible ⟨U+XXXX⟩ labels, so `cat report.html` cannot
 * drive a terminal and no id can reorder the page.
 */
export function escapeHtml(text: string): string {
  // A carriage return becomes the newline a browser reads it as anyway (HTML parsing turns CR and CRLF into LF), so
  // none reaches a terminal the report is printed to.
  return visibleLabel(text)
    .replace(/\r\n?/g, '\n')
    .replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

function usd(value: number | null): string {
  return value === null ? 'n/a' : formatUsd(value);
}

export function renderHtmlReport(analysis: Analysis, cache: CacheAnalysis, options: HtmlReportOptions): string {
  const style = stylesheet();
  const styleHash = createHash('sha256').update(style, 'utf8').digest('base64');
  const csp = `default-src 'none'; style-src 'sha256-${styleHash}'; img-src 'none'; base-uri 'none'; form-action 'none'`;
  const body = [
    header(analysis, cache),
    findingsSection(cache.findings, unpricedText(costHeadline(cache.cost.billed.totals, analysis.modelUse)), options),
    costSection(cache),
    missesSection(cache),
    treemapSection(analysis),
    cacheTableSection(analysis, cache),
    conversationsSection(analysis, cache),
    nearDuplicatesSection(analysis, cache),
    diffSection(analysis, cache, options),
  ]
    .join('\n')
    // Wide tables scroll inside themselves at phone widths; a scrolling region must take keyboard focus (axe).
    .replaceAll('<table>', '<table tabindex="0">');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>ctxray report</title>
<style>${style}</style>
</head>
<body>
${body}
</body>
</html>
`;
}

function stylesheet(): string {
  const swatches = CATEGORIES.map(
    (c) => `.c-${c}{background:${CATEGORY_COLOURS[c]};color:${LABEL_INK[c]}}.f-${c}{fill:${CATEGORY_COLOURS[c]}}`,
  ).join('');
  return [
    ':root{color-scheme:light dark;--fg:#1d1f23;--bg:#fbfbfa;--muted:#5d6470;--line:#d9dce1;--err:#b3261e;--warn:#8a5a00;--info:#2f5f98}',
    '@media (prefers-color-scheme:dark){:root{--fg:#e7e9ee;--bg:#16181d;--muted:#a3aab5;--line:#343841;--err:#ff8a80;--warn:#f3c56b;--info:#8ab4f8}}',
    'body{font:14px/1.45 system-ui,sans-serif;color:var(--fg);background:var(--bg);margin:0 auto;max-width:1100px;padding:1.5rem}',
    'h1{font-size:1.4rem;margin:0 0 .25rem}h2{font-size:1.1rem;margin:2rem 0 .5rem;border-bottom:1px solid var(--line);padding-bottom:.25rem}',
    '.muted{color:var(--muted)}table{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums}',
    'th,td{text-align:right;padding:.2rem .45rem;border-bottom:1px solid var(--line)}th:first-child,td:first-child,.l{text-align:left}',
    '.finding{border-left:4px solid var(--line);padding:.35rem .75rem;margin:.5rem 0}.finding p{margin:.2rem 0}',
    '.sev-error{border-color:var(--err)}.sev-warning{border-color:var(--warn)}.sev-info{border-color:var(--info)}',
    '.tag{font:12px ui-monospace,monospace;padding:0 .3rem;border:1px solid var(--line);border-radius:3px}',
    '.sw{display:inline-block;padding:0 .4rem;border-radius:3px;margin:0 .25rem .25rem 0;font-size:12px}',
    'svg{max-width:100%;height:auto;display:block}',
    'pre{font:12px/1.4 ui-monospace,monospace;overflow-x:auto;border:1px solid var(--line);padding:.4rem;margin:.3rem 0 1rem}',
    '.add{color:#2e7d32}.del{color:var(--err)}.fold{color:var(--muted)}',
    '@media (prefers-color-scheme:dark){.add{color:#81c784}}',
    '@media (max-width:700px){body{padding:.75rem}table{display:block;overflow-x:auto;width:auto;max-width:100%}}',
    swatches,
  ].join('\n');
}

function header(analysis: Analysis, cache: CacheAnalysis): string {
  const requests = analysis.requests.length;
  const models = analysis.modelUse
    .map((m) => `${escapeHtml(m.id ?? 'no model')} (${formatCount(m.requests)}${m.known ? '' : ', not priced'})`)
    .join(', ');
  const ttl = cache.cost.actual.simulation.assumedWithinTtl
    ? '<p class="muted">Some requests carry no timestamp: they are assumed to arrive within every cache entry\'s TTL.</p>'
    : '';
  return `<header>
<h1>ctxray report</h1>
<p class="muted">${escapeHtml(analysis.generatedBy)} · prices as of ${escapeHtml(analysis.pricedOn)} · Claude token counts are estimates (≈) · cache figures and cost are the recorded usage where the log records it, else a simulation of the providers' documented rules</p>
<p>${formatCount(requests)} request${requests === 1 ? '' : 's'} in ${formatCount(cache.conversations.count)} conversation${cache.conversations.count === 1 ? '' : 's'} · models: ${models || 'none'}</p>
${headlineParagraph(analysis, cache)}
${ttl}
</header>`;
}

/** What was paid and on which basis, and the unpriced models, before anything else. */
function headlineParagraph(analysis: Analysis, cache: CacheAnalysis): string {
  const headline = costHeadline(cache.cost.billed.totals, analysis.modelUse);
  const unpriced = unpricedText(headline);
  return `<p class="headline"><strong>Actual ${escapeHtml(actualText(headline))}</strong> (${escapeHtml(basisText(headline))})${unpriced === null ? '' : ` · <strong class="unpriced">${escapeHtml(unpriced)}</strong>`}</p>`;
}

function findingsSection(findings: readonly Finding[], unpriced: string | null, options: HtmlReportOptions): string {
  if (findings.length === 0) {
    return unpriced === null
      ? '<section><h2>Findings</h2><p>No findings: the optimized cost equals the actual cost, so this sequence caches cleanly.</p></section>'
      : `<section><h2>Findings</h2><p>No findings, but the cost is incomplete: ${escapeHtml(unpriced)}.</p></section>`;
  }
  const items = findings.map((finding) => {
    const detail = options.content && finding.detail !== null ? `<p class="muted">${escapeHtml(visibleLabel(finding.detail))}</p>` : '';
    const where = finding.segmentPath === null ? '' : ` · <span class="tag">${escapeHtml(finding.segmentPath)}</span>`;
    return `<div class="finding sev-${finding.severity}">
<p><strong>${escapeHtml(finding.severity)}</strong> · <span class="tag">${escapeHtml(finding.code)}</span>${where}</p>
<p>${escapeHtml(finding.message)}</p>${detail}
<p class="muted">Fix: ${escapeHtml(finding.fix)}</p>
<p class="muted">Requests: ${finding.requests.map((r) => `<a href="#request-${r + 1}">${r + 1}</a>`).join(' ')}</p>
</div>`;
  });
  const counts = (['error', 'warning', 'info'] as const)
    .map((severity) => [severity, findings.filter((f) => f.severity === severity).length] as const)
    .filter(([, count]) => count > 0)
    .map(([severity, count]) => `${count} ${severity}${count === 1 ? '' : 's'}`)
    .join(', ');
  return `<section><h2>Findings (${counts})</h2>\n${items.join('\n')}</section>`;
}

function costSection(cache: CacheAnalysis): string {
  const { actual, billed, optimizedCost, potentialSavings, savingsFraction, projection } = cache.cost;
  const unpriced =
    billed.totals.unpriced > 0
      ? `<p class="muted">${formatCount(billed.totals.unpriced)} request(s) name a model with no price entry: not priced.</p>`
      : '';
  const output =
    actual.totals.outputRecorded < cache.cost.actual.costs.length
      ? '<p class="muted">Output tokens are priced only where the log records them; elsewhere they count as 0.</p>'
      : '';
  const inferred = cache.inferred.markers.filter((marker) => marker !== null).length;
  const transcript =
    (inferred > 0
      ? `<p class="muted">${formatCount(inferred)} request(s) come from a log that does not record cache breakpoints: the simulation puts one on each request's tail, with the TTL the recorded writes show.</p>`
      : '') +
    (cache.inferred.uninferred > 0
      ? `<p class="muted">${formatCount(cache.inferred.uninferred)} Claude request(s) come from a log that records no breakpoint and whose recorded usage shows none to infer: simulated with none.</p>`
      : '');
  return `<section><h2>Cost</h2>
<table><tbody>
<tr><th class="l">Actual (${escapeHtml(basisText(billed.totals))})</th><td>${usd(billed.totals.total)}</td></tr>
<tr><th class="l">Optimized (the actual cost minus what normalizing volatile values, sorting keys and tools and an Anthropic tail breakpoint would avoid)</th><td>${usd(optimizedCost)}</td></tr>
<tr><th class="l">Potential savings</th><td>${usd(potentialSavings)} (${(savingsFraction * 100).toFixed(1)}%)</td></tr>
<tr><th class="l">Projection to ${formatCount(projection.sessions)} sessions like this one (a plain multiplication)</th><td>${usd(projection.actual)} → ${usd(projection.optimized)}</td></tr>
<tr><th class="l">Simulated as sent (the model beside the record)</th><td>${usd(actual.totals.total)}</td></tr>
</tbody></table>${unpriced}${output}${transcript}</section>`;
}

function missesSection(cache: CacheAnalysis): string {
  const { summary } = cache.misses;
  if (summary.length === 0) return '';
  const rows = summary
    .map((row) => `<tr><td class="l"><span class="tag">${escapeHtml(row.cause)}</span></td><td>${formatCount(row.count)}</td><td>${formatCount(row.tokens)}</td><td>${usd(row.cost)}</td></tr>`)
    .join('\n');
  return `<section><h2>Cache misses by cause</h2>
<table><thead><tr><th class="l">Cause</th><th>Requests</th><th>Tokens re-sent</th><th>Cost over a hit</th></tr></thead>
<tbody>
${rows}
</tbody></table>
<p class="muted">A miss: a request read less than half of what the request it follows could have given it (recorded usage where the log has it, else the simulation). The causes are explained in docs/cache.md.</p></section>`;
}

/** The request with the most tokens, drawn as a squarified treemap of its segments. */
function treemapSection(analysis: Analysis): string {
  if (analysis.requests.length === 0) return '';
  let largest = 0;
  analysis.tokens.forEach((t, i) => {
    if (t.total > (analysis.tokens[largest]?.total ?? 0)) largest = i;
  });
  const request = analysis.requests[largest]!;
  const counts = analysis.tokens[largest]!;
  // The setup the transcript did not record is one more rectangle, sized from recorded usage (≈, inferred).
  const setup = counts.byCategory.setup_inferred ?? 0;
  const items = request.segments.map((segment, i) => ({ category: segment.category, tokens: counts.segments[i] ?? 0 }));
  if (setup > 0) items.push({ category: 'setup_inferred', tokens: setup });
  const cells = layoutTreemap(items, TREEMAP_WIDTH, TREEMAP_HEIGHT);
  const rects = cells
    .map((cell) => {
      const segment = request.segments[cell.segment];
      const label =
        segment === undefined
          ? unrecordedSetupText(setup, unrecordedParts(request))
          : `${segment.path} · ${CATEGORY_LABELS[segment.category]} · ${formatTokens(counts.segments[cell.segment] ?? 0, counts.exact)} tokens`;
      return `<rect class="f-${cell.category}" x="${cell.x0.toFixed(1)}" y="${cell.y0.toFixed(1)}" width="${Math.max(0, cell.x1 - cell.x0).toFixed(1)}" height="${Math.max(0, cell.y1 - cell.y0).toFixed(1)}"><title>${escapeHtml(label)}</title></rect>`;
    })
    .join('');
  const present = new Set<Category>(items.map((item) => item.category));
  const legend = CATEGORIES.filter((c) => present.has(c))
    .map((c) => `<span class="sw c-${c}">${escapeHtml(CATEGORY_LABELS[c])} ${formatCategoryTokens(counts.byCategory[c] ?? 0, c, counts.exact)}</span>`)
    .join('');
  return `<section><h2>Tokens of request ${largest + 1} (the largest, ${formatTokens(counts.total, counts.exact)} tokens)</h2>
<p>${legend}</p>
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${TREEMAP_WIDTH} ${TREEMAP_HEIGHT}" role="img" aria-label="Treemap of request ${largest + 1}'s segments by tokens">${rects}</svg>
<p class="muted">Each rectangle is one block, sized by tokens and coloured by category; hover for its path.${
    setup > 0 ? ` The transcript does not record all the agent sent: ${escapeHtml(unrecordedSetupText(setup, unrecordedParts(request)))}.` : ''
  }</p></section>`;
}

function cacheTableSection(analysis: Analysis, cache: CacheAnalysis): string {
  const rows = analysis.requests.map((request, i) => {
    const simulated = cache.cost.actual.simulation.requests[i];
    const billed = cache.cost.billed.requests[i];
    const recorded = billed?.basis === 'recorded';
    // Recorded figures are the provider's own count: exact, whatever the tokenizer.
    const exact = recorded || (analysis.tokens[i]?.exact ?? false);
    const kind = cache.conversations.kind[i] ?? 'new';
    const compared = cache.conversations.continues[i];
    const link = compared === null || compared === undefined ? kind : `${kind} ${compared + 1}`;
    const cell = (value: number | undefined) => `<td>${formatTokens(value ?? 0, exact)}</td>`;
    const prompt = billed === undefined ? 0 : billed.read + billed.write5m + billed.write1h + billed.uncached;
    return `<tr id="request-${i + 1}"><td>${i + 1}</td><td class="l">${(cache.conversations.conversationOf[i] ?? 0) + 1}</td><td class="l">${escapeHtml(link)}</td><td class="l">${escapeHtml(request.model ?? '—')}</td><td class="l">${recorded ? 'recorded' : 'simulated'}</td>${cell(prompt)}${cell(billed?.read)}${cell(billed?.write5m)}${cell(billed?.write1h)}${cell(billed?.uncached)}<td>${(billed?.read ?? 0) > 0 ? 'hit' : 'miss'}</td><td>${usd(billed?.cost.total ?? null)}</td><td>${usd(billed?.optimizedCost ?? null)}</td><td>${formatTokens(simulated?.read ?? 0, analysis.tokens[i]?.exact ?? false)}</td><td>${usd(cache.cost.actual.costs[i]?.total ?? null)}</td></tr>`;
  });
  return `<section><h2>Cache, request by request</h2>
<table><thead><tr><th>#</th><th class="l">Conv.</th><th class="l">Link</th><th class="l">Model</th><th class="l">Basis</th><th>Prompt</th><th>Read</th><th>Write 5m</th><th>Write 1h</th><th>Uncached</th><th>Cache</th><th>Cost</th><th>Optimized</th><th>Simulated read</th><th>Simulated cost</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody></table></section>`;
}

function conversationsSection(analysis: Analysis, cache: CacheAnalysis): string {
  if (cache.conversations.count <= 1) return '';
  const members: number[][] = Array.from({ length: cache.conversations.count }, () => []);
  cache.conversations.conversationOf.forEach((c, r) => members[c]!.push(r));
  const rows = members.map((list, c) => {
    const models = [...new Set(list.map((r) => analysis.requests[r]?.model ?? '—'))].join(', ');
    const first = list[0]!;
    const start = cache.conversations.kind[first] === 'same-setup' ? `same setup as request ${(cache.conversations.continues[first] ?? 0) + 1}` : 'new';
    return `<tr><td>${c + 1}</td><td>${list.length}</td><td class="l">${list.map((r) => `<a href="#request-${r + 1}">${r + 1}</a>`).join(' ')}</td><td class="l">${escapeHtml(models)}</td><td class="l">${escapeHtml(start)}</td></tr>`;
  });
  return `<section><h2>Conversations (${formatCount(cache.conversations.count)})</h2>
<table><thead><tr><th>#</th><th>Requests</th><th class="l">Which</th><th class="l">Models</th><th class="l">Starts</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table></section>`;
}

function nearDuplicatesSection(analysis: Analysis, cache: CacheAnalysis): string {
  const cut = cache.nearDuplicatesCut;
  const cutNote =
    cut === null
      ? ''
      : `\n<p class="muted">The search stopped at its work budget in request <a href="#request-${cut.request + 1}">${cut.request + 1}</a>: groups from there on may be missing (${cut.requestsNotCompared} later request(s) not compared).</p>`;
  if (cache.nearDuplicates.length === 0) return cut === null ? '' : `<section><h2>Near-duplicate content</h2>${cutNote}</section>`;
  const rows = cache.nearDuplicates.map((group) => {
    const request = analysis.requests[group.requestIndex];
    const paths = group.segments.map((s) => request?.segments[s]?.path ?? `#${s}`);
    return `<tr><td><a href="#request-${group.requestIndex + 1}">${group.requestIndex + 1}</a></td><td class="l">${paths.map((p) => `<span class="tag">${escapeHtml(p)}</span>`).join(' ')}</td><td>${group.similarity.toFixed(2)}</td></tr>`;
  });
  return `<section><h2>Near-duplicate content (${cache.nearDuplicates.length})</h2>
<p class="muted">5-word shingles, Jaccard similarity ≥ 0.85, in the last request of each conversation: the same file or output sent more than once. A different measure from the exact duplicate-context contract (ctxray dupes).</p>${cutNote}
<table><thead><tr><th>Request</th><th class="l">Blocks</th><th>Lowest similarity</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table></section>`;
}

/** Diffs of the requests whose prefix broke against the request they are compared with. */
function diffSection(analysis: Analysis, cache: CacheAnalysis, options: HtmlReportOptions): string {
  const broken: number[] = [];
  cache.prefixes.forEach((prefix, r) => {
    if (prefix?.prefixBroken) broken.push(r);
  });
  if (broken.length === 0) {
    return '<section><h2>Prefix diffs</h2><p>Every request that continues another starts with all of its blocks: no prefix was broken.</p></section>';
  }
  const shown = broken.slice(0, MAX_DIFFS).map((r) => {
    const compared = cache.conversations.continues[r]!;
    const older = analysis.requests[compared]!;
    const newer = analysis.requests[r]!;
    const hunks = diffSegments(older.segments, newer.segments);
    const prefix = cache.prefixes[r]!;
    const coarse = isCoarse(hunks)
      ? '\n<p class="muted">Coarse diff: the requests differ by too many edits for a shortest edit script within its work budget, so everything between the shared start and end is shown as removed and added.</p>'
      : '';
    return `<h3 id="diff-${r + 1}">Request ${r + 1} against request ${compared + 1} (${escapeHtml(cache.conversations.kind[r] ?? '')}; ${prefix.commonSegments} block(s) in common from the start)</h3>${coarse}
<pre>${renderHunks(hunks, older, newer, options).join('\n')}</pre>`;
  });
  const more = broken.length > MAX_DIFFS ? `<p class="muted">${broken.length - MAX_DIFFS} more diff(s) not drawn.</p>` : '';
  return `<section><h2>Prefix diffs (${broken.length})</h2>\n${shown.join('\n')}${more}</section>`;
}

function renderHunks(hunks: readonly DiffHunk[], older: ParsedRequest, newer: ParsedRequest, options: HtmlReportOptions): string[] {
  const lines: string[] = [];
  const line = (mark: string, cls: string, request: ParsedRequest, index: number) => {
    const segment = request.segments[index]!;
    const name = options.content && segment.toolName !== null ? ` ${segment.toolName}` : '';
    const excerpt = options.content && segment.text.length > 0 ? ` “${oneLine(segment.text)}”` : '';
    // Payload text: bidi and invisible characters are written as ⟨U+XXXX⟩ so they cannot reorder the report.
    lines.push(`<span class="${cls}">${mark} ${escapeHtml(visibleLabel(`${segment.path} ${segment.category}${name}${excerpt}`))}</span>`);
  };
  for (const hunk of hunks) {
    if (hunk.kind === 'equal') {
      const length = hunk.aEnd - hunk.aStart;
      if (length <= FOLD_EQUAL) for (let k = 0; k < length; k++) line(' ', 'eq', newer, hunk.bStart + k);
      else {
        line(' ', 'eq', newer, hunk.bStart);
        lines.push(`<span class="fold">  … ${length - 2} unchanged block(s) …</span>`);
        line(' ', 'eq', newer, hunk.bEnd - 1);
      }
    } else if (hunk.kind === 'delete') for (let k = hunk.aStart; k < hunk.aEnd && lines.length < MAX_DIFF_LINES; k++) line('−', 'del', older, k);
    else for (let k = hunk.bStart; k < hunk.bEnd && lines.length < MAX_DIFF_LINES; k++) line('+', 'add', newer, k);
    if (lines.length >= MAX_DIFF_LINES) {
      // A diff of tens of thousands of moved blocks would make the report hundreds of MB; the rest is counted.
      const changed = hunks.reduce((total, h) => total + (h.kind === 'equal' ? 0 : h.aEnd - h.aStart + h.bEnd - h.bStart), 0);
      const drawn = lines.filter((text) => !text.includes('class="eq"') && !text.includes('class="fold"')).length;
      lines.push(`<span class="fold">  … diff cut at ${MAX_DIFF_LINES} lines: ${changed - drawn} more removed or added block(s) not drawn …</span>`);
      break;
    }
  }
  return lines;
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > EXCERPT_CHARS ? `${flat.slice(0, EXCERPT_CHARS)}…` : flat;
}
