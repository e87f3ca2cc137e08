/**
 * The service's entry point: `storedb serve` loads it (`npm start`, the container).
 *
 * It reads the configuration first and only then loads the service
 * (`serve.ts`: fastify, the engine, storage), so a bad variable is reported
 * in one line and exit 1 without paying for loading everything else.
 */

import { ConfigError, loadConfig, type LoadedConfig } from "./config.js";

function readConfig(): LoadedConfig {
  try {
    return loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`storedb: invalid configuration: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

const loaded = readConfig();
const { serve } = await import("./serve.js");
await serve(loaded);
