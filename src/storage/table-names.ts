/**
 * The table names a `.store` document declares, read without loading it:
 * the keys of its top-level `tables` object (CONTRACT §2).
 *
 * Listing databases must not load them — a data directory may hold far more
 * data than the server keeps in memory — so this reads the file in small
 * chunks through a streaming scan that tracks only strings and nesting, and
 * keeps nothing but the names. It assumes no layout (a hand-written file has
 * none) and does not validate: no checksum, schema or row is checked; that
 * is `validate`'s job. A file whose structure breaks (unbalanced brackets, a
 * string or the file cut short, no `tables` object) has no names: `null`.
 *
 * One plain loop over the bytes, its hot state in locals: ~2.5 ns a byte
 * here (a 34 MB document in ~90 ms). `Buffer.indexOf` to jump over string
 * bodies measured slower (a native call per string costs more than the few
 * bytes it skips).
 */

import { open } from "node:fs/promises";

const CHUNK_BYTES = 64 * 1024;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

/** 1 for the bytes that make structure outside strings; every other byte (digits, letters, space) is skipped at once. */
const STRUCTURAL = new Uint8Array(256);
for (const byte of [QUOTE, COLON, COMMA, OPEN_OBJECT, CLOSE_OBJECT, OPEN_ARRAY, CLOSE_ARRAY]) STRUCTURAL[byte] = 1;

/** Scanner state carried from chunk to chunk. */
class TableNameScan {
  /** Open containers: the document is depth 1, `tables` depth 2. */
  depth = 0;
  /** Whether each open container is an object (index = depth; 0 unused), so a `]` cannot close a `{`. */
  private readonly isObject: boolean[] = [false];
  /** Whether the next string at the current depth is a key (in an object, after `{` or `,`). */
  private expectKey = false;
  inString = false;
  /** A backslash ended the last chunk inside a string: the next byte is escaped. */
  private escaped = false;
  /** Raw bytes of the key being read, when it is one we care about (depth 1 or a `tables` key). */
  private key: Buffer[] | null = null;
  /** The last key read at depth 1; `tables` opens the object whose keys are the names. */
  private topKey: string | undefined;
  /** Depth 2 is the `tables` object. */
  private inTables = false;
  private started = false;
  sawTables = false;
  broken = false;
  readonly names = new Set<string>();

  feed(chunk: Buffer): void {
    const length = chunk.length;
    let i = 0;
    // The hot state in locals: this loop runs once per byte of the document.
    let inString = this.inString;
    let escaped = this.escaped;
    let stringStart = 0;
    while (i < length) {
      if (inString) {
        // Until the closing quote: only `\` and `"` matter in a string.
        for (; i < length; i++) {
          const byte = chunk[i]!;
          if (escaped) escaped = false;
          else if (byte === BACKSLASH) escaped = true;
          else if (byte === QUOTE) break;
        }
        if (this.key !== null) this.keep(chunk, stringStart, i);
        if (i === length) break;
        i++;
        inString = false;
        if (this.key !== null) this.endString();
        continue;
      }
      const byte = chunk[i++]!;
      if (STRUCTURAL[byte] === 0) continue;
      switch (byte) {
        case QUOTE:
          inString = true;
          stringStart = i;
          this.key = this.expectKey && (this.depth === 1 || (this.depth === 2 && this.inTables)) ? [] : null;
          break;
        case OPEN_OBJECT:
        case OPEN_ARRAY:
          this.open(byte === OPEN_OBJECT);
          break;
        case CLOSE_OBJECT:
        case CLOSE_ARRAY:
          this.close(byte === CLOSE_OBJECT);
          break;
        case COLON:
          this.expectKey = false;
          break;
        default:
          // A comma: a key follows in an object.
          this.expectKey = this.isObject[this.depth] === true;
          break;
      }
      if (this.broken) return;
    }
    this.inString = inString;
    this.escaped = escaped;
  }

  private close(object: boolean): void {
    if (this.depth === 0 || this.isObject[this.depth] !== object) {
      this.broken = true;
      return;
    }
    if (this.depth === 2) this.inTables = false;
    this.isObject.pop();
    this.depth--;
    this.expectKey = false;
  }

  private open(object: boolean): void {
    if (this.depth === 0) {
      // The document is one object; anything else, or a second top-level value, is not a document.
      if (!object || this.started) {
        this.broken = true;
        return;
      }
      this.started = true;
    }
    if (this.depth === 1 && this.topKey === "tables" && object) {
      this.inTables = true;
      this.sawTables = true;
    }
    this.depth++;
    this.isObject.push(object);
    this.expectKey = object;
  }

  private keep(chunk: Buffer, from: number, to: number): void {
    if (this.key !== null && to > from) this.key.push(Buffer.from(chunk.subarray(from, to)));
  }

  private endString(): void {
    const key = this.key!;
    this.key = null;
    let name: unknown;
    try {
      name = JSON.parse(`"${Buffer.concat(key).toString("utf8")}"`);
    } catch {
      this.broken = true;
      return;
    }
    if (this.depth === 1) this.topKey = name as string;
    else this.names.add(name as string);
  }
}

/**
 * The table names `file` declares, sorted; `null` when its structure does not
 * parse. Throws on I/O errors. `chunkBytes` is for tests of chunk boundaries.
 */
export async function readTableNames(file: string, chunkBytes = CHUNK_BYTES): Promise<string[] | null> {
  const handle = await open(file, "r");
  try {
    const scan = new TableNameScan();
    const buffer = Buffer.allocUnsafe(chunkBytes);
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, chunkBytes, null);
      if (bytesRead === 0) break;
      scan.feed(buffer.subarray(0, bytesRead));
      if (scan.broken) return null;
    }
    if (scan.depth !== 0 || scan.inString || !scan.sawTables) return null;
    return [...scan.names].sort();
  } finally {
    await handle.close();
  }
}
