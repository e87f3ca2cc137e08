/**
 * `Queryable`: what a database handle offers, wherever the database lives.
 *
 * `Database` (in this process) and the HTTP client's database (a server
 * elsewhere) both offer it, so code written against one — a script, the
 * command-line tool, a test suite — runs unchanged against the other. The
 * three methods are the three surfaces of CONTRACT §10: a JSON command, SQL
 * text with parameters, and the fluent builder, which makes JSON commands.
 */

import type { Result } from "../commands/results.js";
import type { Value } from "../commands/types.js";
import type { DerivedInput } from "./expressions.js";
import type { TableQuery } from "./table-query.js";

export interface Queryable {
  /** Runs a command of CONTRACT §4 given as plain JSON. */
  execute(command: unknown): Promise<Result>;
  /** Runs one SQL statement; each `?` takes the next value of `params`. */
  sql(text: string, params?: readonly Value[]): Promise<Result>;
  /** The fluent builder on table `name`, or on a select's rows read as a table's (a derived table). */
  table(name: string | DerivedInput): TableQuery;
}
