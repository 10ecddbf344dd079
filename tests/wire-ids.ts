// Hand-built segments need a `Segment.wireId`. One numbering of distinct wires for the whole test process gives
// equal wires equal ids, as the TextStore of a read does.
const ids = new Map<string, number>();

export function wireIdOf(wire: string): number {
  let id = ids.get(wire);
  if (id === undefined) {
    id = ids.size;
    ids.set(wire, id);
  }
  return id;
}
