/**
 * The editing JSON functions — json_set, json_insert, json_replace,
 * json_remove, json_patch — on a tree of the document that keeps its text
 * as written: a string, number or literal is its own text, an object keeps
 * each member's name as written beside its decoded form (paths and patches
 * match decoded names; the first of equal names, as SQLite). The edited
 * tree is written back minified.
 *
 * Paths are walked as SQLite walks them (`json-path.ts`): a path that
 * finds nothing changes nothing, except that set and insert create what
 * is missing at its end — objects for key steps, an array for `[0]` or
 * `[#]` — and give up (no change) where they cannot (`[5]` of an empty
 * array).
 */

import type { JsonPath, PathStep } from "./json-path.js";
import { BadJsonPath, MAX_DEPTH, decodeString, skipSpace, skipString, skipValue, validate } from "./json-text.js";

export type JsonNode =
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "array"; readonly items: JsonNode[] }
  | { readonly kind: "object"; readonly names: string[]; readonly written: string[]; readonly values: JsonNode[] };

export type EditMode = "set" | "insert" | "replace" | "remove";

/** The tree of a document; throws `MalformedJson` if it is not JSON. */
export function parseTree(t: string): JsonNode {
  validate(t);
  return node(t, skipSpace(t, 0)).node;
}

/** The node of the (valid) value at `i`, and where it ends. */
function node(t: string, i: number): { node: JsonNode; end: number } {
  const c = t.charCodeAt(i);
  if (c !== 91 && c !== 123) {
    const end = skipValue(t, i, 0);
    return { node: { kind: "text", text: t.slice(i, end) }, end };
  }
  const object = c === 123;
  const items: JsonNode[] = [];
  const names: string[] = [];
  const written: string[] = [];
  i = skipSpace(t, i + 1);
  while (t.charCodeAt(i) !== (object ? 125 : 93)) {
    if (object) {
      const nameEnd = skipString(t, i);
      written.push(t.slice(i, nameEnd));
      names.push(decodeString(t, i, nameEnd));
      i = skipSpace(t, skipSpace(t, nameEnd) + 1);
    }
    const item = node(t, i);
    items.push(item.node);
    i = skipSpace(t, item.end);
    if (t.charCodeAt(i) === 44) i = skipSpace(t, i + 1);
  }
  return { node: object ? { kind: "object", names, written, values: items } : { kind: "array", items }, end: i + 1 };
}

export function render(n: JsonNode): string {
  switch (n.kind) {
    case "text":
      return n.text;
    case "array":
      return `[${n.items.map(render).join(",")}]`;
    case "object":
      return `{${n.values.map((v, i) => `${n.written[i]!}:${render(v)}`).join(",")}}`;
  }
}

/** Where a step of `path` leads in a container: the position of an existing child, or `append` (one past the end, for set and insert), or nowhere. */
function childAt(n: JsonNode, step: PathStep, path: JsonPath): number | "append" | undefined {
  switch (step.kind) {
    case "error":
      if (!step.arrayOnly || n.kind === "array") throw new BadJsonPath(path.text);
      return undefined;
    case "key": {
      if (n.kind !== "object") return undefined;
      const at = n.names.indexOf(step.key);
      return at < 0 ? "append" : at;
    }
    case "index":
    case "from-end": {
      if (n.kind !== "array") return undefined;
      const count = n.items.length;
      if (step.kind === "from-end" && step.back > count) return undefined;
      const at = step.kind === "index" ? step.index : count - step.back;
      return at < count ? at : at === count ? "append" : undefined;
    }
  }
}

/** What set and insert put where a path ends beyond the document: `value` inside the containers its steps from `from` on name. */
function create(path: JsonPath, from: number, value: JsonNode): JsonNode | undefined {
  const steps = path.steps;
  if (from === steps.length) return value;
  const step = steps[from]!;
  const container: JsonNode = step.kind === "key" ? { kind: "object", names: [], written: [], values: [] } : { kind: "array", items: [] };
  if (childAt(container, step, path) !== "append") return undefined;
  const inner = create(path, from + 1, value);
  if (inner === undefined) return undefined;
  append(container, step, inner);
  return container;
}

