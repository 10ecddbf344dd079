import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findConversations } from '../../src/core/cache/conversations.ts';
import {
  findNearDuplicates,
  fnv1aWords,
  jaccard,
  nearDuplicatesInRequest,
  shingles,
} from '../../src/core/cache/near-duplicates.ts';
import { loopMessages, makeRequest, makeRequests } from './conversations-helpers.ts';

/** A synthetic "file" of n distinct lines, each a few words. */
const syntheticFile = (name: string, lines: number) =>
  Array.from({ length: lines }, (_, i) => `line ${i} of synthetic ${name} holds value ${i * 7}`).join('\n');

describe('fnv1aWords', () => {
  it('matches the published FNV-1a 32-bit test vectors', () => {
    // FNV-1a("a") = 0xe40c292c, FNV-1a("foobar") = 0xbf9cf968 (Fowler/Noll/Vo reference values).
    expect(fnv1aWords(['a'], 0, 1)).toBe(0xe40c292c);
    expect(fnv1aWords(['foobar'], 0, 1)).toBe(0xbf9cf968);
    // Words are joined by one space: "foo bar" hashes like the string with the space.
    expect(fnv1aWords(['foo', 'bar'], 0, 2)).toBe(fnv1aWords(['foo bar'], 0, 1));
  });

  it('hashes UTF-8 bytes: "é" is C3 A9', () => {
    const manual = Math.imul(Math.imul(0x811c9dc5 ^ 0xc3, 0x01000193) ^ 0xa9, 0x01000193) >>> 0;
    expect(fnv1aWords(['é'], 0, 1)).toBe(manual);
  });
});

describe('shingles', () => {
  it('makes one shingle per 5-word window, case- and whitespace-insensitive', () => {
    expect(shingles('one two three four')).toHaveLength(0);
    expect(shingles('one two three four five')).toHaveLength(1);
    expect(shingles('one two three four five six')).toHaveLength(2);
    expect(shingles('One  two\nthree four FIVE')).toEqual(shingles('one two three four five'));
  });

  it('is the distinct fnv1aWords of every 5-word window of the lower-cased text split at whitespace (property test)', () => {
    // Words of ASCII, accents, astral characters and lone surrogates; separators of every whitespace JavaScript knows.
    const word = fc.array(fc.constantFrom('a', 'B', 'z', '0', '-', 'é', 'Ü', '𝄞', '\ud800', '\udc00', 'ß', 'İ'), { minLength: 1, maxLength: 6 }).map((chars) => chars.join(''));
    const space = fc.array(fc.constantFrom(' ', '\t', '\n', '\r', '\u000b', '\u000c', '\u00a0', '\u1680', '\u2000', '\u200a', '\u2028', '\u2029', '\u202f', '\u205f', '\u3000', '\ufeff'), { minLength: 1, maxLength: 3 }).map((chars) => chars.join(''));
    const text = fc.tuple(fc.array(fc.tuple(word, space), { maxLength: 40 }), fc.boolean(), fc.boolean()).map(([parts, lead, trail]) => `${lead ? ' ' : ''}${parts.map(([w, s]) => w + s).join('')}${trail ? '' : 'end'}`);
    fc.assert(
      fc.property(text, (value) => {
        const words = value.toLowerCase().split(/\s+/).filter((w) => w !== '');
        const expected = [...new Set(words.slice(0, Math.max(0, words.length - 4)).map((_, i) => fnv1aWords(words, i, 5)))].sort((a, b) => a - b);
        expect([...shingles(value)]).toEqual(expected);
      }),
      { numRuns: 3000, seed: 5 },
    );
  });

  it('gives identical texts Jaccard 1 and disjoint texts 0', () => {
    const a = shingles(syntheticFile('a', 20));
    expect(jaccard(a, a)).toBe(1);
    expect(jaccard(a, shingles('entirely different synthetic words with nothing shared at all'))).toBe(0);
  });
});

