/**
 * Window functions against SQLite: generated selects of one to three
 * window calls — every function, PARTITION BY none or one column, ORDER BY
 * none to two keys each way with NULLS FIRST/LAST, and ROWS, RANGE and
 * GROUPS frames with offsets and EXCLUDE — over the differential dataset,
 * sometimes after a WHERE, must give SQLite's answers (as multisets: each
 * row carries its id).
 *
 * Both engines break ties in a sort their own way, so a call whose value
 * depends on the order of peers (row_number, ntile, lag, lead, the value
 * functions, group_concat, a ROWS frame) sorts by `id` last, leaving no
 * peers; the others keep their peers, which RANGE and GROUPS frames and
 * the ranking functions are about. `WINDOW_SEED` and `WINDOW_QUERIES` pick
 * the run, `WINDOW_QUERY` replays one query. A second run, half as long,
 * gives the aggregates FILTER (WHERE …) on a column of the row.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { Value } from "../../src/commands/types.js";
import { engines, run, sameRows } from "./support/both-engines.js";
import { dataset, querySeed, random, type Random, type TableDef } from "./support/sql-generator.js";

const RUN_SEED = Number(process.env["WINDOW_SEED"] ?? 20261128);
const COUNT = Number(process.env["WINDOW_QUERIES"] ?? 600);
const ONLY = process.env["WINDOW_QUERY"] === undefined ? undefined : Number(process.env["WINDOW_QUERY"]);


const RANKING = ["row_number()", "rank()", "dense_rank()", "percent_rank()", "cume_dist()"];
/** Functions whose value rests on the order of peers. */
const ORDER_BOUND = new Set(["row_number", "ntile", "lag", "lead", "first_value", "last_value", "nth_value", "group_concat"]);

/** `filters`: the aggregates may take FILTER (WHERE …) (off: the run's random stream is as before FILTER). */
function windowQuery(seed: number, tables: readonly TableDef[], filters = false): string {
  const r = random(seed);
  const table = r.pick(tables);
  const columns = table.columns.filter((c) => c.name !== "id");
  const numbers = columns.filter((c) => c.type === "integer" || c.type === "real");
  const texts = columns.filter((c) => c.type === "text");
  const calls: string[] = [];
  for (let n = 1 + r.int(3); n > 0; n--) {
    let call: string;
    let name: string;
    const any = r.pick(columns).name;
    switch (r.int(8)) {
      case 0:
        call = r.pick(RANKING);
        break;
      case 1:
        call = `ntile(${1 + r.int(5)})`;
        break;
      case 2: {
        const column = r.pick(numbers).name;
        const shift = r.pick(["lag", "lead"]);
        call = r.chance(0.5) ? `${shift}(${column})` : `${shift}(${column}, ${r.int(4)}${r.chance(0.5) ? `, ${r.int(9)}` : ""})`;
        break;
      }
      case 3:
        call = r.chance(0.3) ? `nth_value(${any}, ${1 + r.int(3)})` : `${r.pick(["first_value", "last_value"])}(${any})`;
        break;
      case 4:
        call = r.chance(0.3) ? "count(*)" : `count(${any})`;
        break;
      case 5:
        call = `${r.pick(["sum", "avg"])}(${r.pick(numbers).name})`;
        break;
      case 6:
        call = `${r.pick(["min", "max"])}(${any})`;
        break;
      default:
        // SQLite's window group_concat answers "\0" for a frame of one empty text (its aggregate answers ""): the generator leaves those out.
        call = texts.length > 0 ? `group_concat(nullif(${r.pick(texts).name}, ''), '-')` : "count(*)";
    }
    name = call.slice(0, call.indexOf("("));
    if (filters && AGGREGATES.has(name) && r.chance(0.6)) call += ` FILTER (WHERE ${condition(r, table.columns)})`;
    const framed = !["row_number", "rank", "dense_rank", "percent_rank", "cume_dist", "ntile", "lag", "lead"].includes(name);
    const partition = r.chance(0.5) ? `PARTITION BY ${r.pick(columns).name} ` : "";
    const keys: { column: string; numeric: boolean }[] = [];
    for (let k = r.chance(0.25) ? 0 : 1 + r.int(2); k > 0; k--) {
      const column = r.pick(columns);
      keys.push({ column: column.name, numeric: column.type === "integer" || column.type === "real" });
    }
    const frame = framed && keys.length > 0 && r.chance(0.6) ? frameClause(r, keys, ORDER_BOUND.has(name)) : { sql: "", rows: false };
    const total = ORDER_BOUND.has(name) || frame.rows;
    const order = keys.map((k) => `${k.column} ${r.pick(["ASC", "DESC"])}${r.chance(0.2) ? ` NULLS ${r.pick(["FIRST", "LAST"])}` : ""}`);
    if (total) order.push(`id ${r.pick(["ASC", "DESC"])}`);
    const orderBy = order.length > 0 ? `ORDER BY ${order.join(", ")} ` : "";
    calls.push(`${call} OVER (${partition}${orderBy}${frame.sql})`.replace(" )", ")"));
  }
  const where = r.chance(0.3) ? ` WHERE id % ${2 + r.int(3)} <> 0` : "";
  return `SELECT id, ${calls.map((c, i) => `${c} AS w${i}`).join(", ")} FROM ${table.name}${where}`;
}

