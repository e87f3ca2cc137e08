/**
 * Random SQL that storedb and SQLite must answer alike, over a generated
 * dataset of related tables full of NULLs: the engine of the differential
 * test (and of its longer run in `npm run soak`).
 *
 * Everything is generated typed, so only what both engines define the same
 * way is ever written; the deliberate differences (CONTRACT §5's strict
 * typing, §11's choices) are kept out by construction, never skipped after
 * the fact:
 * - a text never meets a number or a boolean, and booleans are not
 *   numbers (SQLite keeps TRUE as 1; storedb answers true, compared as 1);
 * - numbers stay small, so no integer leaves ±(2^53−1) (storedb's reals)
 *   nor ±2^63 (SQLite's); reals are quarters, so sums are exact in either
 *   engine whatever the order or summation method;
 * - `/`, `%` and CAST to text only take numbers whose kind both engines
 *   agree on: storedb unifies CASE/coalesce branches of integer and real to
 *   real, SQLite keeps each branch's own, so such a "mixed" number never
 *   reaches them;
 * - integer parameters are bound to SQLite as BigInt (better-sqlite3 binds a
 *   JS number as REAL), real parameters are never whole numbers (JSON has no
 *   `7.0`), booleans as 0/1;
 * - round() and CAST to text only see exact quarters (SQLite rounds and
 *   writes a 17-digit approximation, storedb the number as written: they
 *   differ on ties like 2.675 and in the 17th digit), and CAST never turns
 *   a boolean into text or anything into a boolean (storedb's own rules);
 * - a grouped query's list, HAVING and ORDER BY read only its keys (written
 *   alike, never with `?`: two parameters are never one key) and aggregates:
 *   SQLite would take a bare column from any row of a group, storedb refuses;
 *   for the same reason a subquery there reads none of the enclosing rows;
 * - a scalar subquery yields at most one row (an aggregate, or a row looked
 *   up by its primary key): SQLite would take the first of several, storedb
 *   refuses; its aggregates read only its own source (an aggregate of only
 *   the enclosing query's columns belongs to that query in SQL, storedb
 *   refuses it);
 * - an IN list of one scalar subquery gets a second value: SQLite reads
 *   `x IN ((SELECT …))` as IN the subquery's rows.
 *
 * A subquery's table is sometimes a derived table over it (`SELECT *`,
 * filtered by a term that often reads the enclosing query's row), so
 * correlated derived tables meet every shape a subquery takes.
 *
 * Every query is generated from its own seed, so one failing query replays
 * alone.
 */

import * as assert from "uvu/assert";
import type { Engine } from "../../../src/catalog/engine.js";
import type { Result } from "../../../src/commands/results.js";
import { StoreError } from "../../../src/errors.js";
import type { Value } from "../../../src/commands/types.js";
import { normal, sqliteValue, type SqliteDatabase } from "./sqlite.js";

// ---------------------------------------------------------------- randomness

export type Rng = () => number;

/** mulberry32: small, fast, good enough for test data. */
export function rng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The seed of query `index` of a run. */
export function querySeed(runSeed: number, index: number): number {
  return (Math.imul(runSeed ^ 0x9e3779b9, 0x85ebca6b) + Math.imul(index + 1, 0xc2b2ae35)) >>> 0;
}

/** Draws over one generator: an integer below n, a chance, an item of a list. */
export class Random {
  constructor(readonly next: Rng) {}
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)] as T;
  }
}

/** A `Random` over `seed`: the differential tests draw their queries from one. */
export function random(seed: number): Random {
  return new Random(rng(seed));
}

// ---------------------------------------------------------------- writes

/** A statement of the write differentials, with its parameters. */
export interface Statement {
  readonly sql: string;
  readonly params: readonly Value[];
}

/** The write differentials' draws: an integer below n, from a linear congruential generator over `seed`. */
export function generator(seed: number): (n: number) => number {
  let state = seed;
  // The high bits: an LCG's low bits cycle with short periods.
  return (n) => ((state = (state * 1103515245 + 12345) % 2147483648), Math.floor(state / 65536) % n);
}

/** A RETURNING answer as a sorted list of rows, comparable across engines. */
export function answer(rows: readonly (readonly unknown[])[]): string {
  return JSON.stringify(rows.map((row) => JSON.stringify(row.map(normal))).sort());
}

/** storedb's RETURNING answer of a write, if it has one. */
export function ours(result: Result): string | undefined {
  if (result.kind !== "mutation" || result.columns === undefined || result.rows === undefined) return undefined;
  const columns = result.columns;
  return answer((result.rows as Record<string, Value>[]).map((row) => columns.map((c) => row[c])));
}

