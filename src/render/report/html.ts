// `ctxray analyze --html <out>` and the app's "HTML report" download: one self-contained HTML file (inline CSS,
// inline SVG treemap, no script at all) with the findings, the treemap of the largest request, the cache table, the
// conversations and the prefix diffs. Its own Content-Security-Policy allows nothing but its one stylesheet (by
// hash), so it works offline and cannot fetch or send anything. Payload-derived text (tool names, block text)
// appears only with `content: true`, and every string that reaches the page is HTML-escaped. Neither DOM nor Node:
// the CLI and the app's worker render the same bytes from the same analysis.
import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import type { Analysis } from '../../core/analysis/types.ts';
import { ANALYSIS_SCHEMA } from '../../core/analysis/record.ts';
import type { CacheAnalysis } from '../../core/cache/index.ts';
import { actualText, basisText, costHeadline, unpricedText } from '../../core/cache/headline.ts';
import { readAsText } from '../../core/formats/labels.ts';
import { formatCount } from '../format.ts';
import { escapeHtml } from './escape.ts';
import { reportStylesheet } from './style.ts';
import { cacheTableSection, conversationsSection, costSection, findingsSection, missesSection, nearDuplicatesSection, type ContentOption } from './sections.ts';
import { treemapSection } from './treemap.ts';
import { diffSection } from './diff.ts';

export { escapeHtml } from './escape.ts';
export { MAX_DIFFS, MAX_DIFF_LINES } from './diff.ts';

export type HtmlReportOptions = ContentOption;

/** Base64 of bytes, without Buffer (not in a browser) and without a spread that overflows the stack. */
function base64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

export function renderHtmlReport(analysis: Analysis, cache: CacheAnalysis, options: HtmlReportOptions): string {
  const style = reportStylesheet();
  const csp = `default-src 'none'; style-src 'sha256-${base64(sha256(utf8ToBytes(style)))}'; img-src 'none'; base-uri 'none'; form-action 'none'`;
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
<p>${formatCount(requests)} request${requests === 1 ? '' : 's'} in ${formatCount(cache.conversations.count)} conversation${cache.conversations.count === 1 ? '' : 's'} · read as ${escapeHtml(readAsText(analysis.files))} · models: ${models || 'none'}</p>
${headlineParagraph(analysis, cache)}
<p class="muted">Claude token counts are estimates (≈) · cache figures and cost are the recorded usage where the log records it, else a simulation of the providers' documented rules</p>
${ttl}
${about(analysis)}
</header>`;
}

/** Versions, record names and the importers that read the files: for whoever reproduces the numbers, out of the way. */
function about(analysis: Analysis): string {
  const importers = [...new Set(analysis.files.map((file) => `${file.format ?? 'unreadable'} (${file.envelope}${file.layout === null ? '' : `, ${file.layout}`})`))];
  return `<details class="about"><summary>About this analysis</summary><ul>
<li>${escapeHtml(analysis.generatedBy)} · prices as of ${escapeHtml(analysis.pricedOn)}</li>
<li>The same analysis as <code>ctxray analyze --json</code> writes (record ${escapeHtml(ANALYSIS_SCHEMA)}, docs/analysis.schema.json)</li>
<li>Read by the importer${importers.length === 1 ? '' : 's'} ${importers.map((name) => `<span class="tag">${escapeHtml(name)}</span>`).join(' ')}</li>
</ul></details>`;
}

/** What was paid and on which basis, and the unpriced models, before anything else. */
function headlineParagraph(analysis: Analysis, cache: CacheAnalysis): string {
  const headline = costHeadline(cache.cost.billed.totals, analysis.modelUse);
  const unpriced = unpricedText(headline);
  return `<p class="headline"><strong>Actual ${escapeHtml(actualText(headline))}</strong> (${escapeHtml(basisText(headline))})${unpriced === null ? '' : ` · <strong class="unpriced">${escapeHtml(unpriced)}</strong>`}</p>`;
}
