// SYNTHETIC fixture conversations for offline payload qualification (`ctxray qualify`).
// Every text, id, path and signature below is invented for this check; none comes from a real session.
// The conversations are pi-ai `Context` values, built per target model: pi-ai keeps reasoning, signatures and
// item ids only when an assistant message was produced by the same provider/api/model, so each API gets
// conversations whose assistant messages carry that model's identity and that API's signature style.
// This file is hashed into the qualification record's sourceDigest: any edit makes old records stale.
import { Type, type AssistantMessage, type Context, type Message, type Tool, type ToolCall } from '@mariozechner/pi-ai';
import { QUALIFICATION_APIS, type QualificationApi } from '../../core/clearing/qualification-record.ts';

/** The four APIs the clearing analyzer supports, in the order the record lists them. */
export const QUALIFIED_APIS = QUALIFICATION_APIS;
export type QualifiedApi = QualificationApi;

/** Which registry model builds each API's payloads (provider and id as pi-ai's model registry names them). */
export const QUALIFICATION_MODELS: Record<QualifiedApi, { provider: string; id: string }> = {
  'anthropic-messages': { provider: 'anthropic', id: 'claude-sonnet-4-5' },
  'openai-responses': { provider: 'openai', id: 'gpt-5' },
  'openai-codex-responses': { provider: 'openai-codex', id: 'gpt-5.2-codex' },
  'openai-completions': { provider: 'deepseek', id: 'deepseek-v4-flash' },
};

/** The text a cleared tool result carries instead of its original output. */
export const CLEARING_PLACEHOLDER = '[synthetic placeholder: earlier tool result cleared to save context]';

/** One fixture conversation and the tool results a clearing pass would target in it. */
export interface FixtureCase {
  name: string;
  context: Context;
  /** pi-ai tool-call ids of the EARLIER single plain-text results to clear. */
  targetedToolCallIds: string[];
}

/** The identity an assistant message must carry so pi-ai replays it as the target model's own output. */
interface ModelIdentity {
  api: QualifiedApi;
  provider: string;
  id: string;
}

const SYNTHETIC_TOOLS: Tool[] = [
  {
    name: 'read_file',
    description: 'Synthetic fixture tool: read a file from the synthetic workspace.',
    parameters: Type.Object({ path: Type.String(), offset: Type.Optional(Type.Number()) }),
  },
  {
    name: 'grep',
    description: 'Synthetic fixture tool: search the synthetic workspace.',
    parameters: Type.Object({ pattern: Type.String(), glob: Type.Optional(Type.String()) }),
  },
  {
    name: 'run_tests',
    description: 'Synthetic fixture tool: run the synthetic test suite.',
    parameters: Type.Object({ args: Type.Array(Type.String()) }),
  },
  {
    name: 'screenshot',
    description: 'Synthetic fixture tool: capture a synthetic screenshot.',
    parameters: Type.Object({ target: Type.String() }),
  },
];

const SYSTEM_PROMPT = 'You are a coding agent working in a SYNTHETIC fixture workspace (ctxray qualification).';

// A 1x1 transparent PNG: a real image block, so image-bearing results are exercised (and never targeted).
const TINY_PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

// Timestamps are fixed so the payloads are reproducible byte for byte.
const T0 = Date.UTC(2026, 0, 15, 9, 0, 0);

/** Builds messages with the target model's identity and signature conventions, numbering ids as it goes. */
class ConversationWriter {
  readonly messages: Message[] = [];
  private tick = 0;
  private seq = 0;

  constructor(
    private readonly model: ModelIdentity,
    private readonly tag: string,
  ) {}

  private nextTime(): number {
    this.tick += 1;
    return T0 + this.tick * 7_000;
  }

  private nextId(): string {
    this.seq += 1;
    return `${this.tag}${String(this.seq).padStart(3, '0')}`;
  }

  user(text: string): void {
    this.messages.push({ role: 'user', content: `SYNTHETIC: ${text}`, timestamp: this.nextTime() });
  }

  /** A reasoning block in the target API's replay form (opaque signature, encrypted reasoning item or field name). */
  thinking(text: string): AssistantMessage['content'][number] {
    const n = this.nextId();
    const thinking = `Synthetic reasoning ${n}: ${text}`;
    switch (this.model.api) {
      case 'anthropic-messages':
        return { type: 'thinking', thinking, thinkingSignature: `c3ludGhldGljLXNpZ25hdHVyZS0${n}EuQ1RYUkFZ` };
      case 'openai-responses':
      case 'openai-codex-responses':
        return {
          type: 'thinking',
          thinking,
          thinkingSignature: JSON.stringify({
            type: 'reasoning',
            id: `rs_synthetic_${n}`,
            summary: [{ type: 'summary_text', text: thinking }],
            encrypted_content: `gAAAAA-synthetic-encrypted-reasoning-${n}`,
          }),
        };
      case 'openai-completions':
        // For chat-completions endpoints the "signature" names the field the reasoning is replayed in.
        return { type: 'thinking', thinking, thinkingSignature: 'reasoning_content' };
    }
  }

