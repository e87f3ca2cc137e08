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

export class PersistFailure extends StorageError {
  constructor(
    cause: unknown,
    readonly afterRename: boolean,
  ) {
    const code = (cause as NodeJS.ErrnoException | null)?.code;
    const full = code === "ENOSPC" || code === "EDQUOT";
    super(
      full ? "insufficient_storage" : "storage_error",
      full ? "The disk is full: the change was not saved." : `The database file could not be written${code ? ` (${code})` : ""}: the change was not saved.`,
      cause,
    );
  }
}

/**
 * Replaces `target` with `bytes`. `mode` (the old file's permission bits) is
 * applied exactly; without it the new file gets 0666 minus the umask.
 * Returns the new file's identity.
 */
export async function writeAtomically(fs: FileSystem, target: string, bytes: Uint8Array, mode?: number): Promise<FileInfo> {
  const temp = tempPathFor(target);
  let file: WritableFile | undefined;
  let renamed = false;
  try {
    file = await fs.createExclusive(temp, 0o666);
    if (mode !== undefined) await file.chmod(mode);
    await file.write(bytes);
    await file.fsync();
    const written = await file.stat();
    const closing = file;
    file = undefined;
    await closing.close();
    await fs.rename(temp, target);
    renamed = true;
    await fs.fsyncDir(path.dirname(target));
    return written;
  } catch (error) {
    if (file) await file.close().catch(() => undefined);
    if (!renamed) await fs.unlink(temp).catch(() => undefined);
    throw new PersistFailure(error, renamed);
  }
}

/** Removes `target` durably (used to undo the creation of a database whose first write failed). */
export async function removeDurably(fs: FileSystem, target: string): Promise<void> {
  await fs.unlink(target);
  await fs.fsyncDir(path.dirname(target));
}
