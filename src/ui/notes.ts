// Plain-words explanations of the fixed request note codes (src/core/model.ts RequestNoteCode).
const NOTE_TEXT: Record<string, string> = {
  previous_response_id: 'Continues a stored response (previous_response_id): the earlier turns live on the server and are not in this file.',
  item_reference: 'Refers to input items by id only (item_reference): their content is server-side and not counted.',
  system_role_in_messages: 'Has a system message inside the messages list.',
  unknown_shapes: 'Contains blocks of a shape ctxray does not recognize; they are counted as "Other".',
  no_model: 'Names no model: token counts use the format\'s default tokenizer, and nothing is priced.',
  transcript_missing_tools: 'Rebuilt from a transcript that does not record the tool definitions sent.',
  transcript_missing_system: 'Rebuilt from a transcript that does not record the system prompt sent.',
  transcript_compacted: 'The first call after the transcript records a compaction of the history.',
  lone_surrogate: 'Holds text with an unpaired UTF-16 surrogate (a JSON escape such as \\ud800 alone); it is not valid Unicode and is counted as the replacement character U+FFFD.',
  missing_message_array: 'Has no message list for its wire format (messages, or input for Responses); is the chosen format right?',
  foreign_fields: 'Has top-level content fields of another wire format; they are counted as "Other". Is the chosen format right?',
  usage_only:
    'The file records this call\'s usage but not its body: there is nothing to break down. The cost and cache hits are the recorded ones; the block sizes are inferred from them, not read (open the file with the bodies, e.g. a batch\'s input file beside its results, a Cline task\'s api_conversation_history.json, or a LiteLLM proxy run with store_prompts_in_spend_logs, to see what was sent).',
  provider_not_modelled: "A Gemini (Google) call: its tokens are an estimate and Google's cache rules are not modelled (priced at the Gemini model's prices when the table has it); the recorded usage is what Google reported.",
};

export function noteText(code: string): string {
  return NOTE_TEXT[code] ?? code;
}
