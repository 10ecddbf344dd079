// The cache part of the terminal summary: conversations, simulated cost (actual vs optimized, the labelled
// 1,000-session projection) and the findings with their fixes. Tool names appear only with --content.
import { describeRequests, type CacheAnalysis, type ConversationLink } from '../../core/cache/index.ts';

export interface CacheTerminalOptions {
  color: boolean;
  /** Show payload-derived labels (tool names) that findings keep apart from their message. */
  content: boolean;
  /** One prefix/cache row per request. */
  verbose?: boolean;
}

const number = new Intl.NumberFormat('en-US');
const dollars = new Intl.NumberFormat('en-US', { minimumFractionDigits: 4, maximumFractionDigits: 4 });

const SEVERITY_COLOUR = { error: 31, warning: 33, info: 36 } as const;

export function renderCacheSummary(cache: CacheAnalysis, options: CacheTerminalOptions): string {
  const paint = (code: number, text: string) => (options.color ? `\u001b[${code}m${text}\u001b[0m` : text);
  const lines: string[] = [''];
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

  const { actual, optimized, potentialSavings, savingsFraction, projection } = cache.cost;
  lines.push('', paint(1, 'Prompt cache (simulated)'));
  lines.push(`  total actual cost:    $${dollars.format(actual.totals.total)}`);
  lines.push(
    cache.cost.optimizedRejected
      ? `  total optimized cost: $${dollars.format(optimized.totals.total)}  (as sent: fixing the findings plus a tail breakpoint on each Claude request would cost $${dollars.format(cache.cost.optimizedScenarioCost)})`
      : `  total optimized cost: $${dollars.format(optimized.totals.total)}  (findings fixed, plus a breakpoint on each Claude request's tail)`,
  );
  lines.push(`  potential savings:    $${dollars.format(potentialSavings)} (${(savingsFraction * 100).toFixed(1)}%)`);
  lines.push(
    `  × ${number.format(projection.sessions)} sessions like this one (a plain multiplication): $${dollars.format(projection.actual)} → $${dollars.format(projection.optimized)}`,
  );
  if (actual.totals.unpriced > 0) lines.push(`  ${number.format(actual.totals.unpriced)} request(s) name a model with no price entry: simulated, not priced`);
  if (actual.simulation.assumedWithinTtl) lines.push('  requests without a timestamp are assumed to arrive within every cache TTL');
  if (cache.requestsWithUnknownBreakpoints > 0) {
    lines.push(
      `  ${number.format(cache.requestsWithUnknownBreakpoints)} request(s) rebuilt from a transcript, which does not record cache breakpoints: the actual scenario assumes none, so its cost is an upper bound`,
    );
  }

  lines.push('');
  if (cache.findings.length === 0) {
    lines.push('No findings — this sequence caches cleanly (the optimized cost is the actual cost).');
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
