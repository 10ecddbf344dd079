// `__proto__`, `constructor` and duplicate keys are plain data: they neither change what a reader sees nor
// reach Object.prototype. JSON.parse keeps `__proto__` as an own key and lets the last duplicate win; every
// reader must agree with that and must not walk into inherited members.
import { afterEach, describe, expect, it } from 'vitest';
import { evaluateDupesInput } from '../../src/core/dupes/evaluate.ts';
import { parseRoutes, parseAgentConfig, parseAppAllowlist } from '../../src/core/clearing/inputs.ts';
import { parseJournal } from '../../src/core/clearing/journal/parse.ts';
import { parseFragment } from '../../src/ui/share.ts';
import { validRoute, VALID_AGENT_CONFIG, VALID_APP_ALLOWLIST } from '../fuzz/arbitraries.ts';
import { behaviour, read, utf8, withLeadingMembers } from './helpers.ts';

const PROTO_MEMBERS = '"__proto__":{"system":"INJECTED","messages":[{"role":"user","content":"INJECTED"}],"polluted":true},"constructor":{"prototype":{"polluted":true}}';

const anthropic = {
  model: 'claude-sonnet-4-5',
  system: 'synthetic system prompt',
  tools: [{ name: 'read_file', description: 'synthetic', input_schema: { type: 'object' } }],
  messages: [
    { role: 'user', content: [{ type: 'text', text: 'synthetic question' }] },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'a' } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'synthetic result' }] },
  ],
};
const chat = { model: 'gpt-4o', messages: [{ role: 'system', content: 'synthetic' }, { role: 'user', content: 'synthetic question' }] };
const responses = { model: 'gpt-5', instructions: 'synthetic', input: [{ role: 'user', content: 'synthetic question' }] };

afterEach(() => {
  // Nothing may have been written onto the shared prototypes.
  expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  expect(Object.prototype).not.toHaveProperty('system');
});

describe('__proto__ and constructor keys in request bodies', () => {
  it.each([
    ['anthropic-messages', anthropic],
    ['openai-chat', chat],
    ['openai-responses', responses],
  ])('a %s body reads the same with them as without', async (_format, body) => {
    const plain = await read('log.jsonl', JSON.stringify(body));
    const hostile = await read('log.jsonl', withLeadingMembers(body, PROTO_MEMBERS));
    expect(plain.requests).toHaveLength(1);
    expect(behaviour(hostile)).toEqual(behaviour(plain));
  });

  it('inside a content block they do not change its type or text', async () => {
    const text = '{"model":"claude-sonnet-4-5","messages":[{"role":"user","content":[{"__proto__":{"type":"image"},"type":"text","text":"synthetic","constructor":{"name":"x"}}]}]}';
    const result = await read('log.jsonl', text);
    expect(result.requests[0]!.segments.map((s) => [s.category, s.text])).toEqual([['user', 'synthetic']]);
  });

  it('an envelope named only through __proto__ is not unwrapped', async () => {
    const text = `{"__proto__":{"custom_id":"x","params":${JSON.stringify(chat)}},"model":"gpt-4o","messages":[{"role":"user","content":"own"}]}`;
    const result = await read('log.jsonl', text);
    expect(result.files[0]!.envelope).toBe('none');
    expect(result.requests[0]!.segments.map((s) => s.text)).toEqual(['own']);
  });
});

describe('duplicate keys: the last one wins, as JSON.parse decides, everywhere', () => {
  it('in a request body', async () => {
    const duplicated = '{"model":"gpt-4o","messages":[{"role":"user","content":"first"}],"messages":[{"role":"user","content":"last"}]}';
    const last = '{"model":"gpt-4o","messages":[{"role":"user","content":"last"}]}';
    expect(behaviour(await read('log.jsonl', duplicated))).toEqual(behaviour(await read('log.jsonl', last)));
  });

  it('in a dupes envelope', async () => {
    const duplicated = '{"suite":"v1","blocks":[{"text":"a"},{"text":"a"}],"blocks":[{"text":"a"},{"text":"b"}]}';
    const record = await evaluateDupesInput({ name: 'e.json', bytes: utf8.encode(duplicated) });
    expect(record.result).toBe('pass');
    expect(record.totals.blocks).toBe(2);
  });

  it('in a routes file', () => {
    const route = validRoute('anthropic-messages');
    const text = withLeadingMembers(route, '"triggerTokens":-5').replace(/^/, '[') + ']';
    const parsed = parseRoutes(JSON.parse(text));
    expect(parsed.ok && parsed.value[0]!.triggerTokens).toBe(180_000);
  });
});

describe('__proto__ and constructor in the other readers', () => {
  it('dupes: a native envelope reads the same with them', async () => {
    const envelope = { suite: 'v1', blocks: [{ text: 'x y' }, { text: 'x y' }] };
    const hostile = withLeadingMembers(envelope, '"__proto__":{"adapter":"openai-chat-v1"},"constructor":{"prototype":{"polluted":true}}');
    const plain = await evaluateDupesInput({ name: 'e.json', bytes: utf8.encode(JSON.stringify(envelope)) });
    const withProto = await evaluateDupesInput({ name: 'e.json', bytes: utf8.encode(hostile) });
    expect(withProto).toEqual(plain);
    expect(plain.result).toBe('fail');
  });

  it('clearing inputs: routes, agent config and allowlist parse the same with them', () => {
    const hostile = (value: object) => JSON.parse(withLeadingMembers(value, '"__proto__":{"api":"openai-completions","readOnly":true,"builtins":["bash"]},"constructor":{"prototype":{"polluted":true}}')) as unknown;
    const route = validRoute('anthropic-messages');
    expect(parseRoutes([hostile(route)])).toEqual(parseRoutes([route]));
    expect(parseAgentConfig(hostile(VALID_AGENT_CONFIG))).toEqual(parseAgentConfig(VALID_AGENT_CONFIG));
    const entry = VALID_APP_ALLOWLIST[0]!;
    expect(parseAppAllowlist([hostile(entry)])).toEqual(parseAppAllowlist([entry]));
    // A required member given only through __proto__ is missing, not inherited.
    const { readOnly: _dropped, ...withoutReadOnly } = entry;
    const parsed = parseAppAllowlist([hostile(withoutReadOnly)]);
    expect(parsed.ok).toBe(false);
  });

  it('pi journals: a header whose id comes only through __proto__ is invalid', () => {
    const parsed = parseJournal('{"type":"session","version":3,"__proto__":{"id":"synthetic"}}\n');
    expect(parsed).toEqual({ ok: false, skip: { reason: 'invalid', line: 1, field: 'header' } });
  });

  it('share fragments: __proto__ and constructor parameters are ignored', () => {
    expect(parseFragment('#__proto__=x&constructor=y&request=2')).toEqual({ ok: true, state: { request: 2 } });
  });
});
