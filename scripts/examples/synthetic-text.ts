// Deterministic synthetic content for the example sessions: a fictional repository ("tidewater", a
// shipment-tracking service) whose files, diffs and test output are generated from a seeded PRNG.
// Nothing here is copied from a real project; every example that uses it is labelled synthetic.

export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NOUNS = ['shipment', 'carrier', 'manifest', 'route', 'parcel', 'depot', 'invoice', 'customer', 'scan', 'label',
  'dock', 'pallet', 'tracking', 'event', 'quote', 'zone', 'rate', 'hold', 'customs', 'batch'];
const VERBS = ['load', 'resolve', 'compute', 'validate', 'apply', 'merge', 'emit', 'fetch', 'persist', 'schedule',
  'reconcile', 'normalize', 'project', 'assign', 'release'];
const WORDS = ['the', 'a', 'each', 'when', 'before', 'after', 'only', 'every', 'pending', 'active', 'stale',
  'current', 'previous', 'carrier', 'window', 'threshold', 'status', 'record', 'queue', 'retry', 'timeout',
  'returns', 'updates', 'checks', 'skips', 'keeps', 'drops', 'value', 'field', 'index', 'snapshot'];

export interface Rng {
  pick<T>(items: readonly T[]): T;
  int(min: number, max: number): number;
}

export function rng(seed: number): Rng {
  const next = prng(seed);
  return {
    pick: (items) => items[Math.floor(next() * items.length)]!,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
  };
}

const cap = (s: string) => s[0]!.toUpperCase() + s.slice(1);

export function sentence(r: Rng, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(r.pick(WORDS));
  return cap(out.join(' ')) + '.';
}

/** A synthetic TypeScript source file of roughly `lines` lines. */
export function sourceFile(r: Rng, path: string, lines: number): string {
  const out = [`// ${path} (synthetic example file)`, `import { Clock } from '../clock';`, ''];
  while (out.length < lines) {
    const noun = r.pick(NOUNS);
    const verb = r.pick(VERBS);
    const fn = `${verb}${cap(noun)}${r.int(1, 99)}`;
    out.push(`/** ${sentence(r, r.int(6, 14))} */`);
    out.push(`export function ${fn}(${noun}: ${cap(noun)}, clock: Clock): ${cap(noun)}Result {`);
    const body = r.int(4, 12);
    for (let i = 0; i < body; i++) {
      const other = r.pick(NOUNS);
      out.push(`  const ${other}${i} = ${noun}.${r.pick(VERBS)}${cap(other)}(clock.now(), ${r.int(0, 5000)});`);
      if (r.int(0, 3) === 0) out.push(`  if (!${other}${i}.ok) return { ok: false, reason: '${r.pick(WORDS)}_${r.pick(WORDS)}' };`);
    }
    out.push(`  return { ok: true, value: ${noun} };`, '}', '');
  }
  return out.join('\n');
}

export function testOutput(r: Rng, failing: number): string {
  const lines = ['$ npm test', '', '> tidewater@2.4.0 test', '> vitest run', ''];
  const files = r.int(12, 20);
  for (let i = 0; i < files; i++) {
    const noun = r.pick(NOUNS);
    lines.push(` ✓ src/${noun}/${noun}.test.ts (${r.int(3, 30)} tests) ${r.int(5, 900)}ms`);
  }
  for (let i = 0; i < failing; i++) {
    const noun = r.pick(NOUNS);
    lines.push(` ✗ src/${noun}/${noun}.test.ts > ${r.pick(VERBS)} ${noun} > ${sentence(r, 5)}`,
      `   AssertionError: expected ${r.int(1, 400)} to equal ${r.int(1, 400)}`,
      `    at src/${noun}/${noun}.test.ts:${r.int(10, 300)}:${r.int(3, 30)}`);
  }
  lines.push('', ` Test Files  ${failing ? `${failing} failed | ` : ''}${files} passed`, ` Duration  ${r.int(2, 40)}.${r.int(10, 99)}s`);
  return lines.join('\n');
}

export function systemPrompt(r: Rng, paragraphs: number): string {
  const out = ['You are a careful senior engineer working in the tidewater repository (synthetic example).', ''];
  for (let i = 0; i < paragraphs; i++) {
    out.push(`## ${cap(r.pick(NOUNS))} ${r.pick(['rules', 'conventions', 'workflow', 'safety', 'style'])}`);
    for (let j = 0; j < r.int(3, 7); j++) out.push(`- ${sentence(r, r.int(10, 24))}`);
    out.push('');
  }
  return out.join('\n');
}
