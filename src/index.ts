/**
 * The package root: the engine the server runs, as a library (CONTRACT §10).
 *
 * `Database` is one database (in memory, or a `.store` file with the same
 * durability rules as the service); `DataDirectory` is what the service
 * serves: a directory of databases addressed by name. Every surface —
 * `execute` with a JSON command, `sql` with text and parameters, and the
 * fluent `table()` builder — runs through the same plan and executor.
 * `createClient` reaches a server with the same three (also importable
 * alone, without the engine, from `storedb/client`).
 */
export { Database, type DatabaseOptions } from "./database.js";
export { Transaction, type TransactionOptions } from "./transaction.js";
export { DataDirectory, type DataDirectoryOptions, type StorageGauges } from "./storage/data-directory.js";
export type { OpenBudget } from "./storage/open-budget.js";
export type { StorageObserver } from "./storage/observer.js";
export { parseSql } from "./parser/index.js";
export { parseCommand, parseEnvelope } from "./commands/index.js";
export * from "./api/index.js";
export { ConnectionError, RemoteDatabase, createClient, type Client, type ClientOptions, type ConnectionErrorCode } from "./client/index.js";
export * from "./errors.js";
export type * from "./commands/types.js";
export type * from "./commands/results.js";
/** The SQL AST that `parseSql` returns. */
export type * as SqlAst from "./parser/ast.js";
/** The bound plan IR that `explain` returns. */
export type * as QueryPlan from "./planner/plan.js";