function append(container: JsonNode, step: PathStep, value: JsonNode): void {
  if (container.kind === "object" && step.kind === "key") {
    container.names.push(step.key);
    container.written.push(step.written ?? JSON.stringify(step.key));
    container.values.push(value);
  } else if (container.kind === "array") container.items.push(value);
}

/** An edit SQLite refuses for depth: "JSON path too deep", "JSON nested too deep" (`json-functions.ts` names the function). */
export class TooDeep extends Error {}

/** How many containers nest in `n` (a scalar: 0), looking no deeper than past `limit`. */
function depthOf(n: JsonNode, limit: number): number {
  if (n.kind === "text") return 0;
  if (limit < 0) return 1;
  let most = 0;
  for (const child of n.kind === "array" ? n.items : n.values) most = Math.max(most, depthOf(child, limit - 1));
  return most + 1;
}

/**
 * Refuses a value that landed deeper than any JSON read here (so never a
 * document storedb then calls malformed). The value lands at most `steps`
 * levels down, so only a deep one costs a walk of the result.
 */
function checkDepth(root: JsonNode, path: JsonPath, mode: EditMode, value: JsonNode | undefined): void {
  if (mode === "remove" || value === undefined) return;
  if (path.steps.length + depthOf(value, MAX_DEPTH) > MAX_DEPTH && depthOf(root, MAX_DEPTH) > MAX_DEPTH) throw new TooDeep("JSON nested too deep");
}

/**
 * `root` with one path's edit applied (in place where it can be); NULL
 * when json_remove removes the root. Throws `BadJsonPath` for a malformed
 * step the walk reaches.
 */
export function edit(root: JsonNode, path: JsonPath, mode: EditMode, value?: JsonNode): JsonNode | null {
  // As SQLite: set and insert could create every step (and a long path would overflow the walk's stack).
  if ((mode === "set" || mode === "insert") && path.steps.length > MAX_DEPTH) throw new TooDeep("JSON path too deep");
  const edited = walkEdit(root, path, mode, value);
  if (edited !== null) checkDepth(edited, path, mode, value);
  return edited;
}

function walkEdit(root: JsonNode, path: JsonPath, mode: EditMode, value?: JsonNode): JsonNode | null {
  const steps = path.steps;
  if (steps.length === 0) return mode === "remove" ? null : mode === "insert" ? root : value!;
  let n = root;
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i]!;
    const at = childAt(n, step, path);
    if (at === undefined) return root;
    // childAt found a child or a place after the last, so `n` is a container.
    const children = n.kind === "object" ? n.values : (n as Extract<JsonNode, { kind: "array" }>).items;
    if (at === "append") {
      if (mode === "replace" || mode === "remove") return root;
      const made = create(path, i + 1, value!);
      if (made !== undefined) append(n, step, made);
      return root;
    }
    if (i === steps.length - 1) {
      if (mode === "insert") return root;
      if (mode !== "remove") children[at] = value!;
      else {
        children.splice(at, 1);
        if (n.kind === "object") {
          n.names.splice(at, 1);
          n.written.splice(at, 1);
        }
      }
      return root;
    }
    n = children[at]!;
  }
  return root;
}

/** RFC 7396 MergePatch, as SQLite's json_patch: a member patched to null goes, one patched to an object merges, any other replaces. */
export function patch(target: JsonNode | undefined, with_: JsonNode): JsonNode {
  if (with_.kind !== "object") return with_;
  const out: JsonNode = target?.kind === "object" ? target : { kind: "object", names: [], written: [], values: [] };
  with_.names.forEach((name, i) => {
    const value = with_.values[i]!;
    const at = out.names.indexOf(name);
    const isNull = value.kind === "text" && value.text === "null";
    if (at >= 0) {
      if (!isNull) out.values[at] = patch(out.values[at], value);
      else {
        out.names.splice(at, 1);
        out.written.splice(at, 1);
        out.values.splice(at, 1);
      }
    } else if (!isNull) {
      out.names.push(name);
      out.written.push(with_.written[i]!);
      out.values.push(patch(undefined, value));
    }
  });
  return out;
}
