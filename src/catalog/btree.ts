/**
 * An in-memory B+tree: an ordered map from keys to values under a given
 * comparison, with O(log n) get, set, delete and seek, and walks in either
 * direction along linked leaves. It backs the ordered part of secondary
 * indexes (`key-index.ts`), where a key is a column value (or an array of
 * them) and a value is the bucket of rows holding it.
 *
 * Nodes hold up to `MAX` entries in plain arrays (a binary search and a
 * splice each, cheap at this width); a node below `MIN` after a delete
 * borrows from a sibling or merges with it, so the tree stays balanced and
 * about half full whatever the mix of operations. Separators in inner nodes
 * are each child's smallest key when it was split off: a later delete may
 * leave one standing for a key that is gone, which still separates the
 * children, so deletes never rewrite ancestors.
 *
 * Seeks take a monotone predicate rather than a key (`before(k)` true for
 * every key before the wanted position, false from it on), so a caller can
 * seek to "the first text starting with p" or "past every key whose first
 * column is x" without building a sentinel key.
 */

const MAX = 64;
const MIN = MAX >> 1;
/** Entries per leaf when built from sorted entries: room for inserts before the first split. */
const BUILD_FILL = 48;

interface Leaf<K, V> {
  readonly leaf: true;
  keys: K[];
  values: V[];
  next: Leaf<K, V> | undefined;
  prev: Leaf<K, V> | undefined;
}

interface Inner<K, V> {
  readonly leaf: false;
  /** `keys[i]` separates `children[i]` (all keys below it) from `children[i + 1]` (all keys at or above it). */
  keys: K[];
  children: Node<K, V>[];
}

type Node<K, V> = Leaf<K, V> | Inner<K, V>;

/** A position in the tree: a leaf and an entry index in it. */
interface Cursor<K, V> {
  leaf: Leaf<K, V> | undefined;
  at: number;
}

function newLeaf<K, V>(keys: K[], values: V[]): Leaf<K, V> {
  return { leaf: true, keys, values, next: undefined, prev: undefined };
}

export class BTree<K, V> {
  private root: Node<K, V> = newLeaf<K, V>([], []);
  private count = 0;

  constructor(private readonly compare: (a: K, b: K) => number) {}

  get size(): number {
    return this.count;
  }

  get(key: K): V | undefined {
    let node = this.root;
    while (!node.leaf) node = node.children[this.childIndex(node, key)] as Node<K, V>;
    const at = this.lowerBound(node.keys, key);
    return at < node.keys.length && this.compare(node.keys[at] as K, key) === 0 ? node.values[at] : undefined;
  }

  /** Sets `key` to `value`, adding the key or replacing its value. */
  set(key: K, value: V): void {
    const split = this.insert(this.root, key, value);
    if (split !== undefined) {
      this.root = { leaf: false, keys: [split.key], children: [this.root, split.node] };
    }
  }

  /** Removes `key`; returns whether it was there. */
  delete(key: K): boolean {
    const removed = this.remove(this.root, key);
    const root = this.root;
    if (!root.leaf && root.children.length === 1) this.root = root.children[0] as Node<K, V>;
    return removed;
  }

  /** Replaces the contents with `keys` (sorted ascending, distinct) and their `values`. */
  build(keys: readonly K[], values: readonly V[]): void {
    this.count = keys.length;
    let level: Node<K, V>[] = [];
    let firsts: K[] = [];
    let prev: Leaf<K, V> | undefined;
    for (const [from, to] of groups(keys.length)) {
      const leaf = newLeaf(keys.slice(from, to), values.slice(from, to));
      leaf.prev = prev;
      if (prev) prev.next = leaf;
      prev = leaf;
      level.push(leaf);
      firsts.push(keys[from] as K);
    }
    while (level.length > 1) {
      const up: Node<K, V>[] = [];
      const upFirsts: K[] = [];
      for (const [from, to] of groups(level.length)) {
        up.push({ leaf: false, keys: firsts.slice(from + 1, to), children: level.slice(from, to) });
        upFirsts.push(firsts[from] as K);
      }
      level = up;
      firsts = upFirsts;
    }
    this.root = level[0] ?? newLeaf<K, V>([], []);
  }

