/**
 * The service's configuration (CONTRACT §9), read once at startup from the
 * environment into one typed, frozen object.
 *
 * Parsing is pure (no filesystem, no logging) so it can be tested on plain
 * objects: an invalid value throws `ConfigError` naming the variable, which
 * `main.ts` prints as one line before exiting 1; exposure risks come back as
 * warnings for the logger. An empty variable counts as unset, because
 * compose passes `${STORE_API_KEY:-}` through as an empty string.
 */

import { isIP } from "node:net";
import path from "node:path";
import { getHeapStatistics } from "node:v8";

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Config {
  /** Absolute path of the data directory. */
  readonly dataPath: string;
  readonly bindAddress: string;
  /** 0 asks the OS for a free port (tests use it). */
  readonly port: number;
  /** Undefined: no authentication. */
  readonly apiKey: string | undefined;
  readonly maxBodyBytes: number;
  readonly shutdownTimeoutMs: number;
  readonly logLevel: LogLevel;
  /** At most this many databases open at once; past it, idle ones are closed least recently used first. */
  readonly maxOpenDatabases: number;
  /** Estimated memory the open databases' data may take, in MiB; 0: no such limit (the count still holds). */
  readonly memoryBudgetMb: number;
}

export interface LoadedConfig {
  readonly config: Config;
  readonly warnings: readonly string[];
}

/** A variable holds a value we cannot use; the message names the variable. */
export class ConfigError extends Error {
  readonly variable: string;
  constructor(variable: string, message: string) {
    super(`${variable} ${message}`);
    this.name = "ConfigError";
    this.variable = variable;
  }
}

/** Keys shorter than this are guessable enough to deserve a warning. */
export const MIN_API_KEY_LENGTH = 32;

type Env = Readonly<Record<string, string | undefined>>;

/** The default `STORE_MAX_OPEN_DATABASES`: each open database holds a journal descriptor and a few kB besides its data. */
export const DEFAULT_MAX_OPEN_DATABASES = 1000;

/** The default memory budget: half the V8 heap this process may grow to, leaving the rest to requests and answers. */
export function defaultMemoryBudgetMb(heapLimitBytes: number): number {
  return Math.floor(heapLimitBytes / 2 / 2 ** 20);
}

/** `heapLimitBytes`: V8's heap limit, which the memory budget's default derives from (tests pass their own). */
export function loadConfig(env: Env, cwd: string = process.cwd(), heapLimitBytes: number = getHeapStatistics().heap_size_limit): LoadedConfig {
  const config: Config = Object.freeze({
    dataPath: path.resolve(cwd, read(env, "STORE_DATA_PATH") ?? "./data"),
    bindAddress: bindAddress(env),
    port: integer(env, "STORE_PORT", 3000, 0, 65535),
    apiKey: apiKey(env),
    maxBodyBytes: integer(env, "STORE_MAX_BODY_BYTES", 1048576, 1, 2 ** 31 - 1),
    shutdownTimeoutMs: integer(env, "STORE_SHUTDOWN_TIMEOUT_MS", 10000, 1, 2 ** 31 - 1),
    logLevel: logLevel(env),
    maxOpenDatabases: integer(env, "STORE_MAX_OPEN_DATABASES", DEFAULT_MAX_OPEN_DATABASES, 1, 1_000_000),
    memoryBudgetMb: integer(env, "STORE_MEMORY_BUDGET_MB", defaultMemoryBudgetMb(heapLimitBytes), 0, 2 ** 31 - 1),
  });
  return { config, warnings: warningsFor(config) };
}

export function isLoopback(address: string): boolean {
  if (address === "localhost" || address === "::1") return true;
  return isIP(address) === 4 && address.startsWith("127.");
}

function warningsFor(config: Config): string[] {
  const warnings: string[] = [];
  if (!isLoopback(config.bindAddress) && config.apiKey === undefined) {
    warnings.push(
      `STORE_BIND_ADDRESS is ${config.bindAddress}, beyond loopback, and STORE_API_KEY is not set: anyone who can reach the port can read and change every database`,
    );
  }
  if (config.apiKey !== undefined && config.apiKey.length < MIN_API_KEY_LENGTH) {
    warnings.push(`STORE_API_KEY is shorter than ${MIN_API_KEY_LENGTH} characters: use a long random key`);
  }
  return warnings;
}

function read(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value === "" ? undefined : value;
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  const text = raw.trim();
  const value = /^[0-9]+$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new ConfigError(name, `must be an integer from ${min} to ${max} (got ${JSON.stringify(raw)})`);
  }
  return value;
}

const HOSTNAME = /^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

function bindAddress(env: Env): string {
  const raw = read(env, "STORE_BIND_ADDRESS");
  if (raw === undefined) return "127.0.0.1";
  if (isIP(raw) === 0 && !HOSTNAME.test(raw)) {
    throw new ConfigError("STORE_BIND_ADDRESS", `must be an IP address or a host name (got ${JSON.stringify(raw)})`);
  }
  return raw;
}

function apiKey(env: Env): string | undefined {
  const raw = read(env, "STORE_API_KEY");
  // Never echo the key: it may be half right and still secret.
  if (raw !== undefined && !/^[\x21-\x7e]+$/.test(raw)) {
    throw new ConfigError("STORE_API_KEY", "must be printable ASCII without spaces (it is sent as a bearer token)");
  }
  return raw;
}

function logLevel(env: Env): LogLevel {
  const raw = read(env, "STORE_LOG_LEVEL");
  if (raw === undefined) return "info";
  const level = LOG_LEVELS.find((candidate) => candidate === raw.toLowerCase());
  if (level === undefined) {
    throw new ConfigError("STORE_LOG_LEVEL", `must be one of ${LOG_LEVELS.join(", ")} (got ${JSON.stringify(raw)})`);
  }
  return level;
}
