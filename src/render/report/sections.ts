// The report's sections that are tables and lists of the analysis: findings, cost, misses by cause, the cache
// table request by request, conversations and near-duplicate groups. Every string from the input is escaped.
import type { Analysis } from '../../core/analysis/types.ts';
import type { CacheAnalysis, Finding } from '../../core/cache/index.ts';
import type { BilledRequest } from '../../core/cache/types.ts';
import { basisText } from '../../core/cache/headline.ts';
import { visibleLabel } from '../../core/text/invisible.ts';
import { formatCount, formatTokens } from '../format.ts';
import { escapeHtml, usd } from './escape.ts';

export interface ContentOption {
  /** Show tool names and block text excerpts (the user asked for content). */
  content: boolean;
}

export function findingsSection(findings: readonly Finding[], unpriced: string | null, options: ContentOption): string {
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

export function costSection(cache: CacheAnalysis): string {
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

export function missesSection(cache: CacheAnalysis): string {
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

/** How the request joins its conversation: "continues 3", "edited 5", "new". */
function linkText(cache: CacheAnalysis, i: number): string {
  const kind = cache.conversations.kind[i] ?? 'new';
  const compared = cache.conversations.continues[i];
  return compared === null || compared === undefined ? kind : `${kind} ${compared + 1}`;
}

/** The billed prompt's cells: prompt, read, writes, uncached, hit or miss, cost and optimized cost. */
function billedCells(billed: BilledRequest | undefined, exact: boolean): string {
  const cell = (value: number | undefined) => `<td>${formatTokens(value ?? 0, exact)}</td>`;
  const prompt = billed === undefined ? 0 : billed.read + billed.write5m + billed.write1h + billed.uncached;
  return `${cell(prompt)}${cell(billed?.read)}${cell(billed?.write5m)}${cell(billed?.write1h)}${cell(billed?.uncached)}<td>${(billed?.read ?? 0) > 0 ? 'hit' : 'miss'}</td><td>${usd(billed?.cost.total ?? null)}</td><td>${usd(billed?.optimizedCost ?? null)}</td>`;
}

function cacheRow(analysis: Analysis, cache: CacheAnalysis, i: number): string {
  const request = analysis.requests[i]!;
  const simulated = cache.cost.actual.simulation.requests[i];
  const billed = cache.cost.billed.requests[i];
  const recorded = billed?.basis === 'recorded';
  // Recorded figures are the provider's own count: exact, whatever the tokenizer.
  const exact = recorded || (analysis.tokens[i]?.exact ?? false);
  return `<tr id="request-${i + 1}"><td>${i + 1}</td><td class="l">${(cache.conversations.conversationOf[i] ?? 0) + 1}</td><td class="l">${escapeHtml(linkText(cache, i))}</td><td class="l">${escapeHtml(request.model ?? '—')}</td><td class="l">${recorded ? 'recorded' : 'simulated'}</td>${billedCells(billed, exact)}<td>${formatTokens(simulated?.read ?? 0, analysis.tokens[i]?.exact ?? false)}</td><td>${usd(cache.cost.actual.costs[i]?.total ?? null)}</td></tr>`;
}

export function cacheTableSection(analysis: Analysis, cache: CacheAnalysis): string {
  const rows = analysis.requests.map((_, i) => cacheRow(analysis, cache, i));
  return `<section><h2>Cache, request by request</h2>
<table><thead><tr><th>#</th><th class="l">Conv.</th><th class="l">Link</th><th class="l">Model</th><th class="l">Basis</th><th>Prompt</th><th>Read</th><th>Write 5m</th><th>Write 1h</th><th>Uncached</th><th>Cache</th><th>Cost</th><th>Optimized</th><th>Simulated read</th><th>Simulated cost</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody></table></section>`;
}

export function conversationsSection(analysis: Analysis, cache: CacheAnalysis): string {
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

export function nearDuplicatesSection(analysis: Analysis, cache: CacheAnalysis): string {
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

