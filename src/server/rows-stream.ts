/**
 * A long rows answer sent as it is written: the executor's late-projected
 * answer (`rowSlices`) read a slice at a time, each slice projected and
 * turned into JSON text only when the socket wants more.
 *
 * The bytes are exactly `JSON.stringify(result)` — the buffered answer's —
 * because each slice is `JSON.stringify` of its rows with the brackets cut,
 * joined by the commas the whole array would hold, between the same head and
 * tail. What one answer holds at a time is one slice (~64 KiB of text) and
 * what the socket buffers, whatever the row count. The stream is pulled:
 * when the client stops reading, the socket's buffer fills, `read` is not
 * called and no more rows are projected; when the client goes away, fastify
 * destroys the stream and the rows are let go (`onClose` runs either way,
 * once).
 */

import { Readable } from "node:stream";
import type { RowsResult } from "../commands/results.js";
import type { RowSlices } from "../executor/index.js";

/** Rows in the first slice; later slices aim at `SLICE_BYTES` of text from the length of the one before. */
const FIRST_SLICE_ROWS = 256;
const SLICE_BYTES = 64 * 1024;
const MAX_SLICE_ROWS = 65_536;

export function rowsStream(result: RowsResult, slices: RowSlices, onClose: () => void): Readable {
  const total = result.rowCount;
  let next = 0;
  let size = FIRST_SLICE_ROWS;
  let head: string | undefined = `{"kind":"rows","columns":${JSON.stringify(result.columns)},"rows":[`;
  const stream = new Readable({
    read() {
      if (next >= total) {
        this.push(`${head ?? ""}],"rowCount":${total}}`);
        this.push(null);
        return;
      }
      const to = Math.min(total, next + size);
      const text = JSON.stringify(slices(next, to));
      // The slice's array without its brackets, after the head or the comma that follows the slice before.
      this.push(`${head ?? ","}${text.slice(1, -1)}`);
      head = undefined;
      size = Math.max(1, Math.min(MAX_SLICE_ROWS, Math.round(((to - next) * SLICE_BYTES) / text.length)));
      next = to;
    },
  });
  stream.once("close", onClose);
  return stream;
}