  /**
   * Visits entries in ascending order from the first key for which
   * `before` is false (`before` must be true for a prefix of the keys and
   * false after), until `visit` returns false.
   */
  walkUp(before: (key: K) => boolean, visit: (key: K, value: V) => boolean): void {
    const c = this.seek(before);
    for (let leaf = c.leaf, at = c.at; leaf !== undefined; leaf = leaf.next, at = 0) {
      const keys = leaf.keys;
      const values = leaf.values;
      for (; at < keys.length; at++) if (!visit(keys[at] as K, values[at] as V)) return;
    }
  }

  /**
   * Visits entries in descending order from the last key for which `after`
   * is false (`after` must be false for a prefix of the keys and true after),
   * until `visit` returns false.
   */
  walkDown(after: (key: K) => boolean, visit: (key: K, value: V) => boolean): void {
    const c = this.seek((k) => !after(k));
    let leaf = c.leaf;
    let at = c.at - 1;
    if (leaf === undefined) {
      leaf = this.lastLeaf();
      at = leaf.keys.length - 1;
    }
    for (; leaf !== undefined; leaf = leaf.prev, at = leaf === undefined ? 0 : leaf.keys.length - 1) {
      const keys = leaf.keys;
      const values = leaf.values;
      for (; at >= 0; at--) if (!visit(keys[at] as K, values[at] as V)) return;
    }
  }

  /** The first position whose key is not `before` (leaf undefined: past the end). */
  private seek(before: (key: K) => boolean): Cursor<K, V> {
    let node = this.root;
    while (!node.leaf) node = node.children[firstNot(node.keys, before)] as Node<K, V>;
    const at = firstNot(node.keys, before);
    if (at < node.keys.length) return { leaf: node, at };
    return { leaf: node.next, at: 0 };
  }

  private lastLeaf(): Leaf<K, V> {
    let node = this.root;
    while (!node.leaf) node = node.children[node.children.length - 1] as Node<K, V>;
    return node;
  }

