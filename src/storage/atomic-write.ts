/**
 * Atomic replacement of a file (CONTRACT §2): write a temp file in the same
 * directory, fsync it, rename it over the target, fsync the directory.
 *
 * After a crash at any point the target holds either its old or its new
 * content, never a mix: the new bytes are on disk before the rename makes
 * them visible, and the rename is on disk before we report success. On
 * failure the temp file is removed; `afterRename` tells the caller the
 * target may already hold the new content (only a failed directory fsync
 * leaves it so), so it must write the old state back.
 */

import path from "node:path";
import { StorageError } from "../errors.js";
import type { FileInfo, FileSystem, WritableFile } from "./fs.js";
import { tempPathFor } from "./temp-files.js";

/**
 * An I/O failure as the §7 error a client gets: 507 `insufficient_storage`
 * for a full disk or quota, else 500 `storage_error`; `what` could not be
 * written, and `outcome` says what that means for the client.
 */
export function writeFailure(cause: unknown, what: string, outcome: string): StorageError {
  // A failure already put in these terms is told again in the caller's, from the system's error.
  const system = cause instanceof StorageError && cause.cause !== undefined ? cause.cause : cause;
  const code = (system as NodeJS.ErrnoException | null)?.code;
  if (code === "ENOSPC" || code === "EDQUOT") return new StorageError("insufficient_storage", `The disk is full: ${outcome}.`, cause);
  return new StorageError("storage_error", `${what} could not be written${code ? ` (${code})` : ""}: ${outcome}.`, cause);
}

export class PersistFailure extends StorageError {
  constructor(
    cause: unknown,
    readonly afterRename: boolean,
  ) {
    const failure = writeFailure(cause, "The database file", "the change was not saved");
    super(failure.code as "storage_error" | "insufficient_storage", failure.message, cause);
  }
}

/** A temp file beside its target, written and fsynced, ready to be renamed over it. */
export interface WrittenTemp<T = void> {
  readonly path: string;
  /** The file's identity, which it keeps through the rename. */
  readonly info: FileInfo;
  /** What `fill` returned. */
  readonly filled: T;
}

/**
 * The first half of a replacement: a new temp file beside `target`, filled
 * by `fill`, fsynced. `mode` (the old file's permission bits) is applied
 * exactly; without it the file gets 0666 minus the umask. `durableWrites`
 * opens it O_DSYNC (see `FileSystem.createExclusive`). On failure the temp
 * file is removed and the error (a `PersistFailure`) thrown.
 */
export async function writeTemp<T>(
  fs: FileSystem,
  target: string,
  fill: (file: WritableFile) => Promise<T>,
  options: { readonly mode?: number; readonly durableWrites?: boolean } = {},
): Promise<WrittenTemp<T>> {
  const temp = tempPathFor(target);
  let file: WritableFile | undefined;
  try {
    file = await fs.createExclusive(temp, 0o666, { durableWrites: options.durableWrites });
    if (options.mode !== undefined) await file.chmod(options.mode);
    const filled = await fill(file);
    await file.fsync();
    const info = await file.stat();
    const closing = file;
    file = undefined;
    await closing.close();
    return { path: temp, info, filled };
  } catch (error) {
    if (file) await file.close().catch(() => undefined);
    await fs.unlink(temp).catch(() => undefined);
    throw new PersistFailure(error, false);
  }
}

/** The second half: renames `temp` over `target` and fsyncs the directory. */
export async function putInPlace(fs: FileSystem, temp: WrittenTemp<unknown>, target: string): Promise<void> {
  try {
    await fs.rename(temp.path, target);
  } catch (error) {
    await fs.unlink(temp.path).catch(() => undefined);
    throw new PersistFailure(error, false);
  }
  try {
    await fs.fsyncDir(path.dirname(target));
  } catch (error) {
    throw new PersistFailure(error, true);
  }
}

/** Replaces `target` with `bytes`; returns the new file's identity. */
export async function writeAtomically(fs: FileSystem, target: string, bytes: Uint8Array, mode?: number): Promise<FileInfo> {
  const temp = await writeTemp(fs, target, (file) => file.write(bytes), { mode });
  await putInPlace(fs, temp, target);
  return temp.info;
}

/** Removes `target` durably (used to undo the creation of a database whose first write failed). */
export async function removeDurably(fs: FileSystem, target: string): Promise<void> {
  await fs.unlink(target);
  await fs.fsyncDir(path.dirname(target));
}
