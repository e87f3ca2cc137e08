import { test } from "uvu";
import * as assert from "uvu/assert";
import path from "node:path";
import { ConfigError, isLoopback, loadConfig } from "../../src/server/config.js";

const KEY = "k".repeat(32);

test("defaults: ./data under the working directory, 127.0.0.1:3000, 1 MiB, 10 s, info, no key, 1000 databases in half the heap", () => {
  const { config, warnings } = loadConfig({}, "/srv/app", 4 * 2 ** 30);
  assert.equal(config, {
    dataPath: path.resolve("/srv/app", "data"),
    bindAddress: "127.0.0.1",
    port: 3000,
    apiKey: undefined,
    maxBodyBytes: 1048576,
    shutdownTimeoutMs: 10000,
    logLevel: "info",
    maxOpenDatabases: 1000,
    memoryBudgetMb: 2048,
  });
  assert.equal(warnings, []);
  assert.ok(Object.isFrozen(config));
});

test("every variable is read", () => {
  const { config } = loadConfig(
    {
      STORE_DATA_PATH: "/var/lib/storedb",
      STORE_BIND_ADDRESS: "::1",
      STORE_PORT: "8080",
      STORE_API_KEY: KEY,
      STORE_MAX_BODY_BYTES: "2048",
      STORE_SHUTDOWN_TIMEOUT_MS: "500",
      STORE_LOG_LEVEL: "WARN",
      STORE_MAX_OPEN_DATABASES: "200",
      STORE_MEMORY_BUDGET_MB: "0",
    },
    "/",
  );
  assert.equal(config, {
    dataPath: "/var/lib/storedb",
    bindAddress: "::1",
    port: 8080,
    apiKey: KEY,
    maxBodyBytes: 2048,
    shutdownTimeoutMs: 500,
    logLevel: "warn",
    maxOpenDatabases: 200,
    memoryBudgetMb: 0,
  });
});

test("an empty variable counts as unset (compose passes ${X:-} through)", () => {
  const { config } = loadConfig({ STORE_API_KEY: "", STORE_PORT: "", STORE_LOG_LEVEL: "" });
  assert.is(config.apiKey, undefined);
  assert.is(config.port, 3000);
  assert.is(config.logLevel, "info");
});

const invalid: [string, Record<string, string>][] = [
  ["STORE_PORT", { STORE_PORT: "abc" }],
  ["STORE_PORT", { STORE_PORT: "65536" }],
  ["STORE_PORT", { STORE_PORT: "-1" }],
  ["STORE_PORT", { STORE_PORT: "80.5" }],
  ["STORE_PORT", { STORE_PORT: "0x50" }],
  ["STORE_MAX_BODY_BYTES", { STORE_MAX_BODY_BYTES: "-5" }],
  ["STORE_MAX_BODY_BYTES", { STORE_MAX_BODY_BYTES: "0" }],
  ["STORE_MAX_BODY_BYTES", { STORE_MAX_BODY_BYTES: "1e6" }],
  ["STORE_SHUTDOWN_TIMEOUT_MS", { STORE_SHUTDOWN_TIMEOUT_MS: "soon" }],
  ["STORE_LOG_LEVEL", { STORE_LOG_LEVEL: "verbose" }],
  ["STORE_MAX_OPEN_DATABASES", { STORE_MAX_OPEN_DATABASES: "0" }],
  ["STORE_MAX_OPEN_DATABASES", { STORE_MAX_OPEN_DATABASES: "many" }],
  ["STORE_MEMORY_BUDGET_MB", { STORE_MEMORY_BUDGET_MB: "-1" }],
  ["STORE_MEMORY_BUDGET_MB", { STORE_MEMORY_BUDGET_MB: "1.5" }],
  ["STORE_BIND_ADDRESS", { STORE_BIND_ADDRESS: "not an address" }],
  ["STORE_API_KEY", { STORE_API_KEY: "has a space in it and is long enough" }],
];
for (const [variable, env] of invalid) {
  test(`invalid ${variable}=${JSON.stringify(Object.values(env)[0])} throws naming the variable`, () => {
    try {
      loadConfig(env);
      assert.unreachable("should have thrown");
    } catch (error) {
      assert.instance(error, ConfigError);
      assert.is((error as ConfigError).variable, variable);
      assert.ok((error as Error).message.startsWith(`${variable} `), (error as Error).message);
    }
  });
}

test("the API key is never echoed in its error", () => {
  try {
    loadConfig({ STORE_API_KEY: "secret value" });
    assert.unreachable("should have thrown");
  } catch (error) {
    assert.not.match((error as Error).message, "secret");
  }
});

test("warning: beyond loopback without a key", () => {
  const { warnings } = loadConfig({ STORE_BIND_ADDRESS: "0.0.0.0" });
  assert.is(warnings.length, 1);
  assert.match(warnings[0]!, "STORE_API_KEY is not set");
});

test("warning: a key under 32 characters, wherever it listens", () => {
  assert.match(loadConfig({ STORE_API_KEY: "short" }).warnings.join("\n"), "shorter than 32");
  assert.equal(loadConfig({ STORE_API_KEY: KEY, STORE_BIND_ADDRESS: "0.0.0.0" }).warnings, []);
});

test("loopback addresses", () => {
  for (const address of ["127.0.0.1", "127.1.2.3", "::1", "localhost"]) assert.ok(isLoopback(address), address);
  for (const address of ["0.0.0.0", "::", "10.0.0.1", "example.com"]) assert.not.ok(isLoopback(address), address);
});

test.run();
