// The most tokens a model's prompt (or its reply) can hold: a bound recorded usage cannot exceed, used to refuse
// impossible values (input/usage-check.ts). Generous on purpose: the largest window the family offers (Claude's
// 1M-context option, GPT-4.1's 1,047,576), so a real recording is never refused; an unknown model gets 2M.
import type { Provider } from '../model.ts';

interface WindowRule {
  pattern: RegExp;
  tokens: number;
}

/** Checked in order on the lower-cased id (route and region prefixes may precede the family name). */
const RULES: readonly WindowRule[] = [
  // Claude 2 and 3.x: 200K (never offered with the 1M option).
  { pattern: /claude-(?:2|instant|3)/, tokens: 200_000 },
  { pattern: /claude/, tokens: 1_000_000 },
  { pattern: /gpt-3\.5/, tokens: 16_385 },
  { pattern: /gpt-4o|gpt-4-turbo|o1-mini/, tokens: 128_000 },
  { pattern: /gpt-4\.1/, tokens: 1_047_576 },
  { pattern: /\bo[134](?:-|$)/, tokens: 200_000 },
  { pattern: /gemini/, tokens: 2_000_000 },
];

const PROVIDER_DEFAULT: Record<Provider, number> = { anthropic: 1_000_000, openai: 1_050_000 };
/** No model ctxray knows of has a larger window. */
export const UNKNOWN_CONTEXT_WINDOW = 2_000_000;

export function contextWindowOf(model: string | null, provider: Provider | null): number {
  const id = model?.toLowerCase() ?? '';
  for (const rule of RULES) if (rule.pattern.test(id)) return rule.tokens;
  return provider === null ? UNKNOWN_CONTEXT_WINDOW : PROVIDER_DEFAULT[provider];
}
