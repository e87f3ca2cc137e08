/**
 * The documentation stays inside the repository: every link in the
 * project's Markdown (README, docs/, the other READMEs) to something that is
 * not a web address must name a file of this checkout that exists, and a
 * `#fragment` must name a heading of that file. A reader who has only the
 * repository (a clone, the npm package) must never be sent to a file that is
 * not in it, such as the team's shared notes.
 */

import { suite } from "uvu";
import * as assert from "uvu/assert";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { root } from "../../scripts/bundle.mjs";

const SKIP = new Set(["node_modules", ".git", ".tmp", "dist"]);

function markdownFiles(dir = ""): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(dir, entry.name);
    if (entry.isDirectory()) return SKIP.has(entry.name) ? [] : markdownFiles(relative);
    return entry.name.endsWith(".md") ? [relative] : [];
  });
}

/** The text outside code: fenced blocks and inline code hold examples, not links. */
function prose(text: string): string {
  return text.replace(/^```[^\n]*\n[\s\S]*?^```[ \t]*$/gm, "").replace(/`[^`\n]*`/g, "");
}

/** Link targets: `[text](target)`, `![alt](target)`, `[label]: target`, `href`/`src` attributes. */
function linkTargets(text: string): string[] {
  const body = prose(text);
  const found: string[] = [];
  for (const m of body.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) found.push(m[1] ?? "");
  for (const m of body.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)) found.push(m[1] ?? "");
  for (const m of body.matchAll(/\b(?:href|src)="([^"]+)"/g)) found.push(m[1] ?? "");
  return found;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as dashes. */
function slug(heading: string): string {
  return heading
    .replace(/`/g, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

function anchors(file: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of prose(readFileSync(file, "utf8")).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = slug(m[1] ?? "");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** What is wrong with `target` as a link from `file`, or undefined when it is fine. */
function problem(file: string, target: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return /^(https?|mailto):/i.test(target) ? undefined : "is neither a file nor a web address";
  const [pathPart = "", fragment] = target.split("#", 2);
  const resolved = pathPart === "" ? path.join(root, file) : path.resolve(path.dirname(path.join(root, file)), decodeURIComponent(pathPart));
  const relative = path.relative(root, resolved);
  if (relative.startsWith("..") || path.isAbsolute(relative)) return "points outside the repository";
  if (relative.split(path.sep).some((part) => SKIP.has(part))) return "points into a folder that is not part of the repository";
  if (!existsSync(resolved)) return "names a file that does not exist";
  if (fragment !== undefined && fragment !== "" && resolved.endsWith(".md") && statSync(resolved).isFile()) {
    if (!anchors(resolved).has(fragment.toLowerCase())) return `names no heading of ${relative}`;
  }
  return undefined;
}

const links = suite("documentation links");

links("every Markdown link names a file of the repository that exists (and a heading of it)", () => {
  const files = markdownFiles();
  assert.ok(files.includes("README.md") && files.some((f) => f.startsWith(`docs${path.sep}reference`)), "README and the reference are checked");
  const broken = files.flatMap((file) =>
    linkTargets(readFileSync(path.join(root, file), "utf8")).flatMap((target) => {
      const why = problem(file, target);
      return why === undefined ? [] : [`${file}: ${target} ${why}`];
    }),
  );
  assert.equal(broken, []);
});

links("no document mentions a path outside the repository, in prose or in code", () => {
  const outside = markdownFiles().flatMap((file) =>
    readFileSync(path.join(root, file), "utf8")
      .split("\n")
      .flatMap((line, i) => (/\.\.\/shared\b|\/work\/|CONTRACT\.md/.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
  );
  assert.equal(outside, []);
});

links("the checks catch what they are for", () => {
  assert.equal(linkTargets("see [the contract](../shared/CONTRACT.md) and `[not](a link)`"), ["../shared/CONTRACT.md"]);
  assert.is(problem("README.md", "../shared/CONTRACT.md"), "points outside the repository");
  assert.is(problem("README.md", "docs/missing.md"), "names a file that does not exist");
  assert.is(problem("README.md", "docs/architecture.md#no-such-heading"), "names no heading of docs/architecture.md");
  assert.is(problem("README.md", "docs/architecture.md"), undefined);
  assert.is(problem("README.md", "https://example.com/x"), undefined);
});

links.run();
