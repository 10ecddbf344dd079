// The cache part of the terminal summary: conversations, simulated cost (actual vs optimized, the labelled
// 1,000-session projection) and the findings with their fixes. Tool names appear only with --content.
import type { CacheAnalysis, ConversationLink } from '../../core/cache/index.ts';

export interface CacheTerminalOptions {
  color: boolean;
  /** Show payload-derived labels (tool names) that findings keep apart from their message. */
  content: boolean;
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

  const { actual, optimized, potentialSavings, savingsFraction, projection } = cache.cost;
  lines.push('', paint(1, 'Prompt cache (simulated)'));
  lines.push(`  total actual cost:    $${dollars.format(actual.totals.total)}`);
  lines.push(`  total optimized cost: $${dollars.format(optimized.totals.total)}  (findings fixed, plus a breakpoint on each Claude request's tail)`);
  lines.push(`  potential savings:    $${dollars.format(potentialSavings)} (${(savingsFraction * 100).toFixed(1)}%)`);
  lines.push(
    `  × ${number.format(projection.sessions)} sessions like this one (a plain multiplication): $${dollars.format(projection.actual)} → $${dollars.format(projection.optimized)}`,
  );
  if (actual.totals.unpriced > 0) lines.push(`  ${number.format(actual.totals.unpriced)} request(s) name a model with no price entry: simulated, not priced`);
  if (actual.simulation.assumedWithinTtl) lines.push('  requests without a timestamp are assumed to arrive within every cache TTL');

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
