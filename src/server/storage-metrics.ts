/**
 * Storage's metrics: what `DataDirectory` and its databases report through
 * their `StorageObserver` (loads, durable commits, checkpoints, evictions),
 * tallied as it happens, and the open databases' gauges, read when scraped.
 *
 * A commit pays two clock reads and one histogram tally (~0.1 µs against
 * its fsync's hundreds); reads pay nothing.
 */

import type { Metric } from "prom-client";
import type { StorageGauges } from "../storage/data-directory.js";
import type { StorageObserver } from "../storage/observer.js";
import { histogramMetric, singleMetric, Tally } from "./metric-values.js";

export class StorageTally implements StorageObserver {
  readonly loads = new Tally();
  loadedBytes = 0;
  readonly persists = new Tally();
  readonly checkpoints = new Tally();
  checkpointFailures = 0;
  evictions = 0;

  loaded(bytes: number, seconds: number): void {
    this.loads.observe(seconds);
    this.loadedBytes += bytes;
  }

  persisted(seconds: number): void {
    this.persists.observe(seconds);
  }

  checkpointed(seconds: number): void {
    this.checkpoints.observe(seconds);
  }

  checkpointFailed(): void {
    this.checkpointFailures++;
  }

  evicted(): void {
    this.evictions++;
  }
}

/** The storage families: the tally's counters and histograms, and `gauges` read at each scrape. */
export function storageMetrics(tally: StorageTally, gauges: () => StorageGauges): Metric[] {
  return [
    singleMetric("storedb_open_databases", "Databases the service holds open.", "gauge", () => gauges().openDatabases),
    singleMetric(
      "storedb_open_database_stored_bytes",
      "Bytes of the open databases' stored state (documents and journals as last read or written): what the memory budget counts.",
      "gauge",
      () => gauges().storedBytes,
    ),
    singleMetric("storedb_journal_bytes", "Bytes in the open databases' journals: writes not yet folded into their documents.", "gauge", () => gauges().journalBytes),
    histogramMetric("storedb_database_load_duration_seconds", "Time to read a database from disk (document, journal replay).", tally.loads),
    singleMetric("storedb_database_loaded_bytes_total", "Bytes of documents and journals read to open databases.", "counter", () => tally.loadedBytes),
    histogramMetric(
      "storedb_persist_duration_seconds",
      "Time to make one commit group durable: a journal append and its fsync (a new database's first document write).",
      tally.persists,
    ),
    histogramMetric("storedb_checkpoint_duration_seconds", "Time a checkpoint took to fold the journal into the document, from its start to the journal's reset.", tally.checkpoints),
    singleMetric("storedb_checkpoint_failures_total", "Checkpoints that failed (they changed nothing and are retried).", "counter", () => tally.checkpointFailures),
    singleMetric("storedb_database_evictions_total", "Idle databases closed to stay within the open-database budget.", "counter", () => tally.evictions),
  ];
}
