/**
 * A JSON value as an indented outline: how the tool shows a query plan.
 *
 * The plan IR (`src/planner/plan.ts`) grows as SQL grows; an outline of its
 * JSON shows every node without this module knowing any of them, so a new
 * node kind is displayed the day it exists. Objects with a `kind` lead with
 * it (`select`, `scan`, `compare`), scalars sit on their key's line, and
 * empty lists and absent members are left out.
 */

function scalar(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

function isEmpty(value: unknown): boolean {
  return value === undefined || (Array.isArray(value) && value.length === 0);
}

function lines(value: unknown, indent: string, out: string[]): void {
  if (Array.isArray(value)) {
    for (const item of value) {
      if (typeof item === "object" && item !== null && !Array.isArray(item)) {
        // `- kind` heads a node with a kind; otherwise its first member shares the dash's line.
        const kind = label(item);
        const inner: string[] = kind === "" ? [] : [`${indent}  ${kind}`];
        members(item as Record<string, unknown>, `${indent}  `, inner);
        if (inner.length === 0) out.push(`${indent}- {}`);
        else out.push(`${indent}- ${(inner[0] ?? "").trimStart()}`, ...inner.slice(1));
      } else if (Array.isArray(item)) {
        out.push(`${indent}-`);
        lines(item, `${indent}  `, out);
      } else out.push(`${indent}- ${scalar(item)}`);
    }
    return;
  }
  if (typeof value === "object" && value !== null) members(value as Record<string, unknown>, indent, out);
  else out.push(`${indent}${scalar(value)}`);
}

function label(node: object): string {
  const kind = (node as { kind?: unknown }).kind;
  return typeof kind === "string" ? kind : "";
}

function members(node: Record<string, unknown>, indent: string, out: string[]): void {
  for (const [key, value] of Object.entries(node)) {
    if (key === "kind" || isEmpty(value)) continue;
    if (typeof value === "object" && value !== null) {
      const kind = Array.isArray(value) ? "" : label(value);
      out.push(`${indent}${key}:${kind === "" ? "" : ` ${kind}`}`);
      lines(value, `${indent}  `, out);
    } else out.push(`${indent}${key}: ${scalar(value)}`);
  }
}

/** The outline of `value`, one line per member, two spaces per level, ending in a newline. */
export function renderTree(value: unknown): string {
  const out: string[] = [];
  const head = typeof value === "object" && value !== null && !Array.isArray(value) ? label(value) : "";
  if (head !== "") out.push(head);
  lines(value, head === "" ? "" : "  ", out);
  return out.join("\n") + "\n";
}
