/**
 * Import progress: a bar with rows and rows/s on a terminal (cli-progress,
 * on stderr, redrawn at most every 100 ms), nothing when stderr is not a
 * terminal — the import then prints one plain count when it is done.
 */

import { SingleBar } from "cli-progress";

export interface Progress {
  /** `bytes` of `total` read, `rows` imported. */
  update(bytes: number, rows: number): void;
  stop(): void;
}

const QUIET: Progress = { update: () => undefined, stop: () => undefined };

function rate(rows: number, started: number): string {
  const seconds = (performance.now() - started) / 1000;
  return seconds > 0 ? Math.round(rows / seconds).toLocaleString("en-US") : "0";
}

export function progress(label: string, totalBytes: number): Progress {
  if (process.stderr.isTTY !== true) return QUIET;
  const started = performance.now();
  const bar = new SingleBar({
    format: `${label} [{bar}] {percentage}% | {rows} rows | {rate} rows/s`,
    barsize: 30,
    hideCursor: true,
    clearOnComplete: false,
    stream: process.stderr,
    fps: 10,
  });
  bar.start(Math.max(1, totalBytes), 0, { rows: "0", rate: "0" });
  return {
    update(bytes, rows) {
      bar.update(bytes, { rows: rows.toLocaleString("en-US"), rate: rate(rows, started) });
    },
    stop() {
      bar.stop();
    },
  };
}
