/**
 * JSON Schemas (draft-07 style) for the wire format: the envelope, every
 * command of CONTRACT §4, the table schema of §3 and the expressions of §5.
 *
 * These objects are the single description of what a client may send: the
 * validator in `validate.ts` compiles them with Ajv, and the HTTP route uses
 * the same objects. Design choices that must stay together:
 * - `additionalProperties: false` on every object except insert rows and
 *   update `set` (their keys are column names the engine checks, with 422).
 * - Unions are `oneOf` + Ajv's `discriminator` on `kind`/`type`, so an error
 *   comes from the branch the client meant, not from every branch at once.
 * - Every `pattern` in here is a name rule (CONTRACT §1): the validator maps
 *   a failed `pattern` to `invalid_name`, everything else to
 *   `invalid_request`. Do not add a pattern that is not a name rule.
 * - Expressions recurse through `#/definitions/expression`; the validator
 *   bounds their depth before Ajv runs, so the recursion cannot overflow.
 */

import { DATABASE_NAME_PATTERN, IDENTIFIER_PATTERN, QUALIFIED_NAME_PATTERN, SELECT_NAME_PATTERN } from "./names.js";

/** A transaction holds at most this many commands (CONTRACT §11). */
export const MAX_TRANSACTION_STEPS = 1000;

const ref = (name: string) => ({ $ref: `#/definitions/${name}` }) as const;
const name = ref("name");
const names = { type: "array", minItems: 1, items: name } as const;
const columnList = { type: "object", additionalProperties: false, required: ["columns"], properties: { columns: names } } as const;

