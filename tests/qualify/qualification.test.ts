// Runs the real installed pi-ai builders offline on the SYNTHETIC fixtures and checks the judge catches
// every kind of unintended change (ids, signatures, arguments, ordering, pairing, counts).
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildPayload, qualificationModel } from '../../src/cli/qualify/build.ts';
import { diffJson } from '../../src/cli/qualify/diff.ts';
import { evaluateCase } from '../../src/cli/qualify/evaluate.ts';
import { CLEARING_PLACEHOLDER, clearTargetedResults, fixtureCases, QUALIFIED_APIS, type QualifiedApi } from '../../src/cli/qualify/fixtures.ts';
import { targetedResultLeaves } from '../../src/cli/qualify/reference.ts';
import { runQualification } from '../../src/cli/qualify/run.ts';
import type { QualificationRecord } from '../../src/core/clearing/qualification-record.ts';

type Json = Record<string, unknown>;

/** The first object (depth-first, document order) matching `match`. */
function findFirst(root: unknown, match: (node: Json) => boolean): Json {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.shift();
    if (node !== null && typeof node === 'object') {
      if (!Array.isArray(node) && match(node as Json)) return node as Json;
      stack.unshift(...(Array.isArray(node) ? node : Object.values(node as Json)));
    }
  }
  throw new Error('no matching node in payload');
}

/** Where each API keeps its conversation items. */
function items(api: QualifiedApi, payload: unknown): unknown[] {
  return (payload as Json)[api.startsWith('openai-') && api !== 'openai-completions' ? 'input' : 'messages'] as unknown[];
}

const MUTATIONS: Record<string, (api: QualifiedApi, payload: unknown) => void> = {
  'tool-call id': (api, p) => {
    if (api === 'anthropic-messages') findFirst(p, (n) => n.type === 'tool_use').id += 'X';
    else if (api === 'openai-completions') findFirst(p, (n) => n.type === 'function' && 'id' in n).id += 'X';
    else findFirst(p, (n) => n.type === 'function_call').id += 'X';
  },
  'reasoning signature': (api, p) => {
    if (api === 'anthropic-messages') findFirst(p, (n) => n.type === 'thinking').signature += 'X';
    else if (api === 'openai-completions') findFirst(p, (n) => n.role === 'assistant' && typeof n.reasoning_content === 'string' && n.reasoning_content !== '').reasoning_content += 'X';
    else findFirst(p, (n) => n.type === 'reasoning').encrypted_content += 'X';
  },
  'reasoning text': (api, p) => {
    if (api === 'anthropic-messages') findFirst(p, (n) => n.type === 'thinking').thinking += 'X';
    else if (api === 'openai-completions') findFirst(p, (n) => n.role === 'assistant' && typeof n.reasoning_content === 'string' && n.reasoning_content !== '').reasoning_content = '';
    else findFirst(p, (n) => n.type === 'summary_text').text += 'X';
  },
  'tool arguments': (api, p) => {
    if (api === 'anthropic-messages') (findFirst(p, (n) => n.type === 'tool_use').input as Json).path = 'synthetic/other.ts';
    else if (api === 'openai-completions') findFirst(p, (n) => typeof n.arguments === 'string').arguments = '{}';
    else findFirst(p, (n) => n.type === 'function_call').arguments = '{}';
  },
  'result pairing': (api, p) => {
    if (api === 'anthropic-messages') findFirst(p, (n) => n.type === 'tool_result').tool_use_id = 'toolu_synthetic_other';
    else if (api === 'openai-completions') findFirst(p, (n) => n.role === 'tool').tool_call_id = 'toolu_synthetic_other';
    else findFirst(p, (n) => n.type === 'function_call_output').call_id = 'call_synthetic_other';
  },
  'item ordering': (api, p) => {
    const list = items(api, p);
    [list[1], list[2]] = [list[2], list[1]];
  },
  'item count': (api, p) => {
    items(api, p).pop();
  },
  'extra field': (_api, p) => {
    (p as Json).temperature = 0.5;
  },
};

