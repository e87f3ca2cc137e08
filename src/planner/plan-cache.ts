/**
 * A bounded least-recently-used cache of prepared statements: a hit skips
 * lexing, parsing, lowering, binding and compiling. The engine keys SQL
 * statements by their text and JSON commands by their shape's hash (a
 * number, so the two key spaces never meet). The owner clears it whenever a
 * schema changes (a plan holds resolved column positions).
 */

export class PlanCache<K, T> {
  private readonly entries = new Map<K, T>();

  constructor(readonly capacity = 256) {}

  get(key: K): T | undefined {
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      // Re-insert: Map order is recency order.
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }

  set(key: K, value: T): void {
    this.entries.delete(key);
    if (this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value as K);
    this.entries.set(key, value);
  }

  clear(): void {
    this.entries.clear();
  }
}
