/**
 * A bounded least-recently-used cache of prepared statements: a hit skips
 * lexing, parsing, lowering, binding and compiling. The engine keys SQL
 * statements by their text and JSON commands by their shape's hash (a
 * number, so the two key spaces never meet). The owner clears it whenever a
 * schema changes (a plan holds resolved column positions).
 *
 * A hit only stamps its entry with a use counter (one Map lookup): moving the
 * entry to the end of the Map on every hit (delete, then set) cost ~0.5 µs
 * of a point select over HTTP (bench/http.ts, profiled). Eviction, on a miss with the cache full, scans for the
 * stalest stamp instead — a miss binds and compiles anyway, which costs far
 * more than looking at `capacity` entries.
 */

interface Entry<T> {
  readonly value: T;
  used: number;
}

export class PlanCache<K, T> {
  private readonly entries = new Map<K, Entry<T>>();
  private uses = 0;

  constructor(readonly capacity = 256) {}

  get(key: K): T | undefined {
    const hit = this.entries.get(key);
    if (hit === undefined) return undefined;
    hit.used = ++this.uses;
    return hit.value;
  }

  set(key: K, value: T): void {
    if (!this.entries.has(key) && this.entries.size >= this.capacity) this.evictStalest();
    this.entries.set(key, { value, used: ++this.uses });
  }

  clear(): void {
    this.entries.clear();
  }

  private evictStalest(): void {
    let stalest: K | undefined;
    let oldest = Infinity;
    for (const [key, entry] of this.entries) {
      if (entry.used < oldest) {
        oldest = entry.used;
        stalest = key;
      }
    }
    if (stalest !== undefined) this.entries.delete(stalest);
  }
}
