// Large synthetic inputs for the `scale:large-input` fuzz target: the shapes of the bomb bench
// (scripts/bench/bombs.ts) at sizes a fuzz run can afford, each built from a few generated numbers.
export type ScaleShape = 'tiny-records' | 'growing-conversation' | 'near-duplicates' | 'reordered' | 'blank-lines';

export interface ScaleCase {
  shape: ScaleShape;
  /** The shape's size knob (records, turns, blocks …), already within its range. */
  size: number;
  /** A second knob: words per block, or requests of a reordered history. */
  width: number;
  gzip: boolean;
}

const body = (content: unknown[], system = 'synthetic system prompt') => JSON.stringify({ model: 'claude-sonnet-4-5', system, messages: [{ role: 'user', content }] });

export function largeInput({ shape, size, width }: ScaleCase): string {
  const lines: string[] = [];
  switch (shape) {
    case 'tiny-records':
      for (let i = 0; i < size; i++) lines.push(JSON.stringify({ model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: `synthetic ${i % width}` }] }));
      break;
    case 'growing-conversation': {
      // One agent loop resending its whole history: segments grow with turns².
      const messages: unknown[] = [];
      for (let turn = 0; turn < size; turn++) {
        messages.push({ role: 'user', content: `synthetic turn ${turn} ${'word '.repeat(width)}` }, { role: 'assistant', content: `synthetic answer ${turn}` });
        lines.push(JSON.stringify({ model: 'claude-sonnet-4-5', system: 'synthetic', messages: [...messages, { role: 'user', content: 'continue' }] }));
      }
      break;
    }
    case 'near-duplicates': {
      const common = Array.from({ length: 60 }, (_, i) => `w${i}`).join(' ');
      lines.push(body(Array.from({ length: size }, (_, k) => ({ type: 'text', text: `${common} ${Array.from({ length: 8 }, (_, j) => `x${k}_${j}`).join(' ')}` }))));
      break;
    }
    case 'reordered': {
      const blocks = Array.from({ length: size }, (_, i) => ({ type: 'text', text: `synthetic block ${i}` }));
      for (let r = 0; r < width; r++) {
        const shift = (r * 7919) % blocks.length;
        lines.push(body([{ type: 'text', text: 'synthetic task' }, ...blocks.slice(shift), ...blocks.slice(0, shift)]));
      }
      break;
    }
    case 'blank-lines':
      lines.push(body([{ type: 'text', text: 'synthetic' }]), '\n'.repeat(size), body([{ type: 'text', text: 'synthetic again' }]));
      break;
  }
  return lines.join('\n') + '\n';
}