  /**
   * Reasoning that is only an opaque encrypted payload: Anthropic's redacted_thinking, or a Responses reasoning
   * item with an empty summary. Chat completions have no such form (null: nothing to add).
   */
  opaqueThinking(): AssistantMessage['content'][number] | null {
    const n = this.nextId();
    switch (this.model.api) {
      case 'anthropic-messages':
        return { type: 'thinking', thinking: '', thinkingSignature: `RVNZTlRIRVRJQy1yZWRhY3RlZA-${n}`, redacted: true };
      case 'openai-responses':
      case 'openai-codex-responses':
        return {
          type: 'thinking',
          thinking: '',
          thinkingSignature: JSON.stringify({ type: 'reasoning', id: `rs_synthetic_${n}`, summary: [], encrypted_content: `gAAAAA-synthetic-opaque-${n}` }),
        };
      case 'openai-completions':
        return null;
    }
  }

  text(text: string): AssistantMessage['content'][number] {
    const n = this.nextId();
    const body = `Synthetic answer ${n}: ${text}`;
    if (this.model.api === 'openai-responses' || this.model.api === 'openai-codex-responses') {
      return { type: 'text', text: body, textSignature: JSON.stringify({ v: 1, id: `msg_synthetic_${n}`, phase: 'final_answer' }) };
    }
    return { type: 'text', text: body };
  }

  call(name: string, args: Record<string, unknown>): ToolCall {
    const n = this.nextId();
    // Responses-family ids pair a call id with the output item id ("call|fc"), as pi-ai stores them.
    const responsesFamily = this.model.api === 'openai-responses' || this.model.api === 'openai-codex-responses';
    const id = responsesFamily ? `call_synthetic_${n}|fc_synthetic_${n}` : `toolu_synthetic_${n}`;
    return { type: 'toolCall', id, name, arguments: args };
  }

  assistant(content: AssistantMessage['content'], stopReason: AssistantMessage['stopReason']): void {
    this.messages.push({
      role: 'assistant',
      content,
      api: this.model.api,
      provider: this.model.provider,
      model: this.model.id,
      usage: {
        input: 0,
        output: 0,
        cacheRead: 0,
        cacheWrite: 0,
        totalTokens: 0,
        cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
      },
      stopReason,
      timestamp: this.nextTime(),
    });
  }

  /** A single plain-text result (the only shape clearing may target). Returns its tool-call id. */
  result(call: ToolCall, text: string, { isError = false }: { isError?: boolean } = {}): string {
    this.messages.push({
      role: 'toolResult',
      toolCallId: call.id,
      toolName: call.name,
      content: [{ type: 'text', text: `SYNTHETIC ${call.name} output: ${text}` }],
      isError,
      timestamp: this.nextTime(),
    });
    return call.id;
  }

  /** A result with an image block: never a clearing target, must stay byte-identical. */
  imageResult(call: ToolCall, caption: string): void {
    this.messages.push({
      role: 'toolResult',
      toolCallId: call.id,
      toolName: call.name,
      content: [
        { type: 'text', text: `SYNTHETIC ${call.name} caption: ${caption}` },
        { type: 'image', data: TINY_PNG_BASE64, mimeType: 'image/png' },
      ],
      isError: false,
      timestamp: this.nextTime(),
    });
  }
}

/** Three prompt turns; earlier reads and searches are targeted, the failing test run (an error) and the latest result are not. */
function readFixAndVerify(model: ModelIdentity): FixtureCase {
  const w = new ConversationWriter(model, 'a');
  const targets: string[] = [];

  w.user('the synthetic test `sum.test.ts` fails; find out why.');
  const read1 = w.call('read_file', { path: 'synthetic/src/sum.ts' });
  const grep1 = w.call('grep', { pattern: 'export function sum', glob: 'synthetic/**/*.ts' });
  w.assistant([w.thinking('read the implementation and find its callers'), w.text('Reading the code.'), read1, grep1], 'toolUse');
  targets.push(w.result(read1, 'export function sum(a: number, b: number) {\n  return a - b; // synthetic bug\n}\n'));
  targets.push(w.result(grep1, 'synthetic/src/sum.ts:1:export function sum(a: number, b: number) {\n'));

  const tests1 = w.call('run_tests', { args: ['--filter', 'sum', '--reporter=dot'] });
  w.assistant([w.thinking('confirm the failure before editing'), tests1], 'toolUse');
  w.result(tests1, 'FAIL sum.test.ts: expected 5, received -1', { isError: true });
  w.assistant([w.text('The subtraction is the bug; it should add.')], 'stop');

  w.user('fix it and run the tests again.');
  const read2 = w.call('read_file', { path: 'synthetic/test/sum.test.ts', offset: 0 });
  w.assistant([w.thinking('check the test expectations first'), read2], 'toolUse');
  targets.push(w.result(read2, "import { sum } from '../src/sum';\ntest('adds', () => expect(sum(2, 3)).toBe(5));\n"));
  const tests2 = w.call('run_tests', { args: ['--filter', 'sum'] });
  w.assistant([w.thinking('the fix is applied; rerun'), w.text('Rerunning.'), tests2], 'toolUse');
  targets.push(w.result(tests2, 'PASS sum.test.ts (1 test)'));
  w.assistant([w.text('Fixed: `sum` now adds.')], 'stop');

  w.user('list any other callers of sum.');
  const grep2 = w.call('grep', { pattern: 'sum\\(', glob: 'synthetic/**' });
  w.assistant([w.thinking('search again for call sites'), grep2], 'toolUse');
  w.result(grep2, 'synthetic/src/report.ts:12:  total = sum(total, row.value);\n');

  return { name: 'read-fix-verify', context: { systemPrompt: SYSTEM_PROMPT, messages: w.messages, tools: SYNTHETIC_TOOLS }, targetedToolCallIds: targets };
}

