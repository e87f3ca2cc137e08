/**
 * Checks that a schema read from a file has the shape of CONTRACT §3 —
 * member names and JSON types — before its meaning is checked. Commands get
 * this from the request validator; files arrive as raw JSON, so loading
 * needs its own check. Returns the first problem found, or undefined.
 */

import { expressionProblem } from "../commands/validate.js";
import { isColumnType } from "../planner/value-types.js";

type Check = (value: unknown, at: string) => string | undefined;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

const str: Check = (v, at) => (typeof v === "string" ? undefined : `${at} must be a string`);
const strings: Check = (v, at) => (Array.isArray(v) && v.every((s) => typeof s === "string") ? undefined : `${at} must be an array of strings`);
const isValue = (v: unknown): boolean => v === null || typeof v === "string" || typeof v === "boolean" || (typeof v === "number" && Number.isFinite(v));

function object(members: Record<string, Check>, required: readonly string[]): Check {
  return (v, at) => {
    if (!isObject(v)) return `${at} must be an object`;
    for (const key of Object.keys(v)) if (!Object.hasOwn(members, key)) return `${at} has unknown member "${key}"`;
    for (const key of required) if (!Object.hasOwn(v, key)) return `${at} needs "${key}"`;
    for (const [key, check] of Object.entries(members)) {
      if (Object.hasOwn(v, key)) {
        const problem = check(v[key], `${at}.${key}`);
        if (problem) return problem;
      }
    }
    return undefined;
  };
}

function arrayOf(item: Check): Check {
  return (v, at) => {
    if (!Array.isArray(v)) return `${at} must be an array`;
    for (const [i, x] of v.entries()) {
      const problem = item(x, `${at}[${i}]`);
      if (problem) return problem;
    }
    return undefined;
  };
}

function recordOf(item: Check): Check {
  return (v, at) => {
    if (!isObject(v)) return `${at} must be an object`;
    for (const [k, x] of Object.entries(v)) {
      const problem = item(x, `${at}.${k}`);
      if (problem) return problem;
    }
    return undefined;
  };
}

/** Expressions are checked for shape by the request schemas (every type a command may hold), for meaning when bound. */
const expression: Check = (v, at) => expressionProblem(v, at);

const columnsOf = object({ columns: strings }, ["columns"]);

/** A default that is an expression (a file written before these existed never holds one). */
const defaultExpr = object({ expr: expression }, ["expr"]);

const schemaShape = object(
  {
    name: str,
    columns: recordOf((v, at) => (isColumnType(v) ? undefined : `${at} must be a column type`)),
    required: strings,
    primary_key: columnsOf,
    unique: arrayOf(columnsOf),
    foreign_keys: arrayOf(
      object(
        {
          columns: strings,
          references: object({ table: str, columns: strings }, ["table", "columns"]),
          on_delete: (v, at) => (v === "restrict" || v === "cascade" ? undefined : `${at} must be "restrict" or "cascade"`),
        },
        ["columns", "references"],
      ),
    ),
    checks: arrayOf(object({ name: str, expr: expression }, ["expr"])),
    indexes: arrayOf(object({ name: str, columns: strings, unique: (v, at) => (typeof v === "boolean" ? undefined : `${at} must be a boolean`) }, ["name", "columns"])),
    defaults: recordOf((v, at) => (isValue(v) ? undefined : isObject(v) ? defaultExpr(v, at) : `${at} must be a JSON scalar or {"expr": …}`)),
    computed: recordOf(expression),
    comment: str,
    comments: recordOf(str),
  },
  ["name", "columns"],
);

export function schemaShapeProblem(raw: unknown): string | undefined {
  return schemaShape(raw, "schema");
}