  /** The child of `node` whose range holds `key`: the number of separators at or below it. */
  private childIndex(node: Inner<K, V>, key: K): number {
    const keys = node.keys;
    let lo = 0;
    let hi = keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.compare(keys[mid] as K, key) <= 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The first index in `keys` whose key is not below `key`. */
  private lowerBound(keys: readonly K[], key: K): number {
    let lo = 0;
    let hi = keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.compare(keys[mid] as K, key) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Inserts into the subtree; returns the new right sibling and its separator when `node` split. */
  private insert(node: Node<K, V>, key: K, value: V): { key: K; node: Node<K, V> } | undefined {
    if (node.leaf) {
      const at = this.lowerBound(node.keys, key);
      if (at < node.keys.length && this.compare(node.keys[at] as K, key) === 0) {
        node.values[at] = value;
        return undefined;
      }
      node.keys.splice(at, 0, key);
      node.values.splice(at, 0, value);
      this.count++;
      if (node.keys.length <= MAX) return undefined;
      const right = newLeaf(node.keys.splice(MIN), node.values.splice(MIN));
      right.next = node.next;
      right.prev = node;
      if (node.next) node.next.prev = right;
      node.next = right;
      return { key: right.keys[0] as K, node: right };
    }
    const i = this.childIndex(node, key);
    const split = this.insert(node.children[i] as Node<K, V>, key, value);
    if (split === undefined) return undefined;
    node.keys.splice(i, 0, split.key);
    node.children.splice(i + 1, 0, split.node);
    if (node.children.length <= MAX) return undefined;
    // The middle separator moves up; the right node keeps the separators after it.
    const up = node.keys[MIN - 1] as K;
    const right: Inner<K, V> = { leaf: false, keys: node.keys.splice(MIN), children: node.children.splice(MIN) };
    node.keys.length = MIN - 1;
    return { key: up, node: right };
  }

  /** Removes `key` from the subtree, then mends any child left below `MIN`. */
  private remove(node: Node<K, V>, key: K): boolean {
    if (node.leaf) {
      const at = this.lowerBound(node.keys, key);
      if (at >= node.keys.length || this.compare(node.keys[at] as K, key) !== 0) return false;
      node.keys.splice(at, 1);
      node.values.splice(at, 1);
      this.count--;
      return true;
    }
    const i = this.childIndex(node, key);
    const child = node.children[i] as Node<K, V>;
    if (!this.remove(child, key)) return false;
    if ((child.leaf ? child.keys.length : child.children.length) < MIN) this.mend(node, i);
    return true;
  }

  /** Child `i` of `parent` is below `MIN`: borrow an entry from a sibling that can spare one, else merge with a sibling. */
  private mend(parent: Inner<K, V>, i: number): void {
    const child = parent.children[i] as Node<K, V>;
    const left = i > 0 ? (parent.children[i - 1] as Node<K, V>) : undefined;
    const right = i + 1 < parent.children.length ? (parent.children[i + 1] as Node<K, V>) : undefined;
    const width = (n: Node<K, V>): number => (n.leaf ? n.keys.length : n.children.length);
    if (left !== undefined && width(left) > MIN) return this.borrowLeft(parent, i, left, child);
    if (right !== undefined && width(right) > MIN) return this.borrowRight(parent, i, child, right);
    if (left !== undefined) this.merge(parent, i - 1, left, child);
    else if (right !== undefined) this.merge(parent, i, child, right);
  }

  private borrowLeft(parent: Inner<K, V>, i: number, left: Node<K, V>, child: Node<K, V>): void {
    if (left.leaf && child.leaf) {
      child.keys.unshift(left.keys.pop() as K);
      child.values.unshift(left.values.pop() as V);
      parent.keys[i - 1] = child.keys[0] as K;
    } else if (!left.leaf && !child.leaf) {
      child.keys.unshift(parent.keys[i - 1] as K);
      child.children.unshift(left.children.pop() as Node<K, V>);
      parent.keys[i - 1] = left.keys.pop() as K;
    }
  }

  private borrowRight(parent: Inner<K, V>, i: number, child: Node<K, V>, right: Node<K, V>): void {
    if (right.leaf && child.leaf) {
      child.keys.push(right.keys.shift() as K);
      child.values.push(right.values.shift() as V);
      parent.keys[i] = right.keys[0] as K;
    } else if (!right.leaf && !child.leaf) {
      child.keys.push(parent.keys[i] as K);
      child.children.push(right.children.shift() as Node<K, V>);
      parent.keys[i] = right.keys.shift() as K;
    }
  }

  /** Moves everything of `right` (child `at + 1`) into `left` (child `at`) and drops `right`. */
  private merge(parent: Inner<K, V>, at: number, left: Node<K, V>, right: Node<K, V>): void {
    if (left.leaf && right.leaf) {
      for (let j = 0; j < right.keys.length; j++) {
        left.keys.push(right.keys[j] as K);
        left.values.push(right.values[j] as V);
      }
      left.next = right.next;
      if (right.next) right.next.prev = left;
    } else if (!left.leaf && !right.leaf) {
      left.keys.push(parent.keys[at] as K, ...right.keys);
      for (const c of right.children) left.children.push(c);
    }
    parent.keys.splice(at, 1);
    parent.children.splice(at + 1, 1);
  }
}

/** `[from, to)` ranges splitting `n` items into as few groups of at most `BUILD_FILL` as can be, sized evenly. */
function groups(n: number): [number, number][] {
  const count = Math.ceil(n / BUILD_FILL);
  const out: [number, number][] = [];
  for (let g = 0; g < count; g++) out.push([Math.floor((g * n) / count), Math.floor(((g + 1) * n) / count)]);
  return out;
}

/** The first index whose key is not `before` (keys where `before` holds come first). */
function firstNot<K>(keys: readonly K[], before: (key: K) => boolean): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (before(keys[mid] as K)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
