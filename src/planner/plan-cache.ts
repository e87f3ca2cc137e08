/**
 * A bounded least-recently-used cache of prepared statements keyed by SQL
 * text: a hit skips lexing, parsing, lowering, binding and compiling. The
 * owner clears it whenever a schema changes (a plan holds resolved column
 * positions).
 */

export class PlanCache<T> {
  private readonly entries = new Map<string, T>();

  constructor(readonly capacity = 256) {}

  get(key: string): T | undefined {
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      // Re-insert: Map order is recency order.
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }

  set(key: string, value: T): void {
    this.entries.delete(key);
    if (this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, value);
  }

  clear(): void {
    this.entries.clear();
  }
}