const AGGREGATES = new Set(["count", "sum", "avg", "min", "max", "group_concat"]);

/** A condition on one column of the row (NULL for some rows), for a FILTER. */
function condition(r: Random, columns: TableDef["columns"]): string {
  const column = r.pick(columns);
  if (r.chance(0.15)) return `${column.name} IS ${r.chance(0.5) ? "NOT " : ""}NULL`;
  switch (column.type) {
    case "integer":
    case "real":
      return column.name === "id" ? `id % ${2 + r.int(3)} = ${r.int(2)}` : `${column.name} ${r.pick(["<", ">=", "<>"])} ${r.int(12)}`;
    case "text":
      return `${column.name} ${r.pick(["<", ">="])} '${r.pick(["b", "k", "r"])}'`;
    default:
      return r.chance(0.5) ? column.name : `NOT ${column.name}`;
  }
}

/** A frame in a valid shape: RANGE with offsets only over one numeric key that alone sorts (`total`: `id` will sort too). */
function frameClause(r: Random, keys: { column: string; numeric: boolean }[], total: boolean): { sql: string; rows: boolean } {
  const units = r.pick(["ROWS", "RANGE", "GROUPS"]);
  const offsets = units !== "RANGE" || (keys.length === 1 && keys[0]!.numeric && !total);
  const bound = (side: "start" | "end"): [number, string] => {
    const choices: [number, string][] = [
      [0, "UNBOUNDED PRECEDING"],
      [2, "CURRENT ROW"],
      [4, "UNBOUNDED FOLLOWING"],
    ];
    if (offsets) {
      const n = units === "RANGE" ? r.pick([0, 0.5, 1, 2.25, 5, 10]) : r.int(4);
      choices.push([1, `${n} PRECEDING`], [3, `${n} FOLLOWING`]);
    }
    const allowed = choices.filter(([place]) => (side === "start" ? place !== 4 : place !== 0));
    return r.pick(allowed);
  };
  let start = bound("start");
  let end = bound("end");
  if (start[0] > end[0]) [start, end] = [[2, "CURRENT ROW"], [2, "CURRENT ROW"]];
  const exclude = r.chance(0.25) ? ` EXCLUDE ${r.pick(["NO OTHERS", "CURRENT ROW", "GROUP", "TIES"])}` : "";
  const extent = r.chance(0.2) && end[1] === "CURRENT ROW" ? start[1] : `BETWEEN ${start[1]} AND ${end[1]}`;
  // EXCLUDE takes out the current row's own value or its peers': the same whichever way peers are ordered.
  return { sql: `${units} ${extent}${exclude}`, rows: units === "ROWS" };
}

const tables = dataset();
const { ours, theirs } = engines(tables);

