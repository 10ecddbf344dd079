// Interning: an agent loop resends its whole history every turn, so most block texts repeat.
// Keeping one copy per distinct text bounds memory by distinct content, not by request count,
// and lets later passes compare identities with === in O(1).

export class TextInterner {
  private readonly table = new Map<string, string>();

  intern(text: string): string {
    const known = this.table.get(text);
    if (known !== undefined) return known;
    this.table.set(text, text);
    return text;
  }

  get size(): number {
    return this.table.size;
  }
}