/** One statement on SQLite: its RETURNING answer (if it has one), or the error. */
export function theirs(db: SqliteDatabase, s: Statement): { answer?: string; error?: string } {
  try {
    const prepared = db.prepare(s.sql);
    const params = s.params.map(sqliteValue);
    if (!prepared.reader) {
      prepared.run(...params);
      return {};
    }
    return { answer: answer(prepared.raw().all(...params)) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/**
 * One write statement on both engines: storedb's RETURNING answer and
 * SQLite's outcome, or `refused` (storedb's error message) when storedb
 * refused it — which the caller counts — after asserting SQLite refused it
 * too. `where` names the step in a failure.
 */
export function writeBoth(engine: Engine, db: SqliteDatabase, s: Statement, where: string): { mine?: string; got: { answer?: string; error?: string }; refused?: string } {
  const got = theirs(db, s);
  try {
    return { mine: ours(engine.execute({ kind: "sql", sql: s.sql, params: s.params }).result), got };
  } catch (error) {
    if (!(error instanceof StoreError)) throw error;
    assert.ok(got.error !== undefined, `${where}: storedb refused what SQLite ran (${error.message})\n  ${s.sql} ${JSON.stringify(s.params)}`);
    return { got, refused: error.message };
  }
}

// ---------------------------------------------------------------- dataset

type ColumnType = "integer" | "real" | "text" | "boolean";

interface Column {
  readonly name: string;
  readonly type: ColumnType;
}

export interface TableDef {
  readonly name: string;
  readonly columns: readonly Column[];
  readonly rows: readonly (readonly Value[])[];
  /** Secondary indexes, `[name, column, …]`: created alike in both engines. */
  readonly indexes: readonly (readonly [string, string, ...string[]])[];
}

const TEXTS = ["", "a", "A", "ab", "Ab", "abc", "b", "B", "ba", "x_y", "50%", "é", "É", "😀", "a😀b", " a ", "it's", "zz", "Paris", "paris", "Rome"];
const CITIES = ["Paris", "Rome", "Berlin", "paris", "Oslo"];
const STATUSES = ["new", "paid", "shipped", "cancelled"];

/** A quarter in [-max, max]: exact in binary, so sums never round. */
function quarter(r: Random, max: number): number {
  return (r.int(8 * max + 1) - 4 * max) / 4;
}

export function dataset(seed = 20260101): TableDef[] {
  const r = random(seed);
  const maybe = <T>(p: number, v: () => T): T | null => (r.chance(p) ? null : v());
  const users = Array.from({ length: 40 }, (_, i): Value[] => [
    i + 1,
    maybe(0.1, () => r.pick(TEXTS)),
    maybe(0.2, () => r.pick(CITIES)),
    maybe(0.2, () => r.int(60) - 5),
    maybe(0.2, () => quarter(r, 25)),
    maybe(0.25, () => r.chance(0.5)),
  ]);
  const orders = Array.from({ length: 90 }, (_, i): Value[] => [
    i + 1,
    maybe(0.15, () => 1 + r.int(45)), // some point past the last user: orphans for outer joins
    maybe(0.15, () => quarter(r, 60)),
    maybe(0.2, () => r.int(7)),
    maybe(0.1, () => r.pick(STATUSES)),
  ]);
  const items = Array.from({ length: 120 }, (_, i): Value[] => [
    i + 1,
    maybe(0.1, () => 1 + r.int(95)),
    maybe(0.1, () => r.pick(TEXTS)),
    maybe(0.2, () => quarter(r, 12)),
  ]);
  return [
    {
      name: "users",
      columns: [
        { name: "id", type: "integer" },
        { name: "name", type: "text" },
        { name: "city", type: "text" },
        { name: "age", type: "integer" },
        { name: "score", type: "real" },
        { name: "active", type: "boolean" },
      ],
      rows: users,
      indexes: [["users_city", "city"], ["users_age", "age"], ["users_score", "score"]],
    },
    {
      name: "orders",
      columns: [
        { name: "id", type: "integer" },
        { name: "user_id", type: "integer" },
        { name: "amount", type: "real" },
        { name: "qty", type: "integer" },
        { name: "status", type: "text" },
      ],
      rows: orders,
      indexes: [["orders_user", "user_id"], ["orders_amount", "amount"]],
    },
    {
      name: "items",
      columns: [
        { name: "id", type: "integer" },
        { name: "order_id", type: "integer" },
        { name: "sku", type: "text" },
        { name: "price", type: "real" },
      ],
      rows: items,
      indexes: [["items_sku", "sku"]],
    },
  ];
}

// ---------------------------------------------------------------- expressions

type Family = "num" | "text" | "bool";
/** Whether both engines agree a number is an integer or a real (see the header's "mixed"). */
type Kind = "int" | "real" | "mixed";

interface Gen {
  readonly sql: string;
  readonly family: Family;
  /** Numbers only. */
  readonly kind?: Kind;
  /** Numbers only: a quarter, or NULL, whatever the row (round() takes only these). */
  readonly exact?: boolean;
}

interface Source {
  readonly alias: string;
  readonly table: TableDef;
}

/** A generated query: SQL text, its parameters, and whether its rows come in a total order. */
export interface Query {
  readonly sql: string;
  readonly params: readonly Value[];
  readonly ordered: boolean;
}

const familyOf = (t: ColumnType): Family => (t === "text" ? "text" : t === "boolean" ? "bool" : "num");
const quote = (s: string): string => `'${s.replaceAll("'", "''")}'`;

/** A real written as SQL: always with a point, so SQLite reads it as REAL too. */
function realText(x: number): string {
  const s = String(x);
  return s.includes(".") || s.includes("e") ? s : `${s}.0`;
}

/** Where a parameter goes: its value's number between two control characters no generated text holds. */
const MARK = /\u0001(\d+)\u0002/g;

class QueryBuilder {
  /** Parameter values by mark; `finish` numbers the marks left in the text in text order. */
  private readonly values: Value[] = [];

  constructor(
    readonly r: Random,
    readonly tables: readonly TableDef[],
    /** Whether aggregates may take FILTER (WHERE …) (off: the random stream of a run is as it was before FILTER). */
    readonly filters = false,
    /** Conditions may be row value tests (`rowValue`); off by default, so a run's queries stay as they were. */
    readonly rowValues = false,
  ) {}

  /** Set while writing GROUP BY keys: the list repeats a key's text, and two `?` are never one key. */
  noParams = false;
  /** How deep in subqueries the expression being written is (subqueries nest one level here). */
  private nesting = 0;
  private aliases = 0;
  /** After a grouping, the leaves an expression may use (keys and aggregates), by family; unset: source columns. */
  leaves: ((family: Family) => Gen[]) | undefined;

  param(v: Value): string {
    if (this.noParams) {
      if (v === null) return "NULL";
      if (typeof v === "string") return quote(v);
      if (typeof v === "boolean") return v ? "TRUE" : "FALSE";
      return Number.isInteger(v) ? String(v) : realText(v);
    }
    this.values.push(v);
    return `\u0001${this.values.length - 1}\u0002`;
  }

  /** The text with `?` for each mark, and the values in the order the marks stand (generated parts may be dropped). */
  finish(sql: string, ordered: boolean): Query {
    const params: Value[] = [];
    const text = sql.replace(MARK, (_, id: string) => {
      params.push(this.values[Number(id)] ?? null);
      return "?";
    });
    return { sql: text, params, ordered };
  }

  columns(scope: readonly Source[], family: Family): Gen[] {
    const out: Gen[] = [];
    for (const s of scope) {
      for (const c of s.table.columns) {
        if (familyOf(c.type) !== family) continue;
        const sql = `${s.alias}.${c.name}`;
        out.push(family === "num" ? { sql, family, kind: c.type === "integer" ? "int" : "real", exact: true } : { sql, family });
      }
    }
    return out;
  }

  literal(family: Family): Gen {
    const r = this.r;
    if (r.chance(0.08)) return family === "num" ? { sql: "NULL", family, kind: "int", exact: true } : { sql: "NULL", family };
    switch (family) {
      case "num": {
        if (r.chance(0.55)) {
          const v = r.int(21) - 6;
          return { sql: r.chance(0.3) ? this.param(v) : String(v), family, kind: "int", exact: true };
        }
        let v = quarter(r, 20);
        // A real parameter is never whole: JSON has no `7.0`, an integral value is an integer.
        if (r.chance(0.3)) {
          if (Number.isInteger(v)) v += 0.25;
          return { sql: this.param(v), family, kind: "real", exact: true };
        }
        return { sql: realText(v), family, kind: "real", exact: true };
      }
      case "text": {
        const v = r.pick(TEXTS);
        return { sql: r.chance(0.3) ? this.param(v) : quote(v), family };
      }
      case "bool": {
        const v = r.chance(0.5);
        return { sql: r.chance(0.2) ? this.param(v) : v ? "TRUE" : "FALSE", family };
      }
    }
  }

  /** Whether a subquery may stand here: not in GROUP BY keys (the list repeats them as text), not inside another. */
  subqueries(): boolean {
    return !this.noParams && this.nesting === 0 && this.r.chance(0.5);
  }

  /**
   * A subquery over a table under a fresh alias: `write` gets the sources
   * its expressions may read (its own first, then the enclosing ones unless
   * those are groups) and returns its select list; `first` writes a leading
   * WHERE term over its alias. Often correlated by an equality, the shape
   * decorrelation takes.
   */
  subquery(scope: readonly Source[], write: (both: readonly Source[]) => string, first?: (alias: string) => string): string {
    const r = this.r;
    const source: Source = { alias: `s${this.aliases++}`, table: r.pick(this.tables) };
    const saved = this.leaves;
    this.leaves = undefined;
    const both = saved === undefined ? [source, ...scope] : [source];
    this.nesting++;
    try {
      const terms = first === undefined ? [] : [first(source.alias)];
      const outer = this.columns(both.slice(1), "num");
      if (outer.length > 0 && r.chance(0.6)) terms.push(`${r.pick(this.columns([source], "num")).sql} = ${r.pick(outer).sql}`);
      if (r.chance(0.5)) terms.push(this.expr("bool", 1, both).sql);
      const list = write(both);
      const from = r.chance(0.25) ? this.derived(source, both.slice(1)) : source.table.name;
      return `(SELECT ${list} FROM ${from} ${source.alias}${terms.length > 0 ? ` WHERE ${terms.join(" AND ")}` : ""})`;
    } finally {
      this.nesting--;
      this.leaves = saved;
    }
  }

  /**
   * A derived table standing for `source`'s table in a subquery: its rows
   * (every column, under their own names) filtered by a term that may read
   * the sources enclosing the subquery — often an equality, so the derived
   * table is correlated and made again per enclosing row.
   */
  private derived(source: Source, enclosing: readonly Source[]): string {
    const r = this.r;
    const inner: Source = { alias: `${source.alias}d`, table: source.table };
    const outer = this.columns(enclosing, "num");
    const term = outer.length > 0 && r.chance(0.6) ? `${r.pick(this.columns([inner], "num")).sql} = ${r.pick(outer).sql}` : this.expr("bool", 1, [inner, ...enclosing]).sql;
    return `(SELECT * FROM ${source.table.name} ${inner.alias} WHERE ${term})`;
  }

  /** A scalar subquery of a number: an aggregate of its own rows, or a value of the one row its primary key finds. */
  scalar(scope: readonly Source[]): Gen {
    let gen: Gen = { sql: "", family: "num" };
    const byKey = this.r.chance(0.4);
    // Inside the subquery a grouped query's keys and aggregates are not its own (see the header): then a literal key.
    const key = !byKey ? "" : this.leaves === undefined ? this.expr("num", 1, scope).sql : this.literal("num").sql;
    const sql = this.subquery(
      scope,
      (both) => {
        gen = byKey ? this.expr("num", 1, both) : aggregate(this, "num", both.slice(0, 1));
        return gen.sql;
      },
      byKey ? (alias) => `${alias}.id = ${key}` : undefined,
    );
    return { ...gen, sql };
  }

  leaf(family: Family, scope: readonly Source[]): Gen {
    const cols = this.leaves !== undefined ? this.leaves(family) : this.columns(scope, family);
    if (cols.length > 0 && this.r.chance(0.65)) return this.r.pick(cols);
    return this.literal(family);
  }

  expr(family: Family, depth: number, scope: readonly Source[]): Gen {
    if (depth <= 0 || this.r.chance(0.3)) return this.leaf(family, scope);
    switch (family) {
      case "num":
        return this.number(depth, scope);
      case "text":
        return this.text(depth, scope);
      case "bool":
        return this.bool(depth, scope);
    }
  }

  /** A number whose kind both engines agree on (for `/` and `%`). */
  pure(depth: number, scope: readonly Source[]): Gen {
    for (let tries = 0; tries < 4; tries++) {
      const g = this.expr("num", depth, scope);
      if (g.kind !== "mixed") return g;
    }
    // A leaf may be an aggregate of a mixed number (`min(ifnull(a.age, 0.25))`): then a literal.
    const leaf = this.leaf("num", scope);
    return leaf.kind === "mixed" ? this.literal("num") : leaf;
  }

  number(depth: number, scope: readonly Source[]): Gen {
    const r = this.r;
    const d = depth - 1;
    const k = r.int(13);
    switch (k) {
      case 12:
        if (this.subqueries()) return this.scalar(scope);
        return this.leaf("num", scope);
      case 0:
      case 1: {
        const a = this.expr("num", d, scope);
        const b = this.expr("num", d, scope);
        const op = r.pick(["+", "-", "*"]);
        // Products of products would outgrow the integers both engines share.
        const right = op === "*" && d > 0 ? this.leaf("num", scope) : b;
        return { sql: `(${a.sql} ${op} ${right.sql})`, family: "num", kind: combine(a.kind, right.kind), exact: a.exact === true && right.exact === true };
      }
      case 2: {
        const a = this.pure(d, scope);
        const b = this.pure(d, scope);
        const op = r.pick(["/", "%"]);
        const kind: Kind = a.kind === "int" && b.kind === "int" ? "int" : "real";
        // A remainder is whole (both operands are truncated first); a real quotient is not a quarter.
        return { sql: `(${a.sql} ${op} ${b.sql})`, family: "num", kind, exact: op === "%" || kind === "int" };
      }
      case 3: {
        const a = this.expr("num", d, scope);
        return { sql: `(- ${a.sql})`, family: "num", kind: a.kind ?? "int", exact: a.exact === true };
      }
      case 4: {
        const a = this.expr("num", d, scope);
        const fn = r.pick(["abs", "abs", "sign", "ceil", "floor", "trunc"]);
        // sign is an integer in both engines; the others keep the kind (a quarter rounded stays exact).
        return { sql: `${fn}(${a.sql})`, family: "num", kind: fn === "sign" ? "int" : (a.kind ?? "int"), exact: fn === "sign" || a.exact === true };
      }
      case 5: {
        const a = this.expr("num", d, scope);
        if (a.exact !== true) return a;
        const digits = r.chance(0.5) ? 0 : r.int(3);
        return { sql: `round(${a.sql}${digits === 0 ? "" : `, ${digits}`})`, family: "num", kind: "real", exact: digits === 0 };
      }
      case 6: {
        const t = this.expr("text", d, scope);
        return { sql: r.chance(0.5) ? `length(${t.sql})` : `instr(${t.sql}, ${this.expr("text", d, scope).sql})`, family: "num", kind: "int", exact: true };
      }
      case 7: {
        const c = this.expr("bool", d, scope);
        const a = this.expr("num", d, scope);
        const b = this.expr("num", d, scope);
        const otherwise = r.chance(0.7) ? ` ELSE ${b.sql}` : "";
        // iif(c, a, b) is the same CASE in both engines.
        const sql = otherwise !== "" && r.chance(0.3) ? `iif(${c.sql}, ${a.sql}, ${b.sql})` : `CASE WHEN ${c.sql} THEN ${a.sql}${otherwise} END`;
        return { sql, family: "num", kind: unifyKinds(a.kind, otherwise ? b.kind : a.kind), exact: a.exact === true && b.exact === true };
      }
      case 8: {
        const a = this.expr("num", d, scope);
        const b = this.expr("num", d, scope);
        const fn = r.pick(["coalesce", "ifnull", "nullif"]);
        const kind = fn === "nullif" ? (a.kind ?? "int") : unifyKinds(a.kind, b.kind);
        return { sql: `${fn}(${a.sql}, ${b.sql})`, family: "num", kind, exact: a.exact === true && b.exact === true };
      }
      case 9: {
        const a = this.expr("num", d, scope);
        if (r.chance(0.5)) return { sql: `CAST(${a.sql} AS INTEGER)`, family: "num", kind: "int", exact: true };
        return { sql: `CAST(${a.sql} AS REAL)`, family: "num", kind: "real", exact: a.exact === true };
      }
      case 10: {
        const text = r.pick(["12abc", " 7", "-3.5x", "abc", "", "1e2", "+4", ".5", "0x10"]);
        return r.chance(0.5)
          ? { sql: `CAST(${quote(text)} AS INTEGER)`, family: "num", kind: "int", exact: true }
          : { sql: `CAST(${quote(text)} AS REAL)`, family: "num", kind: "real", exact: false };
      }
      default: {
        const b = this.expr("bool", d, scope);
        return { sql: `CAST(${b.sql} AS INTEGER)`, family: "num", kind: "int", exact: true };
      }
    }
  }

  text(depth: number, scope: readonly Source[]): Gen {
    const r = this.r;
    const d = depth - 1;
    const t = (): Gen => this.expr("text", d, scope);
    const small = (): string => String(r.int(9) - 4);
    switch (r.int(9)) {
      case 0:
        return { sql: `(${t().sql} || ${t().sql})`, family: "text" };
      case 1:
        // typeof only over texts and numbers both engines type alike (a boolean is 'integer' to SQLite).
        if (r.chance(0.15)) return { sql: `typeof(${r.chance(0.5) ? t().sql : this.pure(d, scope).sql})`, family: "text" };
        return { sql: `${r.pick(["lower", "upper", "trim", "ltrim", "rtrim"])}(${t().sql})`, family: "text" };
      case 2:
        return { sql: `${r.pick(["trim", "ltrim", "rtrim"])}(${t().sql}, ${quote(r.pick(["a", " ", "ab", "é"]))})`, family: "text" };
      case 3:
        return { sql: r.chance(0.5) ? `substr(${t().sql}, ${small()})` : `substr(${t().sql}, ${small()}, ${small()})`, family: "text" };
      case 4:
        return { sql: `replace(${t().sql}, ${t().sql}, ${t().sql})`, family: "text" };
      case 5: {
        const c = this.expr("bool", d, scope);
        return { sql: `CASE WHEN ${c.sql} THEN ${t().sql} ELSE ${t().sql} END`, family: "text" };
      }
      case 6:
        return { sql: `${r.pick(["coalesce", "ifnull", "nullif"])}(${t().sql}, ${t().sql})`, family: "text" };
      case 7: {
        // A real prints with its point (`1.0`): only a number both engines call real or integer, and
        // only a quarter (digits beyond 15 differ: SQLite's conversion is approximate, storedb's shortest exact).
        const n = this.pure(d, scope);
        if (n.exact === true) return { sql: `CAST(${n.sql} AS TEXT)`, family: "text" };
        // A leaf may be an aggregate (avg is no quarter, min of a mixed number is mixed): then a literal.
        const leaf = this.leaf("num", scope);
        return { sql: `CAST(${(leaf.exact === true && leaf.kind !== "mixed" ? leaf : this.literal("num")).sql} AS TEXT)`, family: "text" };
      }
      default: {
        const o = t();
        return { sql: `CASE ${o.sql} WHEN ${t().sql} THEN ${t().sql} WHEN ${t().sql} THEN ${t().sql} END`, family: "text" };
      }
    }
  }

  /**
   * A row value test, SQLite's: rows of 2 or 3 values (each pair of one
   * family, NULLs among them) compared by any operator, BETWEEN two, IN a
   * list of them or a subquery of as many columns, or compared with a subquery of one row
   * (aggregates: SQLite takes a first row where storedb refuses two).
   */
  rowValue(depth: number, scope: readonly Source[]): Gen {
    const r = this.r;
    const families = Array.from({ length: 2 + r.int(2) }, () => r.pick<Family>(["num", "num", "text", "bool"]));
    const row = (d: number, sources: readonly Source[] = scope): string => `(${families.map((f) => this.expr(f, d, sources).sql).join(", ")})`;
    const not = r.chance(0.3) ? "NOT " : "";
    switch (r.int(this.subqueries() ? 7 : 4)) {
      case 0:
      case 1:
        return { sql: `(${row(depth)} ${r.pick(["=", "<>", "!=", "<", "<=", ">", ">=", "IS", "IS NOT"])} ${row(depth)})`, family: "bool" };
      case 2:
        return { sql: `(${row(depth)} ${not}BETWEEN ${row(depth - 1)} AND ${row(depth - 1)})`, family: "bool" };
      case 3:
        // SQLite reads the list as IN (VALUES …), a subquery, where a grouped query's aggregates are "misuse of aggregate".
        if (this.leaves !== undefined) return { sql: `(${row(depth)} = ${row(depth)})`, family: "bool" };
        return { sql: `(${row(depth)} ${not}IN (${Array.from({ length: 1 + r.int(3) }, () => row(depth - 1)).join(", ")}))`, family: "bool" };
      case 4:
      case 5:
        return { sql: `(${row(depth)} ${not}IN ${this.subquery(scope, (both) => families.map((f) => this.expr(f, 1, both).sql).join(", "))})`, family: "bool" };
      default: {
        // One row whatever the rows: count(*) and max() over the subquery's own columns (a bool's as a number).
        const text = families.map((f) => (f === "text" ? "text" : "num"));
        const sub = this.subquery(scope, (both) =>
          text
            .map((f) => {
              const own = this.columns(both.slice(0, 1), f);
              return own.length === 0 || (f === "num" && r.chance(0.3)) ? (f === "num" ? "count(*)" : "''") : `max(${r.pick(own).sql})`;
            })
            .join(", "),
        );
        const left = `(${text.map((f) => this.expr(f, depth, scope).sql).join(", ")})`;
        return { sql: `(${left} ${r.pick(["=", "<>", "<", ">=", "IS NOT"])} ${sub})`, family: "bool" };
      }
    }
  }

  bool(depth: number, scope: readonly Source[]): Gen {
    const r = this.r;
    const d = depth - 1;
    if (this.rowValues && r.chance(0.3)) return this.rowValue(d, scope);
    const family = (): Family => r.pick<Family>(["num", "num", "num", "text", "text", "bool"]);
    switch (r.int(12)) {
      case 10:
        if (!this.subqueries()) return this.leaf("bool", scope);
        return { sql: `(${r.chance(0.3) ? "NOT " : ""}EXISTS ${this.subquery(scope, () => (r.chance(0.5) ? "*" : "1"))})`, family: "bool" };
      case 11: {
        if (!this.subqueries()) return this.leaf("bool", scope);
        const f = family();
        const x = this.expr(f, d, scope).sql;
        // ORDER BY the one column and LIMIT: ties are equal values, so both engines keep the same set.
        const limit = r.chance(0.2) ? ` ORDER BY 1${r.chance(0.5) ? " DESC" : ""} LIMIT ${1 + r.int(5)}` : "";
        const sub = this.subquery(scope, (both) => this.expr(f, 1, both).sql);
        return { sql: `(${x} ${r.chance(0.4) ? "NOT " : ""}IN ${limit === "" ? sub : `${sub.slice(0, -1)}${limit})`})`, family: "bool" };
      }
      case 0:
      case 1: {
        const f = family();
        const a = this.expr(f, d, scope);
        const b = this.expr(f, d, scope);
        return { sql: `(${a.sql} ${r.pick(["=", "<>", "!=", "<", "<=", ">", ">=", "IS", "IS NOT", "IS DISTINCT FROM", "IS NOT DISTINCT FROM"])} ${b.sql})`, family: "bool" };
      }
      case 2:
        return { sql: `(${this.expr(family(), d, scope).sql} IS ${r.chance(0.5) ? "NOT " : ""}NULL)`, family: "bool" };
      case 3: {
        const f = family();
        const values = Array.from({ length: 1 + r.int(4) }, () => this.expr(f, d - 1, scope).sql);
        // SQLite reads `x IN ((SELECT …))` as IN the subquery's rows, not as a list of its one value.
        if (values.length === 1 && values[0]!.startsWith("(SELECT")) values.push(this.literal(f).sql);
        return { sql: `(${this.expr(f, d, scope).sql} ${r.chance(0.3) ? "NOT " : ""}IN (${values.join(", ")}))`, family: "bool" };
      }
      case 4: {
        const f: Family = r.chance(0.7) ? "num" : "text";
        const [x, lo, hi] = [this.expr(f, d, scope), this.expr(f, d - 1, scope), this.expr(f, d - 1, scope)];
        return { sql: `(${x.sql} ${r.chance(0.3) ? "NOT " : ""}BETWEEN ${lo.sql} AND ${hi.sql})`, family: "bool" };
      }
      case 5: {
        const pattern = r.pick(["a%", "%a%", "_", "%", "A_", "%b", "a\\_%", "%😀%", "é%", "p%", "%s", "50!%", "x!_y"]);
        const escape = pattern.includes("!") ? " ESCAPE '!'" : pattern.includes("\\") ? " ESCAPE '\\'" : "";
        const p = r.chance(0.25) && escape === "" ? this.param(pattern) : quote(pattern);
        return { sql: `(${this.expr("text", d, scope).sql} ${r.chance(0.3) ? "NOT " : ""}LIKE ${p}${escape})`, family: "bool" };
      }
      case 6:
        return { sql: `(NOT ${this.expr("bool", d, scope).sql})`, family: "bool" };
      case 7:
      case 8: {
        const parts = Array.from({ length: 2 + r.int(2) }, () => this.expr("bool", d, scope).sql);
        return { sql: `(${parts.join(r.chance(0.5) ? " AND " : " OR ")})`, family: "bool" };
      }
      default:
        return this.leaf("bool", scope);
    }
  }
}

/** An aggregate over the source rows (its argument, and its FILTER when the run has them, read columns, never other aggregates). */
function aggregate(q: QueryBuilder, family: Family, scope: readonly Source[]): Gen {
  const saved = q.leaves;
  q.leaves = undefined;
  try {
    const gen = unfilteredAggregate(q, family, scope);
    if (!q.filters || !q.r.chance(0.6)) return gen;
    return { ...gen, sql: `${gen.sql} FILTER (WHERE ${q.expr("bool", 1 + q.r.int(2), scope).sql})` };
  } finally {
    q.leaves = saved;
  }
}

function unfilteredAggregate(q: QueryBuilder, family: Family, scope: readonly Source[]): Gen {
  const r = q.r;
  const distinct = r.chance(0.25) ? "DISTINCT " : "";
  if (family === "num") {
    switch (r.int(5)) {
      case 0:
        return { sql: "count(*)", family, kind: "int", exact: true };
      case 1: {
        const arg = q.expr(r.pick<Family>(["num", "text", "bool"]), 1, scope);
        return { sql: `count(${distinct}${arg.sql})`, family, kind: "int", exact: true };
      }
      case 2: {
        const arg = q.expr("num", 1, scope);
        return { sql: `sum(${distinct}${arg.sql})`, family, kind: arg.kind ?? "int", exact: arg.exact === true };
      }
      case 3: {
        const arg = q.expr("num", 1, scope);
        return { sql: `avg(${distinct}${arg.sql})`, family, kind: "real", exact: false };
      }
      default: {
        const arg = q.expr("num", 1, scope);
        return { sql: `${r.pick(["min", "max"])}(${arg.sql})`, family, kind: arg.kind ?? "int", exact: arg.exact === true };
      }
    }
  }
  return { sql: `${r.pick(["min", "max"])}(${q.expr(family, 1, scope).sql})`, family };
}

function combine(a: Kind | undefined, b: Kind | undefined): Kind {
  if (a === "mixed" || b === "mixed") return "mixed";
  return a === "real" || b === "real" ? "real" : "int";
}

/** A CASE or coalesce of both kinds: storedb says real, SQLite keeps each value's own. */
function unifyKinds(a: Kind | undefined, b: Kind | undefined): Kind {
  return a === b ? (a ?? "int") : "mixed";
}

/** `first.key [NOT] IN (SELECT …)`, the key the first source's primary key or one of its indexed columns, the subquery often correlated. */
function keyInTerm(q: QueryBuilder, scope: readonly Source[]): string {
  const first = scope[0]!;
  const name = q.r.pick(["id", ...first.table.indexes.map(([, column]) => column)]);
  const family = familyOf(first.table.columns.find((c) => c.name === name)!.type);
  const sub = q.subquery(scope, (both) => q.expr(family, 1, both).sql);
  return `${first.alias}.${name} ${q.r.chance(0.2) ? "NOT " : ""}IN ${sub}`;
}

// ---------------------------------------------------------------- statements

/** One random select (see the header for what it may hold). */
export function generateQuery(seed: number, tables: readonly TableDef[], options: { readonly filters?: boolean; readonly rowValues?: boolean } = {}): Query {
  const r = random(seed);
  const q = new QueryBuilder(r, tables, options.filters === true, options.rowValues === true);
  const table = (name: string): TableDef => tables.find((t) => t.name === name)!;
  const depth = 1 + r.int(3);

  if (r.chance(0.06)) {
    // No FROM: the list is evaluated once.
    const items = Array.from({ length: 1 + r.int(3) }, (_, i) => `${q.expr(r.pick<Family>(["num", "text", "bool"]), depth, []).sql} AS c${i}`);
    const where = r.chance(0.2) ? ` WHERE ${q.expr("bool", 1, []).sql}` : "";
    return q.finish(`SELECT ${items.join(", ")}${where}`, true);
  }

  if (r.chance(0.1)) return compoundQuery(q, tables, depth);

  const scope: Source[] = [];
  let from: string;
  let prefix = "";
  const shape = r.int(8);
  if (shape <= 1) {
    scope.push({ alias: "u", table: table("users") });
    from = "users u";
  } else if (shape === 2) {
    scope.push({ alias: "o", table: table("orders") });
    from = "orders AS o";
  } else if (shape === 3) {
    scope.push({ alias: "u", table: table("users") }, { alias: "o", table: table("orders") });
    const type = r.pick(["JOIN", "LEFT JOIN", "INNER JOIN"]);
    const extra = r.chance(0.3) ? ` AND ${q.expr("bool", 1, scope).sql}` : "";
    from = `users u ${type} orders o ON o.user_id = u.id${extra}`;
  } else if (shape === 4) {
    // A self-join under two aliases.
    scope.push({ alias: "a", table: table("users") }, { alias: "b", table: table("users") });
    from = `users a ${r.pick(["JOIN", "LEFT JOIN"])} users b ON ${r.pick(["b.city = a.city AND b.id <> a.id", "b.age > a.age", "b.id = a.id + 1"])}`;
  } else if (shape === 5) {
    scope.push({ alias: "o", table: table("orders") }, { alias: "i", table: table("items") }, { alias: "u", table: table("users") });
    from = `orders o ${r.pick(["JOIN", "LEFT JOIN"])} items i ON i.order_id = o.id LEFT JOIN users u ON u.id = o.user_id`;
  } else {
    // A derived table, alone or joined to users by the user it counts; half the time named by WITH.
    const alone = shape === 6;
    const d = derivedTable(q, alone ? r.pick(tables) : table("orders"), alone ? undefined : "user_id");
    const named = r.chance(0.5);
    if (named) prefix = `WITH d AS (${d.sql}) `;
    const read = named ? "d" : `(${d.sql}) AS d`;
    if (alone) {
      scope.push({ alias: "d", table: d.def });
      from = read;
    } else {
      scope.push({ alias: "u", table: table("users") }, { alias: "d", table: d.def });
      from = `users u ${r.pick(["JOIN", "LEFT JOIN"])} ${read} ON d.id = u.id`;
    }
  }

  const width = 1 + r.int(4);
  const items: string[] = [];
  const family = (): Family => r.pick<Family>(["num", "num", "text", "bool"]);
  const form = r.int(10);
  let head = "SELECT ";
  let grouping = "";
  if (form < 6) {
    for (let i = 0; i < width; i++) items.push(`${q.expr(family(), depth, scope).sql} AS c${i}`);
  } else if (form < 9) {
    // Grouped: keys (or none: one group of all rows), then a list, HAVING and ORDER BY over keys and aggregates.
    q.noParams = true;
    // A key reads a column: SQLite takes a constant GROUP BY term as a column number.
    const reads = (g: Gen): boolean => scope.some((source) => g.sql.includes(`${source.alias}.`));
    const key = (): Gen => {
      for (let tries = 0; tries < 5; tries++) {
        const g = q.expr(family(), 1, scope);
        if (reads(g)) return g;
      }
      return q.columns(scope, "num")[0]!;
    };
    const keys = r.chance(0.2) ? [] : Array.from({ length: 1 + r.int(2) }, key);
    q.noParams = false;
    q.leaves = (f) => [...keys.filter((k) => k.family === f), aggregate(q, f, scope), aggregate(q, f, scope)];
    const keyAt = new Map<number, number>();
    for (let i = 0; i < width; i++) {
      const key = keys.length > 0 && r.chance(0.3) ? r.int(keys.length) : -1;
      if (key >= 0) keyAt.set(key, i + 1);
      items.push(`${key >= 0 ? keys[key]!.sql : q.expr(family(), depth, scope).sql} AS c${i}`);
    }
    if (keys.length > 0) {
      // A key the list holds may be named by its column number.
      grouping += ` GROUP BY ${keys.map((k, j) => (keyAt.has(j) && r.chance(0.3) ? String(keyAt.get(j)) : k.sql)).join(", ")}`;
    }
    // SQLite refuses HAVING in a query whose list holds no aggregate and that has no GROUP BY (storedb makes it one group).
    if (keys.length > 0 && r.chance(0.4)) grouping += ` HAVING ${q.expr("bool", 2, scope).sql}`;
  } else {
    head = "SELECT DISTINCT ";
    for (let i = 0; i < width; i++) items.push(`${q.expr(family(), depth, scope).sql} AS c${i}`);
  }
  const leaves = q.leaves;
  q.leaves = undefined;
  const terms = r.chance(0.75) ? [q.expr("bool", depth, scope).sql] : [];
  // A leading `key IN (SELECT …)` on the first table's primary key or an indexed column: the shape of a lookup of the subquery's values.
  if (q.subqueries() && r.chance(0.6)) terms.unshift(keyInTerm(q, scope));
  const where = terms.length > 0 ? ` WHERE ${terms.join(" AND ")}` : "";
  q.leaves = leaves;
  const { tail, ordered } = orderTail(q, width);
  return q.finish(`${prefix}${head}${items.join(", ")} FROM ${from}${where}${grouping}${tail}`, ordered);
}

/**
 * A derived table over `base`: with `key`, that column (as `id`) and its
 * row count `n` per value; else `id` and up to two more columns under their
 * own names, maybe filtered or distinct, maybe its first rows by every
 * column. As a TableDef its columns keep their types (it has no rows or
 * indexes of its own to offer).
 */
function derivedTable(q: QueryBuilder, base: TableDef, key?: string): { sql: string; def: TableDef } {
  const r = q.r;
  const column = (name: string): Column => base.columns.find((c) => c.name === name)!;
  const grouped = key ?? (r.chance(0.25) ? r.pick(base.columns.filter((c) => c.name !== "id")).name : undefined);
  if (grouped !== undefined) {
    const def: TableDef = { name: "d", columns: [{ name: "id", type: column(grouped).type }, { name: "n", type: "integer" }], rows: [], indexes: [] };
    return { sql: `SELECT t.${grouped} AS id, count(*) AS n FROM ${base.name} t GROUP BY t.${grouped}`, def };
  }
  const others = base.columns.filter((c) => c.name !== "id");
  const columns = [column("id"), ...Array.from({ length: r.int(3) }, () => others.splice(r.int(others.length), 1)[0]!)];
  const where = r.chance(0.5) ? ` WHERE ${q.expr("bool", 1, [{ alias: "t", table: base }]).sql}` : "";
  const cut = r.chance(0.3) ? ` ORDER BY ${columns.map((_, i) => i + 1).join(", ")} LIMIT ${r.int(20)}` : "";
  const sql = `SELECT ${r.chance(0.2) ? "DISTINCT " : ""}${columns.map((c) => `t.${c.name}`).join(", ")} FROM ${base.name} t${where}${cut}`;
  return { sql, def: { name: "d", columns, rows: [], indexes: [] } };
}

/** Half the time, ORDER BY every output column (so ties are between equal rows and any LIMIT takes the same ones), perhaps with LIMIT and OFFSET. */
function orderTail(q: QueryBuilder, width: number): { tail: string; ordered: boolean } {
  const r = q.r;
  if (!r.chance(0.5)) return { tail: "", ordered: false };
  const keys = Array.from({ length: width }, (_, i) => `${i + 1}${r.chance(0.5) ? " DESC" : ""}${r.chance(0.2) ? r.pick([" NULLS FIRST", " NULLS LAST"]) : ""}`);
  for (let i = keys.length - 1; i > 0; i--) {
    const j = r.int(i + 1);
    [keys[i], keys[j]] = [keys[j]!, keys[i]!];
  }
  let tail = ` ORDER BY ${keys.join(", ")}`;
  if (r.chance(0.5)) {
    tail += ` LIMIT ${r.chance(0.5) ? q.param(r.int(12)) : r.int(12)}`;
    if (r.chance(0.5)) tail += ` OFFSET ${r.chance(0.5) ? q.param(r.int(6)) : r.int(6)}`;
  }
  return { tail, ordered: true };
}

/** Two or three selects of one width and one family per column, each over a table of its own, joined by UNION [ALL], INTERSECT or EXCEPT. */
function compoundQuery(q: QueryBuilder, tables: readonly TableDef[], depth: number): Query {
  const r = q.r;
  const families = Array.from({ length: 1 + r.int(3) }, () => r.pick<Family>(["num", "num", "text", "bool"]));
  const select = (): string => {
    const source: Source = { alias: "t", table: r.pick(tables) };
    const items = families.map((family, i) => `${q.expr(family, depth, [source]).sql} AS c${i}`);
    const where = r.chance(0.6) ? ` WHERE ${q.expr("bool", depth, [source]).sql}` : "";
    return `SELECT ${r.chance(0.2) ? "DISTINCT " : ""}${items.join(", ")} FROM ${source.table.name} t${where}`;
  };
  let sql = select();
  for (let arms = 1 + r.int(2); arms > 0; arms--) sql += ` ${r.pick(["UNION", "UNION ALL", "INTERSECT", "EXCEPT"])} ${select()}`;
  const { tail, ordered } = orderTail(q, families.length);
  return q.finish(sql + tail, ordered);
}
