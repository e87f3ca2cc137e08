/**
 * The `.store` checksum (CONTRACT §2): SHA-256 of the whole file as written,
 * with the 64 hex digits of the checksum itself set to `0`.
 *
 * The writer puts the checksum at a fixed place, the first member, so it can
 * hash the file once and patch the digits in, and the reader can verify it
 * without copying the file: hash the bytes before the digits, 64 zeros, then
 * the bytes after.
 *
 * Loading verifies off the main thread (`verifyChecksumOffThread`): WebCrypto
 * hashes on libuv's thread pool, so the hash of a large file overlaps with
 * JSON.parse instead of adding to it.
 */

import { createHash, webcrypto } from "node:crypto";

/** Every file the writer produces starts with this, then the 64 digits, then `",`. */
export const CHECKSUM_PREFIX = '{"checksum":"sha256:';
const DIGITS_START = CHECKSUM_PREFIX.length;
const DIGITS_END = DIGITS_START + 64;
const ZEROS = Buffer.from("0".repeat(64), "latin1");
const PREFIX_BYTES = Buffer.from(CHECKSUM_PREFIX, "latin1");
const AFTER_DIGITS = Buffer.from('",', "latin1");
const CHECKSUM_KEY = Buffer.from('{"checksum"', "latin1");

export const CHECKSUM_PLACEHOLDER = CHECKSUM_PREFIX + "0".repeat(64) + '",';

function digest(bytes: Uint8Array): string {
  const hash = createHash("sha256");
  hash.update(bytes.subarray(0, DIGITS_START));
  hash.update(ZEROS);
  hash.update(bytes.subarray(DIGITS_END));
  return hash.digest("hex");
}

/** Fills in the digits of a file that starts with `CHECKSUM_PLACEHOLDER` (in place). */
export function sealChecksum(bytes: Buffer): void {
  bytes.write(digest(bytes), DIGITS_START, "latin1");
}

export type ChecksumVerdict = "absent" | "valid" | "mismatch" | "malformed";

/**
 * Checks a file's checksum. `absent` means the file does not start with a
 * checksum member (the reader then still refuses one placed anywhere else).
 */
export function verifyChecksum(bytes: Uint8Array): ChecksumVerdict {
  const written = writtenDigits(bytes);
  if (written === "absent" || written === "malformed") return written;
  return digest(bytes) === written ? "valid" : "mismatch";
}

/** `verifyChecksum`, hashing on the thread pool; `bytes` may be reused once this returns (not resolves). */
export function verifyChecksumOffThread(bytes: Uint8Array): Promise<ChecksumVerdict> {
  const written = writtenDigits(bytes);
  if (written === "absent" || written === "malformed") return Promise.resolve(written);
  // WebCrypto copies its input before returning, so the zeros patched in for
  // hashing are taken back at once and the caller's bytes end up unchanged.
  const digits = bytes.subarray(DIGITS_START, DIGITS_END);
  digits.set(ZEROS);
  let hashing: Promise<ArrayBuffer>;
  try {
    hashing = webcrypto.subtle.digest("SHA-256", bytes);
  } finally {
    digits.set(Buffer.from(written, "latin1"));
  }
  return hashing.then((hash) => (Buffer.from(hash).toString("hex") === written ? "valid" : "mismatch"));
}

/** The 64 digits the file carries, or why it carries none. */
function writtenDigits(bytes: Uint8Array): string | "absent" | "malformed" {
  if (!startsWith(bytes, CHECKSUM_KEY)) return "absent";
  if (bytes.length < DIGITS_END + AFTER_DIGITS.length || !startsWith(bytes, PREFIX_BYTES)) return "malformed";
  for (let i = DIGITS_START; i < DIGITS_END; i++) {
    const c = bytes[i]!;
    const hex = (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66);
    if (!hex) return "malformed";
  }
  if (bytes[DIGITS_END] !== AFTER_DIGITS[0] || bytes[DIGITS_END + 1] !== AFTER_DIGITS[1]) return "malformed";
  return Buffer.from(bytes.buffer, bytes.byteOffset + DIGITS_START, 64).toString("latin1");
}

function startsWith(bytes: Uint8Array, prefix: Uint8Array): boolean {
  if (bytes.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[i] !== prefix[i]) return false;
  return true;
}
