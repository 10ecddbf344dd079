// The notes a request can carry: one fixed message per code, so every front end says the same thing.

import type { RequestNote } from '../model.ts';

const NOTE_MESSAGES: Record<RequestNote['code'], string> = {
  previous_response_id:
    'previous_response_id: the request continues server-side state that is not in the file; only the items it sends are counted',
  system_role_in_messages: 'a message with role "system" inside messages (mid-conversation system message)',
  unknown_shapes: 'blocks of an unknown shape were kept as "other" segments with their JSON',
  no_model: 'the request names no model',
  transcript_missing_tools: 'the transcript does not record the tool definitions that were sent',
  transcript_missing_system: 'the transcript does not record the system prompt that was sent',
  transcript_compacted: 'the transcript records a compaction of the history before this call',
  item_reference: 'item_reference: an input item is only referenced by id; its content is server-side state not in the file',
  lone_surrogate:
    'text holds an unpaired UTF-16 surrogate (a JSON escape such as \\ud800 without its partner); it is not valid Unicode and is counted as U+FFFD',
  missing_message_array:
    'the body has no message list for its wire format (messages for Anthropic Messages and Chat Completions, input for Responses); check --format',
  context_management:
    'context_management: the server may compact or edit the context, so what it bills is not what the file holds; left out of estimate-accuracy figures',
  foreign_fields:
    'the body has top-level content fields of another wire format; they are counted as "other" segments, not read as messages; check --format',
  usage_only:
    'the file records this call\'s usage but not its body: there is nothing to break down, only the recorded figures (give the file that holds the bodies, e.g. a batch\'s input file beside its results, a Cline task\'s api_conversation_history.json, or a LiteLLM proxy run with store_prompts_in_spend_logs)',
  provider_not_modelled:
    "a Gemini (Google) call rebuilt as Chat Completions: its tokens are estimated with an OpenAI tokenizer and Google's cache rules are not modelled (the recorded usage is the actual, priced at the Gemini model's prices when the table has it; any simulated cache beside it follows OpenAI's prefix matching with the model's minimum, not Google's rules)",
  recorded_usage_rejected:
    'the recorded usage holds an impossible value (negative, not a whole number, not finite, or more than the model\'s context window); it is not used and the simulation stands in (see the usage warnings for the field and value)',
};

export function note(code: RequestNote['code']): RequestNote {
  return { code, message: NOTE_MESSAGES[code] };
}
