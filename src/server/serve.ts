/**
 * Runs the service for a configuration: startup and graceful shutdown.
 *
 * Startup is fail-fast: the data directory is opened first — which takes its
 * lock, so a second server on the same directory exits here at once with
 * one line on stderr and exit 1 — and only then does the server listen.
 *
 * Shutdown on SIGTERM/SIGINT (CONTRACT §8): open the drain gate (requests
 * that still arrive get 503 `shutting_down`), close the fastify instance
 * (stop accepting, close idle connections, wait for in-flight requests),
 * then close the data directory (wait for in-flight writes, fold every
 * journal into its document, release the locks), and exit 0. Storage's own
 * events (a journal discarded or cut, a failed checkpoint) are log lines
 * naming their database. A timer of STORE_SHUTDOWN_TIMEOUT_MS forces exit 1 if
 * the drain hangs; a second signal only says the drain is under way.
 */

import { mkdirSync } from "node:fs";
import type { Logger } from "pino";
import { assertNever } from "../errors.js";
import { DataDirectory } from "../storage/data-directory.js";
import type { OpenBudget } from "../storage/open-budget.js";
import type { StorageEvents } from "../storage/persistence.js";
import { buildApp } from "./app.js";
import type { LoadedConfig } from "./config.js";
import { DrainGate } from "./drain.js";
import { ServiceMetrics } from "./metrics.js";
import { serviceLog } from "./request-log.js";

function fail(message: string): never {
  process.stderr.write(`storedb: ${message}\n`);
  process.exit(1);
}

function reasonOf(error: unknown): string {
  if (error instanceof Error) return (error as NodeJS.ErrnoException).code ?? error.message;
  return String(error);
}

/** Storage's events as service log lines, each naming its database. */
function storageLog(logger: Logger): StorageEvents {
  return (event) => {
    switch (event.kind) {
      case "journal-discarded":
        logger.warn({ database: event.database, reason: event.reason }, "journal discarded unreplayed: it does not continue the database's document");
        return;
      case "journal-cut":
        logger.warn({ database: event.database, bytes: event.bytes }, "torn last entry cut from the journal (no answer covered it)");
        return;
      case "checkpoint-failed":
        logger.error({ database: event.database, err: event.error }, "checkpoint failed; it is retried later and the journal still holds every change");
        return;
      default:
        assertNever(event, "storage event");
    }
  };
}

export async function serve({ config, warnings }: LoadedConfig): Promise<void> {
  try {
    mkdirSync(config.dataPath, { recursive: true });
  } catch (error) {
    fail(`cannot create the data directory ${config.dataPath} (STORE_DATA_PATH): ${reasonOf(error)}`);
  }
  const log = serviceLog(config.logLevel);
  const logger = log.logger;
  let store: DataDirectory | undefined;
  // Storage reports its measurements into the metrics from the start; the gauges read the store once it is open.
  const metrics = new ServiceMetrics(() => store!.gauges());
  const budget: OpenBudget = { databases: config.maxOpenDatabases, memoryBytes: config.memoryBudgetMb === 0 ? undefined : config.memoryBudgetMb * 2 ** 20 };
  try {
    store = await DataDirectory.open(config.dataPath, { onEvent: storageLog(logger), observer: metrics.storage, budget });
  } catch (error) {
    fail(`cannot open the data directory ${config.dataPath} (STORE_DATA_PATH): ${error instanceof Error ? error.message : String(error)}`);
  }

  const gate = new DrainGate();
  const app = buildApp({
    store,
    apiKey: config.apiKey,
    maxBodyBytes: config.maxBodyBytes,
    gate,
    logger: log,
    metrics,
  });
  for (const warning of warnings) logger.warn(warning);

  try {
    await app.listen({ host: config.bindAddress, port: config.port });
  } catch (error) {
    await store.close();
    fail(`cannot listen on ${config.bindAddress}:${config.port} (STORE_BIND_ADDRESS, STORE_PORT): ${reasonOf(error)}`);
  }
  const address = app.server.address();
  logger.info(
    { address: config.bindAddress, port: typeof address === "object" && address ? address.port : config.port, dataPath: config.dataPath },
    "storedb ready",
  );

  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) {
      logger.warn({ signal }, "already shutting down; waiting for in-flight requests");
      return;
    }
    stopping = true;
    logger.info({ signal, timeoutMs: config.shutdownTimeoutMs }, "shutting down");
    setTimeout(() => {
      logger.error({ timeoutMs: config.shutdownTimeoutMs }, "shutdown timed out; exiting with work unfinished");
      process.exit(1);
    }, config.shutdownTimeoutMs).unref();
    gate.begin();
    app
      .close()
      .finally(() => store.close())
      .then(
        () => {
          logger.info("stopped");
          process.exit(0);
        },
        (error: unknown) => {
          logger.error({ err: error }, "shutdown failed");
          process.exit(1);
        },
      );
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}
