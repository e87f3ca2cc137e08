/** Values numbered in the order first met; values equal as JSON share a number (an aggregate or window call written twice is one). */
export class Numbering<T> {
  readonly items: T[] = [];
  private readonly keys = new Map<string, number>();

  number(item: T): number {
    const key = JSON.stringify(item);
    let index = this.keys.get(key);
    if (index === undefined) {
      index = this.items.push(item) - 1;
      this.keys.set(key, index);
    }
    return index;
  }
}
