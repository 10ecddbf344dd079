// Token counting: exact OpenAI BPE counts with billed framing, and the documented Claude estimate.
export { TokenCounter } from './counter.ts';
export type { OverheadTokens, RequestTokens, TokenNoteCode, Tokenizer } from './types.ts';
export { encodingForModel, framingForModel, loadEncoding } from './openai.ts';
export type { EncodingChoice, FramingRule, OpenAIEncoding } from './openai.ts';
export { claudeGeneration, usesNewTokenizer } from './claude.ts';