/** The definitions every schema below shares; `$ref`s point into them. */
export const definitions = {
  name: { type: "string", pattern: IDENTIFIER_PATTERN },
  qualifiedName: { type: "string", pattern: QUALIFIED_NAME_PATTERN },
  value: { type: ["string", "number", "boolean", "null"] },
  columnType: { enum: ["text", "integer", "real", "boolean"] },

  expression: {
    type: "object",
    discriminator: { propertyName: "type" },
    oneOf: [
      ref("literalExpr"),
      ref("identifierExpr"),
      ref("comparisonExpr"),
      ref("isNullExpr"),
      ref("andExpr"),
      ref("orExpr"),
      ref("notExpr"),
      ref("binaryExpr"),
      ref("negateExpr"),
      ref("inExpr"),
      ref("betweenExpr"),
      ref("likeExpr"),
      ref("globExpr"),
      ref("collateExpr"),
      ref("caseExpr"),
      ref("castExpr"),
      ref("functionExpr"),
      ref("aggregateExpr"),
      ref("windowExpr"),
      ref("subqueryExpr"),
      ref("existsExpr"),
      ref("rowExpr"),
    ],
  },
  literalExpr: {
    type: "object",
    additionalProperties: false,
    required: ["type", "value"],
    properties: { type: { const: "literal" }, value: ref("value") },
  },
  identifierExpr: {
    type: "object",
    additionalProperties: false,
    required: ["type", "name"],
    properties: { type: { const: "identifier" }, name: ref("qualifiedName") },
  },
  comparisonExpr: {
    type: "object",
    additionalProperties: false,
    required: ["type", "op", "left", "right"],
    properties: {
      type: { const: "comparison" },
      op: { enum: ["=", "!=", "<>", "<", "<=", ">", ">=", "is", "is not"] },
      left: ref("expression"),
      right: ref("expression"),
    },
  },
  isNullExpr: {
    type: "object",
    additionalProperties: false,
    required: ["type", "expr"],
    properties: { type: { const: "is-null" }, expr: ref("expression"), not: { type: "boolean" } },
  },
  andExpr: {
    type: "object",
    additionalProperties: false,
    required: ["type", "operands"],
    properties: { type: { const: "and" }, operands: { type: "array", minItems: 1, items: ref("expression") } },
  },
  orExpr: {
    type: "object",
    additionalProperties: false,
    required: ["type", "operands"],
    properties: { type: { const: "or" }, operands: { type: "array", minItems: 1, items: ref("expression") } },
  },
  notExpr: {
    type: "object",
    additionalProperties: false,
    required: ["type", "expr"],
    properties: { type: { const: "not" }, expr: ref("expression") },
  },
  binaryExpr: {
    type: "object",
    additionalProperties: false,
    required: ["type", "op", "left", "right"],
    properties: {
      type: { const: "binary" },
      op: { enum: ["+", "-", "*", "/", "%", "||", "->", "->>"] },
      left: ref("expression"),
      right: ref("expression"),
    },
  },
  negateExpr: {
    type: "object",
    additionalProperties: false,
    required: ["type", "expr"],
    properties: { type: { const: "negate" }, expr: ref("expression") },
  },
  inExpr: {
    type: "object",
    additionalProperties: false,
    required: ["type", "expr"],
    // A list or a subquery, exactly one (`properties: true` names the member for Ajv's strict mode).
    oneOf: [
      { required: ["values"], properties: { values: true } },
      { required: ["select"], properties: { select: true } },
    ],
    properties: {
      type: { const: "in" },
      expr: ref("expression"),
      values: { type: "array", minItems: 1, items: ref("expression") },
      select: ref("select"),
      not: { type: "boolean" },
    },
  },
  subqueryExpr: {
    type: "object",
    additionalProperties: false,
    required: ["type", "select"],
    properties: { type: { const: "subquery" }, select: ref("select"), column: { type: "integer", minimum: 0 } },
  },
  rowExpr: {
    type: "object",
    additionalProperties: false,
    required: ["type", "items"],
    properties: { type: { const: "row" }, items: { type: "array", minItems: 2, items: ref("expression") } },
  },
  existsExpr: {
    type: "object",
    additionalProperties: false,
    required: ["type", "select"],
    properties: { type: { const: "exists" }, select: ref("select"), not: { type: "boolean" } },
  },
  betweenExpr: {
    type: "object",
    additionalProperties: false,
    required: ["type", "expr", "low", "high"],
    properties: { type: { const: "between" }, expr: ref("expression"), low: ref("expression"), high: ref("expression"), not: { type: "boolean" } },
  },
  likeExpr: {
    type: "object",
    additionalProperties: false,
    required: ["type", "expr", "pattern"],
    // `escape` is one character; the binder counts it in code points, which a JSON Schema length cannot.
    properties: { type: { const: "like" }, expr: ref("expression"), pattern: ref("expression"), escape: { type: "string" }, not: { type: "boolean" } },
  },
  globExpr: {
    type: "object",
    additionalProperties: false,
    required: ["type", "expr", "pattern"],
    properties: { type: { const: "glob" }, expr: ref("expression"), pattern: ref("expression"), not: { type: "boolean" } },
  },
  collateExpr: {
    type: "object",
    additionalProperties: false,
    required: ["type", "expr", "collation"],
    properties: { type: { const: "collate" }, expr: ref("expression"), collation: { enum: ["binary", "nocase", "rtrim"] } },
  },
  caseExpr: {
    type: "object",
    additionalProperties: false,
    required: ["type", "when"],
    properties: {
      type: { const: "case" },
      operand: ref("expression"),
      when: {
        type: "array",
        minItems: 1,
        items: {
          type: "object",
          additionalProperties: false,
          required: ["when", "then"],
          properties: { when: ref("expression"), then: ref("expression") },
        },
      },
      else: ref("expression"),
    },
  },
  castExpr: {
    type: "object",
    additionalProperties: false,
    required: ["type", "expr", "as"],
    properties: { type: { const: "cast" }, expr: ref("expression"), as: ref("columnType") },
  },
  aggregateExpr: {
    type: "object",
    additionalProperties: false,
    required: ["type", "name"],
    properties: {
      type: { const: "aggregate" },
      name: { enum: ["count", "sum", "total", "avg", "min", "max", "group_concat", "json_group_array", "json_group_object"] },
      arg: ref("expression"),
      distinct: { type: "boolean" },
      separator: { type: "string" },
      value: ref("expression"),
      filter: ref("expression"),
    },
  },
  windowExpr: {
    type: "object",
    additionalProperties: false,
    required: ["type", "name", "over"],
    properties: {
      type: { const: "window" },
      name: {
        enum: ["row_number", "rank", "dense_rank", "percent_rank", "cume_dist", "ntile", "lag", "lead", "first_value", "last_value", "nth_value", "count", "sum", "total", "avg", "min", "max", "group_concat"],
      },
      args: { type: "array", items: ref("expression") },
      separator: { type: "string" },
      filter: ref("expression"),
      over: ref("windowSpec"),
    },
  },
  windowSpec: {
    type: "object",
    additionalProperties: false,
    properties: {
      partitionBy: { type: "array", items: ref("expression") },
      orderBy: { type: "array", items: ref("orderBy") },
      frame: {
        type: "object",
        additionalProperties: false,
        required: ["units", "start"],
        properties: {
          units: { enum: ["rows", "range", "groups"] },
          start: ref("frameBound"),
          end: ref("frameBound"),
          exclude: { enum: ["no others", "current row", "group", "ties"] },
        },
      },
    },
  },
  // A string names a bound; otherwise one of `preceding` and `following` with its distance (if/then, not oneOf, so an error names the field at fault).
  frameBound: {
    if: { type: "string" },
    then: { enum: ["unbounded preceding", "current row", "unbounded following"] },
    else: {
      type: "object",
      additionalProperties: false,
      minProperties: 1,
      maxProperties: 1,
      properties: { preceding: { type: "number", minimum: 0 }, following: { type: "number", minimum: 0 } },
    },
  },
  functionExpr: {
    type: "object",
    additionalProperties: false,
    required: ["type", "name", "args"],
    // Function names are checked by the binder, which knows them (and answers an unknown one by name).
    properties: { type: { const: "function" }, name: { type: "string" }, args: { type: "array", items: ref("expression") } },
  },

  tableSchema: {
    type: "object",
    additionalProperties: false,
    required: ["name", "columns"],
    properties: {
      name,
      columns: {
        type: "object",
        minProperties: 1,
        propertyNames: name,
        additionalProperties: ref("columnType"),
      },
      required: { type: "array", items: name },
      primary_key: columnList,
      unique: { type: "array", items: columnList },
      foreign_keys: {
        type: "array",
        items: {
          type: "object",
          additionalProperties: false,
          required: ["columns", "references"],
          properties: {
            columns: names,
            references: {
              type: "object",
              additionalProperties: false,
              required: ["table", "columns"],
              properties: { table: name, columns: names },
            },
            on_delete: { enum: ["restrict", "cascade"] },
          },
        },
      },
      checks: {
        type: "array",
        items: {
          type: "object",
          additionalProperties: false,
          required: ["expr"],
          properties: { name, expr: ref("expression") },
        },
      },
      indexes: { type: "array", items: ref("index") },
      // A value, or a constant expression evaluated per inserted row (`{"expr": {"type":"function","name":"datetime","args":[…"now"]}}`).
      defaults: {
        type: "object",
        propertyNames: name,
        additionalProperties: {
          anyOf: [ref("value"), { type: "object", additionalProperties: false, required: ["expr"], properties: { expr: ref("expression") } }],
        },
      },
      computed: { type: "object", propertyNames: name, additionalProperties: ref("expression") },
      comment: { type: "string" },
      comments: { type: "object", propertyNames: name, additionalProperties: { type: "string" } },
    },
  },

  index: {
    type: "object",
    additionalProperties: false,
    required: ["name", "columns"],
    properties: { name, columns: names, unique: { type: "boolean" } },
  },

  // A table by name, or a derived table: a select (or table function) as `from` (exactly one of the two).
  join: {
    type: "object",
    additionalProperties: false,
    required: ["type"],
    oneOf: [
      { required: ["table"], properties: { table: true } },
      { required: ["from"], properties: { from: true } },
    ],
    // Which of on, using and natural a join takes is checked when it is bound, with a message that says so.
    properties: {
      type: { enum: ["inner", "left", "right", "full", "cross"] },
      table: name,
      from: ref("derived"),
      as: name,
      on: ref("expression"),
      using: names,
      natural: { type: "boolean" },
    },
  },
  // `column` is a source column or a result name (any text a result may be named); the binder resolves it.
  orderBy: {
    type: "object",
    additionalProperties: false,
    // Exactly one of the two (`properties: true` only names the member for Ajv's strict mode; the types are below).
    oneOf: [
      { required: ["column"], properties: { column: true } },
      { required: ["expr"], properties: { expr: true } },
    ],
    properties: {
      column: { type: "string" },
      expr: ref("expression"),
      direction: { enum: ["asc", "desc"] },
      nulls: { enum: ["first", "last"] },
      collation: { enum: ["binary", "nocase", "rtrim"] },
    },
  },
  // A string is a column (`c`, `t.c`) or every column of one source (`t.*`).
  selectColumn: {
    type: ["string", "object"],
    if: { type: "string" },
    then: { type: "string", pattern: SELECT_NAME_PATTERN },
    else: {
      type: "object",
      additionalProperties: false,
      required: ["expr", "as"],
      properties: { expr: ref("expression"), as: { type: "string", minLength: 1 } },
    },
  },

  selectList: {
    type: ["string", "array"],
    if: { type: "string" },
    then: { type: "string", const: "*" },
    else: { type: "array", minItems: 1, items: ref("selectColumn") },
  },
  // An update's (or an upsert's) `set`: keys are column names the engine checks (422); a value that is an
  // object is an expression over the row before the update (anything else is a value, checked with the row).
  setValues: {
    type: "object",
    minProperties: 1,
    additionalProperties: ref("setValue"),
  },
  setValue: { if: { type: "object" }, then: ref("expression") },
  // An update's SET (a, b, …) = (SELECT x, y, …): the columns (checked by the engine, as `set`'s keys), given the values of the select's one row.
  rowAssignment: {
    type: "object",
    additionalProperties: false,
    required: ["columns", "select"],
    properties: { columns: names, select: ref("select") },
  },

  // A derived table's rows: a select, (kind "with") a WITH table, which names its columns and may read itself,
  // or (kind "function") a table function's rows.
  // Chosen by `kind` (if/then, not oneOf, so an error names the field at fault: a mistyped kind is "kind: must be one of select, with, function").
  derived: {
    type: "object",
    if: { required: ["kind"], properties: { kind: { const: "with" } } },
    then: ref("withTable"),
    else: {
      if: { required: ["kind"], properties: { kind: { const: "select" } } },
      then: ref("select"),
      else: {
        if: { required: ["kind"], properties: { kind: { const: "function" } } },
        then: ref("tableFunction"),
        else: { required: ["kind"], properties: { kind: { enum: ["select", "with", "function"] } } },
      },
    },
  },
  // SQLite's json_each / json_tree: the document and, optionally, a path; they may read the sources before it.
  tableFunction: {
    type: "object",
    additionalProperties: false,
    required: ["kind", "name", "args"],
    properties: { kind: { const: "function" }, name: { enum: ["json_each", "json_tree"] }, args: { type: "array", minItems: 1, maxItems: 2, items: ref("expression") } },
  },
  withTable: {
    type: "object",
    additionalProperties: false,
    required: ["kind", "name", "select"],
    properties: { kind: { const: "with" }, name, columns: names, select: ref("select") },
  },
  compoundArm: {
    type: "object",
    additionalProperties: false,
    required: ["op", "select"],
    properties: { op: { enum: ["union", "union-all", "intersect", "except"] }, select: ref("select") },
  },
  select: {
    type: "object",
    additionalProperties: false,
    required: ["kind", "columns"],
    properties: {
      kind: { const: "select" },
      table: name,
      from: ref("derived"),
      as: name,
      columns: ref("selectList"),
      joins: { type: "array", items: ref("join") },
      where: ref("expression"),
      groupBy: { type: "array", items: ref("expression") },
      having: ref("expression"),
      distinct: { type: "boolean" },
      compound: { type: "array", minItems: 1, items: ref("compoundArm") },
      orderBy: { type: "array", items: ref("orderBy") },
      limit: { type: "integer", minimum: 0 },
      offset: { type: "integer", minimum: 0 },
      output: { enum: ["objects", "arrays"] },
    },
  },
  // Rows written out, or a select's (exactly one of the two); `columns` maps a select's result columns by position (the engine refuses it beside rows).
  insert: {
    type: "object",
    additionalProperties: false,
    required: ["kind", "table"],
    oneOf: [
      { required: ["rows"], properties: { rows: true } },
      { required: ["select"], properties: { select: true } },
    ],
    properties: {
      kind: { const: "insert" },
      table: name,
      // Row keys are column names and values any JSON: the engine answers 422 for both.
      rows: { type: "array", minItems: 1, items: { type: "object" } },
      select: ref("select"),
      columns: names,
      onConflict: {
        type: "object",
        additionalProperties: false,
        required: ["action"],
        properties: { target: names, action: { enum: ["nothing", "update", "replace"] }, set: ref("setValues"), where: ref("expression") },
      },
      returning: ref("selectList"),
    },
  },
  // UPDATE … FROM's first source: a table or a derived table (exactly one of the two), as a join names one.
  source: {
    type: "object",
    additionalProperties: false,
    oneOf: [
      { required: ["table"], properties: { table: true } },
      { required: ["from"], properties: { from: true } },
    ],
    properties: { table: name, from: ref("derived"), as: name },
  },
  update: {
    type: "object",
    additionalProperties: false,
    required: ["kind", "table", "set", "where"],
    properties: {
      kind: { const: "update" },
      table: name,
      as: name,
      // The table is joined with `from` and its `joins` (SQL's UPDATE … FROM): `set` and `where` read them all.
      from: ref("source"),
      joins: { type: "array", items: ref("join") },
      // With `setRows`, `set` may be empty: SQL's UPDATE t SET (a, b) = (SELECT …) alone.
      set: { type: "object", additionalProperties: ref("setValue") },
      setRows: { type: "array", minItems: 1, items: ref("rowAssignment") },
      where: ref("expression"),
      returning: ref("selectList"),
    },
    if: { required: ["setRows"], properties: { setRows: true } },
    else: { properties: { set: { type: "object", minProperties: 1 } } },
  },
  delete: {
    type: "object",
    additionalProperties: false,
    required: ["kind", "table", "where"],
    properties: { kind: { const: "delete" }, table: name, as: name, where: ref("expression"), returning: ref("selectList") },
  },
  // A schema, or (CREATE TABLE … AS SELECT) a table name and the select whose result columns and rows it takes.
  createTable: {
    type: "object",
    additionalProperties: false,
    required: ["kind"],
    // Either a schema, or a table made from a select (`table` and `select`, no `schema`): an error names the field at fault.
    if: { anyOf: [{ required: ["table"], properties: { table: true } }, { required: ["select"], properties: { select: true } }] },
    then: { required: ["table", "select"], properties: { table: true, select: true, schema: false } },
    else: { required: ["schema"], properties: { schema: true } },
    properties: { kind: { const: "create-table" }, schema: ref("tableSchema"), table: name, select: ref("select"), ifNotExists: { type: "boolean" } },
  },
  dropTable: {
    type: "object",
    additionalProperties: false,
    required: ["kind", "table"],
    properties: { kind: { const: "drop-table" }, table: name, ifExists: { type: "boolean" } },
  },
  createIndex: {
    type: "object",
    additionalProperties: false,
    required: ["kind", "table", "index"],
    properties: { kind: { const: "create-index" }, table: name, index: ref("index"), ifNotExists: { type: "boolean" } },
  },
  dropIndex: {
    type: "object",
    additionalProperties: false,
    required: ["kind", "name"],
    properties: { kind: { const: "drop-index" }, name, ifExists: { type: "boolean" } },
  },
  alterTable: {
    type: "object",
    additionalProperties: false,
    required: ["kind", "table", "action"],
    properties: { kind: { const: "alter-table" }, table: name, action: ref("alterAction") },
  },
  alterAction: {
    type: "object",
    discriminator: { propertyName: "type" },
    oneOf: [ref("addColumn"), ref("dropColumn"), ref("renameColumn"), ref("renameTable")],
  },
  addColumn: {
    type: "object",
    additionalProperties: false,
    required: ["type", "column", "columnType"],
    properties: { type: { const: "add-column" }, column: name, columnType: ref("columnType"), default: ref("value"), required: { type: "boolean" } },
  },
  dropColumn: { type: "object", additionalProperties: false, required: ["type", "column"], properties: { type: { const: "drop-column" }, column: name } },
  renameColumn: {
    type: "object",
    additionalProperties: false,
    required: ["type", "from", "to"],
    properties: { type: { const: "rename-column" }, from: name, to: name },
  },
  renameTable: { type: "object", additionalProperties: false, required: ["type", "to"], properties: { type: { const: "rename-table" }, to: name } },
  validate: {
    type: "object",
    additionalProperties: false,
    required: ["kind"],
    properties: { kind: { const: "validate" } },
  },
  sql: {
    type: "object",
    additionalProperties: false,
    required: ["kind", "sql"],
    properties: { kind: { const: "sql" }, sql: { type: "string" }, params: { type: "array", items: ref("value") } },
  },
  describe: {
    type: "object",
    additionalProperties: false,
    required: ["kind"],
    properties: { kind: { const: "describe" }, table: name },
  },
  checkpoint: {
    type: "object",
    additionalProperties: false,
    required: ["kind"],
    properties: { kind: { const: "checkpoint" } },
  },
  explain: {
    type: "object",
    additionalProperties: false,
    required: ["kind", "command"],
    properties: { kind: { const: "explain" }, command: ref("explainable") },
  },
  transaction: {
    type: "object",
    additionalProperties: false,
    required: ["kind", "commands"],
    properties: {
      kind: { const: "transaction" },
      commands: { type: "array", minItems: 1, maxItems: MAX_TRANSACTION_STEPS, items: ref("transactionStep") },
    },
  },
  transactionStep: {
    type: "object",
    discriminator: { propertyName: "kind" },
    oneOf: [ref("select"), ref("insert"), ref("update"), ref("delete"), ref("sql"), ref("createTable"), ref("dropTable"), ref("createIndex"), ref("dropIndex"), ref("alterTable")],
  },
  explainable: {
    type: "object",
    discriminator: { propertyName: "kind" },
    oneOf: [ref("select"), ref("insert"), ref("update"), ref("delete"), ref("sql")],
  },
  command: {
    type: "object",
    discriminator: { propertyName: "kind" },
    oneOf: [
      ref("select"),
      ref("insert"),
      ref("update"),
      ref("delete"),
      ref("createTable"),
      ref("dropTable"),
      ref("createIndex"),
      ref("dropIndex"),
      ref("alterTable"),
      ref("validate"),
      ref("sql"),
      ref("describe"),
      ref("explain"),
      ref("checkpoint"),
      ref("transaction"),
    ],
  },
} as const;

