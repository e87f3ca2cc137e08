/** The package root: the engine as a library (CONTRACT §10). */
export * from "./errors.js";
export type * from "./commands/types.js";
export type * from "./commands/results.js";
export type * from "./planner/plan.js";
