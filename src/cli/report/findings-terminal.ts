// The cache part of the terminal summary: conversations, simulated cost (actual vs optimized, the labelled
// 1,000-session projection) and the findings with their fixes. Tool names appear only with --content.
import { describeRequests, type CacheAnalysis, type ConversationLink } from '../../core/cache/index.ts';
import { actualText, basisText, costHeadline, unpricedText } from '../../core/cache/headline.ts';
import type { ModelUse } from '../../core/analysis/types.ts';
import { ownSgr } from '../terminal-safe.ts';

export interface CacheTerminalOptions {
  /** The input's models and whether each is priced (Analysis.modelUse): the headline names the unpriced ones. */
  models: readonly ModelUse[];
  color: boolean;
  /** Show payload-derived labels (tool names) that findings keep apart from their message. */
  content: boolean;
  /** One prefix/cache row per request. */
  verbose?: boolean;
  /**
   * Every request is usage-only (no bodies): only the recorded cost is shown; conversations, simulation, misses
   * and findings would describe empty bodies.
   */
  usageOnly?: boolean;
}

const number = new Intl.NumberFormat('en-US');
const dollars = new Intl.NumberFormat('en-US', { minimumFractionDigits: 4, maximumFractionDigits: 4 });

const SEVERITY_COLOUR = { error: 31, warning: 33, info: 36 } as const;

export function renderCacheSummary(cache: CacheAnalysis, options: CacheTerminalOptions): string {
  const paint = (code: number, text: string) => (options.color ? `${ownSgr(code)}${text}${ownSgr(0)}` : text);
  const lines: string[] = [''];
  if (options.usageOnly === true) {
    const headline = costHeadline(cache.cost.billed.totals, options.models);
    return [...lines, paint(1, 'Cost'), `  actual cost:          ${actualText(headline)}  (${basisText(headline)})`, ''].join('\n') + '\n';
  }
  const requests = cache.conversations.conversationOf.length;
  const count = (link: ConversationLink) => cache.conversations.kind.filter((k) => k === link).length;
  lines.push(paint(1, 'Conversations'));
  lines.push(
    `  ${number.format(cache.conversations.count)} conversation${cache.conversations.count === 1 ? '' : 's'} in ${number.format(requests)} request${requests === 1 ? '' : 's'}: ` +
      `${number.format(count('continues'))} continue an earlier request, ${number.format(count('edited'))} edit its history, ` +
      `${number.format(count('same-setup'))} start a new conversation on a setup already sent`,
  );
  const followUps = cache.conversations.kind.flatMap((k, r) => (k === 'continues' || k === 'edited' ? [r] : []));
  const broken = followUps.filter((r) => cache.prefixes[r]?.prefixBroken === true);
  if (followUps.length > 0) {
    lines.push(
      broken.length === 0
        ? `  all ${number.format(followUps.length)} follow-up requests only append to the request they continue`
        : `  ${number.format(followUps.length - broken.length)} follow-up requests only append; ${number.format(broken.length)} change${broken.length === 1 ? 's' : ''} a block the earlier request sent (${describeRequests(broken)})`,
    );
  }
  if (options.verbose === true) lines.push(...requestRows(cache));

  const { actual, billed, optimizedCost, potentialSavings, savingsFraction, projection } = cache.cost;
  const headline = costHeadline(billed.totals, options.models);
  const unpriced = unpricedText(headline);
  lines.push('', paint(1, 'Cost'));
  if (unpriced !== null) lines.push(`  ${paint(33, unpriced)} (${number.format(billed.totals.unpriced)} request(s) in no dollar figure below)`);
  lines.push(`  actual cost:          ${actualText(headline)}  (${basisText(headline)})`);
  lines.push(
    cache.cost.optimizedRejected
      ? `  optimized cost:       $${dollars.format(optimizedCost)}  (no fix the simulation models would lower it: with them it would cost $${dollars.format(cache.cost.optimizedScenarioCost)})`
      : `  optimized cost:       $${dollars.format(optimizedCost)}  (the actual cost minus what fixing the findings and a breakpoint on each Claude request's tail would avoid)`,
  );
  lines.push(`  potential savings:    $${dollars.format(potentialSavings)} (${(savingsFraction * 100).toFixed(1)}%)`);
  lines.push(
    `  × ${number.format(projection.sessions)} sessions like this one (a plain multiplication): $${dollars.format(projection.actual)} → $${dollars.format(projection.optimized)}`,
  );
  const inferred = cache.inferred.markers.filter((marker) => marker !== null).length;
  lines.push(
    `  simulated as sent:    $${dollars.format(actual.totals.total)}` +
      (inferred > 0 ? `  (${number.format(inferred)} request(s) with a tail breakpoint inferred from recorded usage)` : ''),
  );
  if (actual.simulation.assumedWithinTtl) lines.push('  requests without a timestamp are assumed to arrive within every cache TTL');
  if (cache.inferred.uninferred > 0) {
    lines.push(
      `  ${number.format(cache.inferred.uninferred)} Claude request(s) rebuilt from a log that records no cache breakpoint, and whose recorded usage shows none to infer: simulated with none`,
    );
  }

  lines.push(...missLines(cache, paint));
  lines.push('');
  if (cache.findings.length === 0) {
    lines.push(
      unpriced === null
        ? 'No findings — this sequence caches cleanly (the optimized cost is the actual cost).'
        : `No findings, but the cost is incomplete — ${unpriced}.`,
    );
    return lines.join('\n') + '\n';
  }
  lines.push(paint(1, `Findings (${cache.findings.length})`));
  for (const finding of cache.findings) {
    const where = finding.segmentPath === null ? '' : ` ${finding.segmentPath}`;
    lines.push(`  ${paint(SEVERITY_COLOUR[finding.severity], finding.severity)} ${finding.code}${where}`);
    lines.push(`    ${finding.message}`);
    if (options.content && finding.detail !== null) lines.push(`    ${finding.detail}`);
    lines.push(`    fix: ${finding.fix}`);
  }
  return lines.join('\n') + '\n';
}