describe('offline qualification with the installed pi-ai builders (synthetic fixtures)', () => {
  let record: QualificationRecord;
  const realFetch = globalThis.fetch;

  beforeAll(async () => {
    const run = await runQualification();
    record = run.record;
    expect(run.findings).toEqual([]);
  });
  afterEach(() => {
    globalThis.fetch = realFetch;
  });

  it('qualifies every supported API with 0 unintended differences and all 11 targets cleared', () => {
    expect(record.schema).toBe('ctxray.qualification/1');
    expect(record.fixtures).toBe('synthetic');
    expect(record.networkCalls).toBe(0);
    expect(record.apis.map((a) => a.api)).toEqual([...QUALIFIED_APIS]);
    for (const entry of record.apis) {
      // 3 cases: read-fix-verify targets 4 results, parallel-calls-image 2, long-tool-loop 5.
      expect(entry).toMatchObject({ cases: 3, targetedLeaves: 11, changedLeaves: 11, unintendedDifferences: 0, result: 'qualified' });
    }
    expect(record.apis.find((a) => a.api === 'openai-codex-responses')?.alwaysDefers).toBe('wire-unproven');
    expect(record.apis.filter((a) => a.alwaysDefers !== undefined)).toHaveLength(1);
  });

  it('never calls fetch while building payloads', async () => {
    const spy = vi.fn(() => Promise.reject(new Error('network used')));
    globalThis.fetch = spy as unknown as typeof fetch;
    for (const api of QUALIFIED_APIS) {
      const fixture = fixtureCases(api)[0]!;
      await buildPayload(qualificationModel(api), fixture.context);
      await buildPayload(qualificationModel(api), clearTargetedResults(fixture));
    }
    expect(spy).not.toHaveBeenCalled();
  });

  it('would notice a fetch: without the throw in onPayload the builder does reach fetch (spy refuses it)', async () => {
    const spy = vi.fn(() => Promise.reject(new Error('network refused by test')));
    globalThis.fetch = spy as unknown as typeof fetch;
    const { stream } = await import('@mariozechner/pi-ai');
    const model = qualificationModel('openai-completions');
    const events = stream(model, fixtureCases('openai-completions')[0]!.context, {
      apiKey: 'synthetic-offline-key-never-sent',
      maxRetries: 0,
      onPayload: () => undefined,
    });
    const final = await events.result();
    expect(final.stopReason).toBe('error');
    expect(spy).toHaveBeenCalled();
  });

  it('builds byte-identical payloads from the same conversation', async () => {
    for (const api of QUALIFIED_APIS) {
      const fixture = fixtureCases(api)[1]!;
      const first = await buildPayload(qualificationModel(api), fixture.context);
      const second = await buildPayload(qualificationModel(api), fixture.context);
      expect(JSON.stringify(second)).toBe(JSON.stringify(first));
    }
  });

  describe.each([...QUALIFIED_APIS])('%s', (api) => {
    const fixture = fixtureCases(api)[0]!;
    let uncleared: unknown;
    let cleared: unknown;
    beforeAll(async () => {
      uncleared = await buildPayload(qualificationModel(api), fixture.context);
      cleared = await buildPayload(qualificationModel(api), clearTargetedResults(fixture));
    });

    it('changes exactly the 4 targeted result-text leaves, to the placeholder', () => {
      const leaves = targetedResultLeaves(api, uncleared, fixture.targetedToolCallIds);
      expect(leaves.unlocated).toEqual([]);
      expect(leaves.paths).toHaveLength(4);
      const diffs = diffJson(uncleared, cleared);
      expect(diffs.map((d) => d.path)).toEqual(leaves.paths);
      expect(evaluateCase(api, uncleared, cleared, fixture.targetedToolCallIds)).toMatchObject({
        targetedLeaves: 4,
        changedLeaves: 4,
        unintendedDifferences: 0,
      });
    });

    it.each(Object.keys(MUTATIONS))('detects a mutated %s in the cleared payload', (name) => {
      const broken = structuredClone(cleared);
      MUTATIONS[name]!(api, broken);
      const outcome = evaluateCase(api, uncleared, broken, fixture.targetedToolCallIds);
      expect(outcome.unintendedDifferences).toBeGreaterThan(0);
    });

    it('counts a target left uncleared as unintended', () => {
      const leaves = targetedResultLeaves(api, uncleared, fixture.targetedToolCallIds);
      const partly = structuredClone(cleared) as Json;
      const path = leaves.paths[0]!;
      let parent: unknown = partly;
      for (const part of path.slice(0, -1)) parent = (parent as Json)[part as string];
      (parent as Json)[path[path.length - 1] as string] = 'SYNTHETIC still here';
      expect(evaluateCase(api, uncleared, partly, fixture.targetedToolCallIds)).toMatchObject({ changedLeaves: 3, unintendedDifferences: 1 });
    });

    it('counts clearing a protected (latest) result as unintended, through the real builder', async () => {
      const last = fixture.context.messages.at(-1)!;
      expect(last.role).toBe('toolResult');
      const overCleared = clearTargetedResults({
        ...fixture,
        targetedToolCallIds: [...fixture.targetedToolCallIds, (last as { toolCallId: string }).toolCallId],
      });
      const payload = await buildPayload(qualificationModel(api), overCleared);
      const outcome = evaluateCase(api, uncleared, payload, fixture.targetedToolCallIds);
      expect(outcome.changedLeaves).toBe(4);
      expect(outcome.unintendedDifferences).toBe(1);
    });

    it('counts a targeted id the payload does not contain as unintended', () => {
      const outcome = evaluateCase(api, uncleared, cleared, [...fixture.targetedToolCallIds, 'toolu_synthetic_absent']);
      expect(outcome.unintendedDifferences).toBe(1);
    });
  });

  it('uses the placeholder text only in targeted leaves', () => {
    expect(CLEARING_PLACEHOLDER).toMatch(/synthetic/);
    for (const api of QUALIFIED_APIS) {
      for (const fixture of fixtureCases(api)) {
        expect(JSON.stringify(fixture.context)).not.toContain(CLEARING_PLACEHOLDER);
      }
    }
  });
});
