// A cache's memory bound: entries are counted by size as they are added, and while the total is over the budget
// the oldest are handed back to be forgotten. Shared by the importers' element cache and the resent-JSONL reader.

export class OldestFirst<T> {
  private readonly order: T[] = [];
  private head = 0;
  private total = 0;

  constructor(
    private readonly budget: number,
    private readonly sizeOf: (entry: T) => number,
    private readonly forget: (entry: T) => void,
  ) {}

  add(entry: T): void {
    this.order.push(entry);
    this.total += this.sizeOf(entry);
    while (this.total > this.budget && this.head < this.order.length) {
      const oldest = this.order[this.head++]!;
      // Size first: forgetting may release what sizeOf reads.
      this.total -= this.sizeOf(oldest);
      this.forget(oldest);
    }
    // Compact the queue now and then instead of shifting it on every eviction.
    if (this.head > 4096 && this.head * 2 > this.order.length) {
      this.order.splice(0, this.head);
      this.head = 0;
    }
  }
}
