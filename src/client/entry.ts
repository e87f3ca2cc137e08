/**
 * `storedb/client`: the HTTP client alone, with the builder's expression
 * helpers and the error classes, and none of the engine (no parser, no
 * validator), for programs that only talk to a server.
 */
export * from "./index.js";
export * from "../api/index.js";
export * from "../errors.js";
export type * from "../commands/types.js";
export type * from "../commands/results.js";
