// The API calls already counted across the files of one read or one folder: a Claude Code session resumed or
// copied into another project folder writes the same responses again (the same `message.id` and `requestId`),
// and ccusage counts each once. The first file read keeps a call; a later file's copy is dropped from the
// requests (its messages stay in that file's history) and counted against that file, so reports say how many were
// dropped and where. Only calls with both ids are matched, as ccusage does: nothing else identifies a call.

export class SeenCalls {
  private readonly keys = new Set<string>();
  private dropped = new Map<number, number>();

  /** A tentative registry over this one (`commit` keeps what it claimed): a read that may be given up and redone. */
  constructor(private readonly parent: SeenCalls | null = null) {}

  private has(key: string): boolean {
    return this.keys.has(key) || (this.parent?.has(key) ?? false);
  }

  /** False when this call was already counted: it is dropped here, and counted against `file`. */
  claim(messageId: string, requestId: string, file: number): boolean {
    const key = `${messageId}\u0000${requestId}`;
    if (!this.has(key)) {
      this.keys.add(key);
      return true;
    }
    this.dropped.set(file, (this.dropped.get(file) ?? 0) + 1);
    return false;
  }

  /** Makes a tentative registry's claims its parent's. */
  commit(): void {
    if (this.parent === null) return;
    for (const key of this.keys) this.parent.keys.add(key);
    this.keys.clear();
  }

  /** The calls dropped since the last take, per file (the caller's file indices), in file order; then forgets them. */
  takeDropped(): DroppedCalls[] {
    const taken = [...this.dropped].sort(([a], [b]) => a - b).map(([file, calls]) => ({ file, calls }));
    this.dropped = new Map();
    return taken;
  }
}

export interface DroppedCalls {
  file: number;
  calls: number;
}