/** A command of CONTRACT §4 (what `parseCommand` accepts). */
export const commandSchema = {
  $id: "https://storedb.dev/schemas/command.json",
  definitions,
  ...definitions.command,
} as const;

/** A database name (CONTRACT §1): the envelope's `database`, the path route's `{name}`. */
export const databaseNameSchema = { type: "string", pattern: DATABASE_NAME_PATTERN } as const;

/** The body of `POST /v1/commands`. */
export const envelopeSchema = {
  $id: "https://storedb.dev/schemas/envelope.json",
  definitions,
  type: "object",
  additionalProperties: false,
  required: ["database", "command"],
  properties: {
    database: databaseNameSchema,
    command: ref("command"),
  },
} as const;

/**
 * The body of `POST /v1/databases/{name}/commands` (CONTRACT §12): the
 * envelope with the name moved to the path. `database` stays allowed, so an
 * envelope can be sent as is, and the route checks it names the path's database.
 */
export const commandBodySchema = {
  $id: "https://storedb.dev/schemas/command-body.json",
  definitions,
  type: "object",
  additionalProperties: false,
  required: ["command"],
  properties: {
    database: databaseNameSchema,
    command: ref("command"),
  },
} as const;

/** The path parameters of `POST /v1/databases/{name}/commands`. */
export const databaseParamsSchema = {
  type: "object",
  additionalProperties: false,
  required: ["name"],
  properties: { name: databaseNameSchema },
} as const;

/** A table schema of CONTRACT §3, standalone (for tools and docs). */
export const tableSchemaSchema = {
  $id: "https://storedb.dev/schemas/table-schema.json",
  definitions,
  ...definitions.tableSchema,
} as const;

/** An expression of CONTRACT §5, standalone. */
export const expressionSchema = {
  $id: "https://storedb.dev/schemas/expression.json",
  definitions,
  ...definitions.expression,
} as const;
