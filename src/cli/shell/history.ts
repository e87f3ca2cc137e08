/**
 * The shell's history, kept across runs in `~/.storedb_history`.
 *
 * One entry per statement or dot command; a statement typed over several
 * lines is one entry, its lines joined by spaces so recalling it gives one
 * editable line — unless it holds a `--` comment, which would swallow the
 * rest of a joined line; then its line breaks stay. The file holds one JSON
 * string per line (so an entry may hold a line break), newest last, at most
 * `LIMIT` entries. It is rewritten after each entry, so a shell that is
 * killed loses nothing, and created readable by its owner only: statements
 * can hold data.
 */

import { readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

export const LIMIT = 1000;

export function historyFile(): string {
  return path.join(os.homedir(), ".storedb_history");
}

function parseLine(line: string): string | undefined {
  try {
    const entry: unknown = JSON.parse(line);
    return typeof entry === "string" ? entry : undefined;
  } catch {
    return undefined;
  }
}

/** The saved entries, newest first (readline's order); none when there is no file yet. Lines that do not parse are skipped. */
export function loadHistory(file: string): string[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return [];
  }
  const entries = text.split("\n").flatMap((line) => {
    const entry = parseLine(line);
    return entry === undefined ? [] : [entry];
  });
  return entries.slice(-LIMIT).reverse();
}

/** Saves `entries` (newest first); a history that cannot be written never stops the shell. */
export function saveHistory(file: string, entries: readonly string[]): void {
  const lines = entries
    .slice(0, LIMIT)
    .reverse()
    .map((entry) => JSON.stringify(entry) + "\n");
  try {
    writeFileSync(file, lines.join(""), { mode: 0o600 });
  } catch {
    // A read-only home or a full disk: the session goes on without saving.
  }
}

/** One history entry for a statement as typed (see the header). */
export function historyEntry(text: string): string {
  const trimmed = text.trim();
  return trimmed.includes("--") ? trimmed : trimmed.replace(/\s*\n\s*/g, " ");
}