describe('nearDuplicatesInRequest', () => {
  it('groups a file read twice with one line changed, and leaves other content alone', () => {
    const file = syntheticFile('ledger.ts', 80);
    const edited = file.replace('line 40 of', 'line forty of');
    const request = makeRequest({
      messages: [
        { role: 'user', text: 'synthetic: please read the ledger file and fix the bug in it today' },
        { role: 'tool', text: file },
        { role: 'assistant', text: 'synthetic: I will read it again after looking at the tests first' },
        { role: 'tool', text: syntheticFile('tests.ts', 80) },
        { role: 'tool', text: edited },
      ],
    });
    const sim = jaccard(shingles(file), shingles(edited));
    expect(sim).toBeGreaterThanOrEqual(0.85);
    expect(nearDuplicatesInRequest(request, 0)).toEqual([{ requestIndex: 0, segments: [1, 4], similarity: sim }]);
  });

  it('joins three copies transitively and reports the weakest link', () => {
    const file = syntheticFile('x', 60);
    const request = makeRequest({ messages: [{ role: 'tool', text: file }, { role: 'tool', text: file }, { role: 'tool', text: file + '\nextra synthetic trailing line here' }] });
    const groups = nearDuplicatesInRequest(request, 3);
    expect(groups).toHaveLength(1);
    expect(groups[0]!.segments).toEqual([0, 1, 2]);
    expect(groups[0]!.similarity).toBe(jaccard(shingles(file), shingles(file + '\nextra synthetic trailing line here')));
  });

  it('does not group texts below the threshold', () => {
    const file = syntheticFile('y', 20);
    const half = file.split('\n').slice(0, 12).join('\n');
    expect(jaccard(shingles(file), shingles(half))).toBeLessThan(0.85);
    expect(nearDuplicatesInRequest(makeRequest({ messages: [{ role: 'tool', text: file }, { role: 'tool', text: half }] }), 0)).toEqual([]);
  });

  it('ignores tool definitions and texts too short to shingle', () => {
    const request = makeRequest({ tools: ['a', 'a'], messages: [{ role: 'user', text: 'ok' }, { role: 'user', text: 'ok' }] });
    expect(nearDuplicatesInRequest(request, 0)).toEqual([]);
  });

  it('finds exactly the pairs an all-pairs comparison finds (random texts)', () => {
    const vocabulary = ['alpha', 'beta', 'gamma', 'delta', 'eps'];
    const text = fc.array(fc.constantFrom(...vocabulary), { minLength: 5, maxLength: 14 }).map((w) => w.join(' '));
    fc.assert(
      fc.property(fc.array(text, { minLength: 2, maxLength: 8 }), (texts) => {
        const request = makeRequest({ messages: texts.map((t) => ({ role: 'tool' as const, text: t })) });
        const grouped = new Set(nearDuplicatesInRequest(request, 0).flatMap((g) => g.segments));
        const sets = texts.map(shingles);
        const expected = new Set<number>();
        for (let i = 0; i < sets.length; i++) {
          for (let j = i + 1; j < sets.length; j++) {
            const a = sets[i]!;
            const b = sets[j]!;
            const shared = a.filter((h) => b.includes(h)).length;
            if (shared * 100 >= (a.length + b.length - shared) * 85) {
              expected.add(i);
              expected.add(j);
            }
          }
        }
        expect([...grouped].sort()).toEqual([...expected].sort());
      }),
      { numRuns: 400 },
    );
  });
});

describe('findNearDuplicates', () => {
  it('scans only the last request of each conversation', () => {
    const file = syntheticFile('re-read', 40);
    const base = loopMessages('r', 0);
    const specs = [
      { messages: [...base, { role: 'assistant' as const, text: 'synthetic: reading' }, { role: 'tool' as const, text: file }] },
      {
        messages: [
          ...base,
          { role: 'assistant' as const, text: 'synthetic: reading' },
          { role: 'tool' as const, text: file },
          { role: 'assistant' as const, text: 'synthetic: reading again' },
          { role: 'tool' as const, text: file },
        ],
      },
    ];
    const requests = makeRequests(specs);
    const groups = findNearDuplicates(requests, findConversations(requests)).groups;
    expect(groups).toEqual([{ requestIndex: 1, segments: [2, 4], similarity: 1 }]);
  });
});

describe('many copies in one request', () => {
  it('groups 3,000 identical results and 3,000 near-identical ones without comparing every pair', () => {
    const body = 'synthetic build output: compiled 120 modules, 0 warnings, cache warm, artifacts written to dist';
    const messages = [
      ...Array.from({ length: 3000 }, () => ({ role: 'tool' as const, text: body })),
      ...Array.from({ length: 3000 }, (_, i) => ({ role: 'tool' as const, text: `timing of the same synthetic build: ${body} in ${i}` })),
    ];
    const groups = nearDuplicatesInRequest(makeRequest({ messages }), 0);
    const sizes = groups.map((g) => g.segments.length).sort((a, b) => a - b);
    // The exact copies form one group; the variants (22 words, 18 shingles) differ only in their last word, which is
    // in one shingle: Jaccard 17/19 per pair.
    expect(sizes).toEqual([3000, 3000]);
    expect(groups.find((g) => g.segments[0] === 0)!.similarity).toBe(1);
    expect(groups.find((g) => g.segments[0] === 3000)!.similarity).toBe(17 / 19);
  });
});

describe('work budget', () => {
  // 300 blocks that each share most shingles with the others but stay under 0.85 with every one of them: every
  // pair passes the prefix filter and is verified, the quadratic case the budget bounds.
  const words = Array.from({ length: 60 }, (_, i) => `w${i}`);
  const block = (k: number) => [...words, `x${k}a`, `x${k}b`, `x${k}c`, `x${k}d`, `x${k}e`, `x${k}f`, `x${k}g`, `x${k}h`].join(' ');
  const request = () => makeRequest({ messages: Array.from({ length: 300 }, (_, k) => ({ role: 'tool' as const, text: block(k) })) });

  it('stops at the budget and reports the request it cut and how many were left', () => {
    const requests = [request(), makeRequest({ messages: loopMessages('other', 0) })];
    const conversations = findConversations(requests);
    expect(findNearDuplicates(requests, conversations).cut).toBeNull();
    const lastRequests = new Set(conversations.conversationOf).size;
    const cut = findNearDuplicates(requests, conversations, 1_000);
    expect(cut.cut).toEqual({ request: 0, requestsNotCompared: lastRequests - 1 });
    expect(cut.groups).toEqual([]);
  });

  it('spends at most the budget (plus one verification) on such a request', () => {
    const budget = { left: 50_000 };
    nearDuplicatesInRequest(request(), 0, new Map(), budget);
    const oneVerification = 2 * shingles(block(0)).length;
    expect(budget.left).toBeLessThan(0);
    expect(budget.left).toBeGreaterThanOrEqual(-oneVerification - 1);
  });
});
