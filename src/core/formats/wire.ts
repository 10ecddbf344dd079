// The wire importers by format, and the `--format` values that name them. One request body → one ParsedRequest.

import type { WireFormat } from '../model.ts';
import { importAnthropicMessages } from './anthropic-messages.ts';
import { importOpenAiChat } from './openai-chat.ts';
import { importOpenAiResponses } from './openai-responses.ts';
import type { WireImporter } from './types.ts';

/** `--format` values as the CLI and the library spell them, and the wire format each names ('auto': detect). */
export type FormatOption = 'anthropic' | 'anthropic-messages' | 'openai' | 'openai-chat' | 'openai-responses' | 'auto';
export const FORMAT_OPTIONS: Readonly<Record<FormatOption, WireFormat | 'auto'>> = {
  anthropic: 'anthropic-messages',
  'anthropic-messages': 'anthropic-messages',
  openai: 'openai-chat',
  'openai-chat': 'openai-chat',
  'openai-responses': 'openai-responses',
  auto: 'auto',
};

/** The wire format a `--format` value names, or undefined for a value that is none of them. */
export const formatOption = (value: string): WireFormat | 'auto' | undefined =>
  Object.hasOwn(FORMAT_OPTIONS, value) ? FORMAT_OPTIONS[value as FormatOption] : undefined;

export const WIRE_IMPORTERS: Readonly<Record<WireFormat, WireImporter>> = {
  'anthropic-messages': importAnthropicMessages,
  'openai-chat': importOpenAiChat,
  'openai-responses': importOpenAiResponses,
};
