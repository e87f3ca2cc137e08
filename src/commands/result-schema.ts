/**
 * JSON Schemas of the results of CONTRACT §6 — what a command answers with —
 * for the OpenAPI document (`src/server/openapi.ts`). `results.ts` holds the
 * same shapes as TypeScript types; change the two together. Nothing on the
 * request path uses these: the OpenAPI test checks real answers of every
 * result kind against them, so they cannot drift from what the engine sends.
 *
 * Results are open (no `additionalProperties: false`): a client must accept
 * members added later, while a request's unknown fields are refused.
 * `$ref`s point into the command schemas' `definitions` (value, tableSchema).
 */

import { PROBLEM_CODES } from "../errors.js";

const ref = (name: string) => ({ $ref: `#/definitions/${name}` }) as const;

export const resultDefinitions = {
  problemEntry: {
    type: "object",
    required: ["code", "message"],
    properties: {
      table: { type: "string" },
      row: { type: "integer", minimum: 0, description: "0-based index of the row in the command (or in the table, for a file)" },
      column: { type: "string" },
      code: { enum: PROBLEM_CODES },
      message: { type: "string" },
    },
  },
  rowsResult: {
    type: "object",
    required: ["kind", "columns", "rows", "rowCount"],
    properties: {
      kind: { const: "rows" },
      columns: { type: "array", items: { type: "string" } },
      rows: {
        type: "array",
        description: 'Objects keyed in `columns` order, or arrays in `columns` order (`output: "arrays"`).',
        items: { oneOf: [{ type: "object", additionalProperties: ref("value") }, { type: "array", items: ref("value") }] },
      },
      rowCount: { type: "integer", minimum: 0 },
    },
  },
  mutationResult: {
    type: "object",
    required: ["kind", "operation", "table", "rowsAffected"],
    properties: {
      kind: { const: "mutation" },
      operation: { type: "string", description: "The command's kind (for `sql`, the statement's)." },
      table: { type: "string", description: "The table written (its name after the command); empty for a drop-index `ifExists` that found no index." },
      index: { type: "string", description: "create-index and drop-index: the index." },
      rowsAffected: { type: "integer", minimum: 0 },
      inserted: { type: "integer", minimum: 0, description: "An insert with `onConflict`: rows inserted (with `replace`: rows that conflicted with none)." },
      updated: { type: "integer", minimum: 0, description: "An insert with `onConflict`: existing rows updated instead." },
      ignored: { type: "integer", minimum: 0, description: "An insert with `onConflict`: proposed rows skipped, by DO NOTHING or a DO UPDATE `where` that did not hold (`rowsAffected` is inserted + updated)." },
      replaced: {
        type: "integer",
        minimum: 0,
        description: "An insert with `onConflict` action `replace` (INSERT OR REPLACE): rows inserted in place of the rows they conflicted with, which were deleted (`rowsAffected` is inserted + replaced).",
      },
      columns: { type: "array", items: { type: "string" }, description: "With `returning`: the result columns." },
      rows: {
        type: "array",
        description: "With `returning`: one object per row written (new values; for a delete, the deleted rows), keyed in `columns` order.",
        items: { type: "object", additionalProperties: ref("value") },
      },
    },
  },
  validationResult: {
    type: "object",
    required: ["kind", "valid", "errors"],
    properties: {
      kind: { const: "validation" },
      valid: { type: "boolean" },
      errors: { type: "array", items: ref("problemEntry") },
      journal: {
        type: "object",
        description: "A database on disk, when valid: its journal's change records not yet in the `.store` file, and its length in bytes.",
        required: ["records", "bytes"],
        properties: { records: { type: "integer", minimum: 0 }, bytes: { type: "integer", minimum: 0 } },
      },
    },
  },
  checkpointResult: {
    type: "object",
    required: ["kind", "journalRecords"],
    properties: {
      kind: { const: "checkpoint" },
      journalRecords: { type: "integer", minimum: 0, description: "Journal records folded into the `.store` file (0: there was nothing to fold)." },
    },
  },
  schemaResult: {
    type: "object",
    required: ["kind", "tables"],
    properties: {
      kind: { const: "schema" },
      tables: { type: "array", items: ref("tableSchema") },
    },
  },
  planResult: {
    type: "object",
    required: ["kind", "plan"],
    properties: {
      kind: { const: "plan" },
      plan: { type: "object", description: "The normalized plan the executor would run, including the access path it chose." },
    },
  },
  transactionResult: {
    type: "object",
    required: ["kind", "results"],
    properties: {
      kind: { const: "transaction" },
      results: { type: "array", items: ref("result"), description: "One result per step, in order." },
    },
  },
  result: {
    type: "object",
    discriminator: { propertyName: "kind" },
    oneOf: [
      ref("rowsResult"),
      ref("mutationResult"),
      ref("validationResult"),
      ref("schemaResult"),
      ref("planResult"),
      ref("checkpointResult"),
      ref("transactionResult"),
    ],
  },
} as const;
