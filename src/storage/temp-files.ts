/**
 * Names of the scratch files storage leaves in a data directory, and their
 * cleanup. A temp file is `.<target>.tmp-<pid>-<n>` — `.shop.store.tmp-…`
 * for a document, `.shop.store-journal.tmp-…` for a journal: hidden, in the
 * same directory as its target (so the rename is atomic), and never ending
 * in `.store`, so it can never be taken for a database.
 */

import path from "node:path";
import type { FileSystem } from "./fs.js";

let counter = 0;

export function tempPathFor(target: string): string {
  counter += 1;
  return path.join(path.dirname(target), `.${path.basename(target)}.tmp-${process.pid}-${counter}`);
}

const TEMP = /^\.(.+)\.tmp-(\d+)-\d+$/;

/** True when `name` is a storage temp file (of one of `targetBases`, when given). */
export function isTempName(name: string, targetBases?: readonly string[]): boolean {
  const match = TEMP.exec(name);
  return match !== null && (targetBases === undefined || targetBases.includes(match[1]!));
}

function pidOf(name: string): number {
  return Number(TEMP.exec(name)?.[2] ?? NaN);
}

function isLive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Removes leftover temp files in `dir`. With `onlyDead` (no directory lock
 * held, as for `Database.open`), files whose writer may still be running are
 * kept; with the lock held, every temp file is a leftover.
 */
export async function removeLeftovers(fs: FileSystem, dir: string, options: { targetBases?: readonly string[]; onlyDead?: boolean } = {}): Promise<number> {
  let removed = 0;
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return 0; // no directory, nothing left over
    throw error;
  }
  for (const name of names) {
    if (!isTempName(name, options.targetBases)) continue;
    if (options.onlyDead && isLive(pidOf(name))) continue;
    try {
      await fs.unlink(path.join(dir, name));
      removed += 1;
    } catch {
      // Gone already, or not ours to remove (a directory of that name): a leftover never blocks a start.
    }
  }
  return removed;
}