/** Parallel calls with mixed results: an image result and an error stay, the plain-text results around them are targeted. */
function parallelCallsWithImage(model: ModelIdentity): FixtureCase {
  const w = new ConversationWriter(model, 'b');
  const targets: string[] = [];

  w.user('compare the synthetic dashboard with its spec.');
  const shot = w.call('screenshot', { target: 'synthetic://dashboard' });
  const spec = w.call('read_file', { path: 'synthetic/docs/dashboard.md' });
  const missing = w.call('read_file', { path: 'synthetic/docs/missing.md' });
  w.assistant([w.thinking('capture the page and read both documents in parallel'), shot, spec, missing], 'toolUse');
  w.imageResult(shot, 'synthetic dashboard, 1 pixel');
  targets.push(w.result(spec, '# Dashboard (synthetic)\n- header: "Totals" \u2014 \u00e9m-dash & unicode kept\n- {"json":"looking","text":[1,2]}\n'));
  w.result(missing, 'ENOENT: synthetic/docs/missing.md', { isError: true });

  const grep = w.call('grep', { pattern: 'Totals', glob: 'synthetic/ui/**' });
  const opaque = w.opaqueThinking();
  w.assistant([...(opaque ? [opaque] : []), w.thinking('find where the header is rendered'), grep], 'toolUse');
  targets.push(w.result(grep, 'synthetic/ui/header.ts:4:  title = "Totals";\n'));
  w.assistant([w.text('The header matches the spec.')], 'stop');

  w.user('and the footer?');
  const footer = w.call('grep', { pattern: 'footer', glob: 'synthetic/ui/**' });
  w.assistant([w.thinking('look for the footer'), w.text('Searching.'), footer], 'toolUse');
  w.result(footer, 'synthetic/ui/footer.ts:1:export const footer = "synthetic";\n');

  return { name: 'parallel-calls-image', context: { systemPrompt: SYSTEM_PROMPT, messages: w.messages, tools: SYNTHETIC_TOOLS }, targetedToolCallIds: targets };
}

/** A long single-turn tool loop: the first five results are targeted, the last two stay. */
function longToolLoop(model: ModelIdentity): FixtureCase {
  const w = new ConversationWriter(model, 'c');
  const targets: string[] = [];

  w.user('audit every synthetic module for TODO markers.');
  for (let i = 1; i <= 7; i++) {
    const call = w.call('read_file', { path: `synthetic/src/module-${i}.ts` });
    w.assistant([w.thinking(`open module ${i}`), call], 'toolUse');
    const id = w.result(call, `// synthetic module ${i}\n`.repeat(3) + `// TODO(synthetic-${i}): tidy\n`);
    if (i <= 5) targets.push(id);
  }

  return { name: 'long-tool-loop', context: { systemPrompt: SYSTEM_PROMPT, messages: w.messages, tools: SYNTHETIC_TOOLS }, targetedToolCallIds: targets };
}

/** All fixture conversations for one API's qualification model. */
export function fixtureCases(api: QualifiedApi): FixtureCase[] {
  const model: ModelIdentity = { api, ...QUALIFICATION_MODELS[api] };
  return [readFixAndVerify(model), parallelCallsWithImage(model), longToolLoop(model)];
}

/** The same conversation with each targeted result's text replaced by the clearing placeholder; nothing else touched. */
export function clearTargetedResults(fixture: FixtureCase): Context {
  const targeted = new Set(fixture.targetedToolCallIds);
  const messages = fixture.context.messages.map((message): Message => {
    if (message.role !== 'toolResult' || !targeted.has(message.toolCallId)) return message;
    return { ...message, content: [{ type: 'text', text: CLEARING_PLACEHOLDER }] };
  });
  return { ...fixture.context, messages };
}
