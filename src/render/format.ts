// Number formatting shared by the web app and the HTML report. Estimated counts (all Claude counts) always carry ≈.
import type { UnrecordedPart } from '../core/cache/unrecorded-setup.ts';
import type { Category } from '../core/model.ts';

const grouped = new Intl.NumberFormat('en-US');

export function formatCount(value: number): string {
  return grouped.format(Math.round(value));
}

export function formatTokens(value: number, exact: boolean): string {
  return `${exact ? '' : '≈'}${formatCount(value)}`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

export function formatPercent(part: number, whole: number): string {
  if (whole <= 0) return '–';
  const share = (100 * part) / whole;
  return share > 0 && share < 0.1 ? '<0.1%' : `${share.toFixed(1)}%`;
}

const dollars = new Intl.NumberFormat('en-US', { minimumFractionDigits: 4, maximumFractionDigits: 4 });

/** A price in US dollars to four decimals (request prices are often fractions of a cent). */
export function formatUsd(value: number): string {
  return `${value < 0 ? '-' : ''}$${dollars.format(Math.abs(value))}`;
}

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