/** -v: per request, its conversation link, shared prefix and simulated cache figures. */
function requestRows(cache: CacheAnalysis): string[] {
  const rows = ['', '  #    conv  link              prefix     prompt       read    write      miss       cost'];
  cache.conversations.kind.forEach((kind, r) => {
    const simulated = cache.cost.actual.simulation.requests[r];
    const compared = cache.conversations.continues[r];
    const link = compared === null || compared === undefined ? kind : `${kind} ${compared + 1}`;
    const prefix = cache.prefixes[r];
    const shared = prefix === null || prefix === undefined ? '–' : `${prefix.commonSegments}${prefix.prefixBroken ? '✗' : ''}`;
    const cost = cache.cost.actual.costs[r]?.total;
    const write = (simulated?.write5m ?? 0) + (simulated?.write1h ?? 0);
    rows.push(
      `  ${String(r + 1).padEnd(4)} ${String((cache.conversations.conversationOf[r] ?? 0) + 1).padStart(4)}  ${link.padEnd(16)} ${shared.padStart(7)} ` +
        `${number.format(simulated?.promptTokens ?? 0).padStart(10)} ${number.format(simulated?.read ?? 0).padStart(10)} ` +
        `${number.format(write).padStart(8)} ${number.format(simulated?.uncached ?? 0).padStart(9)} ` +
        `${cost === null || cost === undefined ? 'n/a' : `$${dollars.format(cost)}`}`,
    );
  });
  rows.push('  (prefix: blocks shared from the start with the compared request; ✗ = a block it sent changed)');
  return rows;
}

/** The misses by cause, costliest first (docs/cache.md, Misses). */
function missLines(cache: CacheAnalysis, paint: (code: number, text: string) => string): string[] {
  const { summary } = cache.misses;
  if (summary.length === 0) return [];
  const lines = ['', paint(1, 'Cache misses by cause (recorded where recorded, simulated elsewhere)')];
  lines.push(`  ${'cause'.padEnd(20)} ${'requests'.padStart(8)} ${'tokens'.padStart(13)} ${'cost over a hit'.padStart(16)}`);
  for (const row of summary) {
    lines.push(
      `  ${row.cause.padEnd(20)} ${number.format(row.count).padStart(8)} ${number.format(row.tokens).padStart(13)} ${`$${dollars.format(row.cost)}`.padStart(16)}`,
    );
  }
  return lines;
}