test(`${ONLY === undefined ? COUNT : 1} generated window queries agree with SQLite (WINDOW_SEED=${RUN_SEED})`, () => {
  const indexes = ONLY === undefined ? Array.from({ length: COUNT }, (_, i) => i) : [ONLY];
  for (const i of indexes) {
    const sql = windowQuery(querySeed(RUN_SEED, i), tables);
    const replay = `replay: WINDOW_SEED=${RUN_SEED} WINDOW_QUERY=${i} npm test -- window-differential\n${sql}`;
    let answers: { ours: Value[][]; theirs: Value[][] };
    try {
      answers = run(ours, theirs, { sql, params: [], ordered: false });
    } catch (error) {
      assert.unreachable(`${replay}\nfailed: ${(error as Error).message}`);
      return;
    }
    const show = (rows: Value[][]): string => JSON.stringify(rows.slice(0, 12)) + (rows.length > 12 ? ` … (${rows.length} rows)` : "");
    assert.ok(sameRows(answers.ours, answers.theirs, false), `${replay}\nstoredb ${show(answers.ours)}\nsqlite  ${show(answers.theirs)}`);
  }
});

test(`${ONLY === undefined ? COUNT / 2 : 1} generated window queries whose aggregates may take FILTER (WHERE …) agree with SQLite (WINDOW_SEED=${RUN_SEED})`, () => {
  const indexes = ONLY === undefined ? Array.from({ length: COUNT / 2 }, (_, i) => i) : [ONLY];
  let filtered = 0;
  for (const i of indexes) {
    const sql = windowQuery(querySeed(RUN_SEED + 1, i), tables, true);
    if (sql.includes("FILTER")) filtered++;
    const answers = run(ours, theirs, { sql, params: [], ordered: false });
    const show = (rows: Value[][]): string => JSON.stringify(rows.slice(0, 12)) + (rows.length > 12 ? ` … (${rows.length} rows)` : "");
    assert.ok(sameRows(answers.ours, answers.theirs, false), `replay: WINDOW_SEED=${RUN_SEED} WINDOW_QUERY=${i} npm test -- window-differential (the FILTER run)\n${sql}\nstoredb ${show(answers.ours)}\nsqlite  ${show(answers.theirs)}`);
  }
  if (ONLY === undefined) assert.ok(filtered > indexes.length / 4, `only ${filtered} of ${indexes.length} queries hold a FILTER`);
});

test("windows over a grouping, and rows in the window's order without ORDER BY, as SQLite's", () => {
  for (const sql of [
    "SELECT status, count(*) AS n, rank() OVER (ORDER BY count(*) DESC, status) AS r, sum(sum(qty)) OVER (ORDER BY status) AS running FROM orders GROUP BY status",
    "SELECT city, avg(age) AS a, dense_rank() OVER (ORDER BY avg(age)) AS d FROM users GROUP BY city HAVING count(*) > 1",
    // A window aggregate's FILTER over groups may read their aggregates, as its argument does.
    "SELECT status, count(*) FILTER (WHERE qty > 2) AS big, sum(count(*)) FILTER (WHERE count(*) > 1) OVER (ORDER BY status) AS running FROM orders GROUP BY status",
    "SELECT status, sum(count(*)) FILTER (WHERE status <> 'new' AND max(qty) > 1) OVER (ORDER BY status) AS running FROM orders GROUP BY status",
  ]) {
    const answers = run(ours, theirs, { sql, params: [], ordered: false });
    assert.ok(sameRows(answers.ours, answers.theirs, false), `${sql}\nstoredb ${JSON.stringify(answers.ours)}\nsqlite  ${JSON.stringify(answers.theirs)}`);
  }
  const sql = "SELECT id, row_number() OVER (ORDER BY age, id) AS rn FROM users";
  const answers = run(ours, theirs, { sql, params: [], ordered: true });
  assert.ok(sameRows(answers.ours, answers.theirs, true), `${sql}\nstoredb ${JSON.stringify(answers.ours)}\nsqlite  ${JSON.stringify(answers.theirs)}`);
});

test.run();
