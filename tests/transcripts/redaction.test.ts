// Redaction placeholders (`[REDACTED_<KIND> len=N sha=…]`, as in the published Codex fixture): synthetic texts.
import { describe, expect, it } from 'vitest';
import { REDACTED_CHARS_PER_TOKEN, RedactionEstimator, redactionOf } from '../../src/core/transcripts/redaction.ts';
import { request, segment } from '../tokens/build.ts';

const P1 = '[REDACTED_TEXT len=3300 sha=036b7e47]'; // 38 characters
const P2 = '[REDACTED_OUTPUT len=66 sha=ab]';

describe('redactionOf', () => {
  it('reads N from every placeholder', () => {
    expect(redactionOf(P1)).toEqual({ placeholders: 1, hiddenChars: 3300, placeholderChars: P1.length });
    expect(redactionOf(`{"a":"${P1}","b":"${P2}"}`)).toEqual({ placeholders: 2, hiddenChars: 3366, placeholderChars: P1.length + P2.length });
  });

  it('ignores plain text, malformed placeholders and encrypted blobs', () => {
    expect(redactionOf('plain synthetic text').placeholders).toBe(0);
    expect(redactionOf('[REDACTED_TEXT len=abc sha=00]').placeholders).toBe(0);
    expect(redactionOf('[REDACTED_TEXT len=12 sha=]').placeholders).toBe(0);
    expect(redactionOf('[REDACTED_ENCRYPTED_CONTENT len=2252 sha=8cb70179]').placeholders).toBe(0);
    expect(redactionOf('[REDACTED_TEXT len=99999999999999999 sha=00]').placeholders).toBe(0); // more than 12 digits
  });
});

describe('RedactionEstimator', () => {
  it("replaces the placeholder's share of its segment count with N ÷ chars-per-token", () => {
    const text = `${P1}${'x'.repeat(38)}`; // the placeholder is half of the 76 characters
    const req = request('openai-responses', 'gpt-synthetic', [segment({ category: 'user', text }), segment({ category: 'user', text: 'no placeholder' })]);
    const estimate = new RedactionEstimator().estimate(req, [20, 4]);
    // 3300 / 3.3 = 1000 tokens hidden, minus half of the segment's 20 tokens = 990.
    expect(REDACTED_CHARS_PER_TOKEN).toBe(3.3);
    expect(estimate).toEqual({ placeholders: 1, hiddenChars: 3300, extraTokens: 990 });
  });

  it('counts a shared segment once per request that sends it', () => {
    const shared = segment({ category: 'system', text: P1 });
    const estimator = new RedactionEstimator();
    const first = estimator.estimate(request('openai-responses', null, [shared]), [38]);
    const second = estimator.estimate(request('openai-responses', null, [shared, segment({ category: 'user', text: P2 })]), [38, 10]);
    expect(first.extraTokens).toBe(1000 - 38);
    // + 66 / 3.3 = 20 hidden, minus the 10 tokens the placeholder was counted as.
    expect(second).toEqual({ placeholders: 2, hiddenChars: 3366, extraTokens: 1000 - 38 + 20 - 10 });
  });
});
