/**
 * Finds the runnable examples in the project's Markdown: fenced blocks whose
 * info string is `sh example`, `ts example` or `http example`, each with the
 * output block that may follow it (only blank lines between): `text output`
 * after `sh` and `ts` (what the example must print), `http output` after
 * `http` (the response it must get). See `examples.test.ts` for how they run.
 */

import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

export interface Example {
  readonly file: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  readonly language: Language;
  readonly code: string;
  /** The stdout the example must print (`http`: the response), when an output block follows it. */
  readonly output?: string;
}

export type Language = "sh" | "ts" | "http";
const LANGUAGES: readonly string[] = ["sh", "ts", "http"];

interface Block {
  readonly line: number;
  readonly info: readonly string[];
  readonly text: string;
  /** Line after the closing fence. */
  readonly end: number;
}

function blocks(text: string): Block[] {
  const lines = text.split("\n");
  const out: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(.*)$/.exec(lines[i] ?? "");
    if (!open) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !/^```\s*$/.test(lines[i] ?? ""); i++) body.push(lines[i] ?? "");
    out.push({ line: start + 1, info: (open[1] ?? "").trim().split(/\s+/), text: body.join("\n") + "\n", end: i + 2 });
  }
  return out;
}

/** The examples of one Markdown document, in order. */
export function examplesIn(file: string, text: string): Example[] {
  const found = blocks(text);
  const lines = text.split("\n");
  const out: Example[] = [];
  for (const [i, block] of found.entries()) {
    const [language, marker] = block.info;
    if (marker !== "example" || language === undefined || !LANGUAGES.includes(language)) continue;
    const next = found[i + 1];
    const between = next ? lines.slice(block.end - 1, next.line - 1) : [];
    const outputLanguage = language === "http" ? "http" : "text";
    const followed = next !== undefined && next.info[0] === outputLanguage && next.info[1] === "output" && between.every((l) => l.trim() === "");
    out.push({ file, line: block.line, language: language as Language, code: block.text, ...(followed ? { output: next.text } : {}) });
  }
  return out;
}

/** README.md and every Markdown file under docs/, relative to `root`. */
export function documents(root: string): string[] {
  const found = ["README.md"];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const relative = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(relative);
      else if (entry.name.endsWith(".md")) found.push(relative);
    }
  };
  walk("docs");
  return found.sort();
}

export function examples(root: string): Example[] {
  return documents(root).flatMap((file) => examplesIn(file, readFileSync(path.join(root, file), "utf8")));
}
