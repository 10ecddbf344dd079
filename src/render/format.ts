// Text shared by the web app and the HTML report: the numbers come from the core's one formatter (core/text/format.ts).
import type { UnrecordedPart } from '../core/cache/unrecorded-setup.ts';
import type { Category } from '../core/model.ts';
import { formatTokens } from '../core/text/format.ts';

export { formatBand, formatBytes, formatCount, formatFraction, formatPercent, formatTokens, formatUsd, formatUsdCents } from '../core/text/format.ts';

const PART_WORDS: Record<UnrecordedPart, string> = { system_prompt: 'system prompt', tools: 'tools', hidden_reasoning: 'hidden reasoning' };

/** "system prompt and tools", "system prompt, tools and hidden reasoning", "tools and hidden reasoning". */
export function unrecordedPartsText(parts: readonly UnrecordedPart[]): string {
  const words = (parts.length > 0 ? parts : (['system_prompt', 'tools'] as const)).map((part) => PART_WORDS[part]);
  return words.length === 1 ? words[0]! : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]!}`;
}

/**
 * What the `setup_inferred` part of a request is, with its size: never exact (≈), since it is the recorded prompt
 * minus the reconstructed one, and never any text (the transcript has none). `parts`: what it stands for
 * (unrecordedParts; Codex rollouts add hidden reasoning).
 */
export function unrecordedSetupText(tokens: number, parts: readonly UnrecordedPart[]): string {
  return `${unrecordedPartsText(parts)}, not recorded, ${formatTokens(tokens, false)} inferred from recorded usage`;
}

/** A category's tokens in a request counted `exact` or not: the inferred setup is an estimate whatever the rest. */
export function formatCategoryTokens(value: number, category: Category, exact: boolean): string {
  return formatTokens(value, exact && category !== 'setup_inferred');
}
