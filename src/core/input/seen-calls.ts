// The API calls already counted across the files of one read or one folder: a Claude Code session resumed or
// copied into another project folder writes the same responses again (the same `message.id` and `requestId`),
// and ccusage counts each once. The first file read keeps a call; a later file's copy is dropped from the
// requests (its messages stay in that file's history) and counted against that file, so reports say how many were
// dropped and where. A call is named by its message id and its request id, or, on lines with no request id
// (Bedrock, Claude Code up to 1.0.8), its message id and the line's session id, as ccusage names it
// (claude-code-calls.ts, callKey); a line with neither is not matched.

export class SeenCalls {
  private readonly keys = new Set<string>();
  private dropped = new Map<number, number>();

  /** A tentative registry over this one (`commit` keeps what it claimed): a read that may be given up and redone. */
  constructor(private readonly parent: SeenCalls | null = null) {}

  private has(key: string): boolean {
    return this.keys.has(key) || (this.parent?.has(key) ?? false);
  }

  /** False when this call was already counted: it is dropped here, and counted against `file`. */
  claim(messageId: string, callKey: string, file: number): boolean {
    const key = `${messageId}\u0000${callKey}`;
    if (!this.has(key)) {
      this.keys.add(key);
      return true;
    }
    this.dropped.set(file, (this.dropped.get(file) ?? 0) + 1);
    return false;
  }

  /**
   * The keys of the calls claimed here (opaque strings), for a caller that reads sessions apart — a pool of
   * workers, each with its own registry — and counts them in the serial order: `heldOf` finds the ones an earlier
   * session claimed, `holding` gives the registry to read the session again with, `claimAll` adds them.
   */
  claimedKeys(): string[] {
    return [...this.keys];
  }

  /** Of `keys`, the ones this registry (or its parent) has claimed. */
  heldOf(keys: readonly string[]): string[] {
    return keys.filter((key) => this.has(key));
  }

  claimAll(keys: Iterable<string>): void {
    for (const key of keys) this.keys.add(key);
  }

  /** A registry that has claimed `keys` already: a later session read on its own drops their copies. */
  static holding(keys: Iterable<string>): SeenCalls {
    const seen = new SeenCalls();
    seen.claimAll(keys);
    return seen;
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
