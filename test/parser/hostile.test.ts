/**
 * Hostile input ends in a clean SqlError or a result, quickly: never a stack
 * overflow (RangeError), a crash or a hang.
 */
import { spawnSync } from "node:child_process";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { SqlError } from "../../src/errors.js";
import { parseSql } from "../../src/parser/index.js";

function outcome(sql: string): { error?: SqlError; ms: number } {
  const start = performance.now();
  try {
    parseSql(sql);
    return { ms: performance.now() - start };
  } catch (error) {
    if (!(error instanceof SqlError)) throw error;
    return { error, ms: performance.now() - start };
  }
}

const where = (expr: string) => `SELECT a FROM t WHERE ${expr}`;

test("1 MB of '(' is sql_error (nesting), not a stack overflow", () => {
  const { error, ms } = outcome("(".repeat(1 << 20));
  assert.is(error?.code, "sql_error");
  assert.match(error!.message, "nested deeper than 256");
  assert.equal(error!.position, { line: 1, column: 257, offset: 256 });
  assert.ok(ms < 5000, `${ms} ms`);
});

test("1 MB of '(' inside a WHERE is sql_error too", () => {
  assert.is(outcome(where("(".repeat(1 << 20))).error?.code, "sql_error");
});

test("100,000 NOTs are sql_error (nesting)", () => {
  const { error } = outcome(where(`${"NOT ".repeat(100_000)}a`));
  assert.is(error?.code, "sql_error");
});

test("nesting of exactly 256 parses; 257 does not", () => {
  const parens = (depth: number) => where(`${"(".repeat(depth)}a = 1${")".repeat(depth)}`);
  assert.is(outcome(parens(256)).error, undefined);
  assert.is(outcome(parens(257)).error?.code, "sql_error");
  const nots = (depth: number) => where(`${"NOT ".repeat(depth)}a`);
  assert.is(outcome(nots(256)).error, undefined);
  assert.is(outcome(nots(257)).error?.code, "sql_error");
  const mixed = (depth: number) => where(`${"NOT (".repeat(depth / 2)}a${")".repeat(depth / 2)}`);
  assert.is(outcome(mixed(256)).error, undefined);
  assert.is(outcome(mixed(258)).error?.code, "sql_error");
});

/**
 * In a fresh process, where none of the parser is optimized yet and each of
 * its frames is larger: this suite's own process has parsed thousands of
 * statements by the time it gets here. 256 parentheses (and NOT-parenthesis
 * pairs) must parse there too; nesting that runs out of stack sooner is a
 * sql_error, never a RangeError.
 */
test("in a fresh process: 256 levels of parentheses parse; deeper calls and CASEs are a sql_error at worst", () => {
  const parser = new URL("../../src/parser/index.ts", import.meta.url).href;
  const script = `
    const { parseSql } = await import(${JSON.stringify(parser)});
    const d = 256;
    const shapes = {
      parens: "SELECT a FROM t WHERE " + "(".repeat(d) + "a = 1" + ")".repeat(d),
      mixed: "SELECT a FROM t WHERE " + "NOT (".repeat(d / 2) + "a = 1" + ")".repeat(d / 2),
      calls: "SELECT " + "abs(".repeat(d - 1) + "a" + ")".repeat(d - 1) + " AS x FROM t",
      cases: "SELECT " + "CASE WHEN a = 1 THEN ".repeat(d - 1) + "a" + " END".repeat(d - 1) + " AS x FROM t",
    };
    const out = {};
    for (const [name, sql] of Object.entries(shapes)) {
      try { parseSql(sql); out[name] = "parsed"; } catch (e) { out[name] = e.code ?? e.constructor.name; }
    }
    console.log(JSON.stringify(out));`;
  const run = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { encoding: "utf8" });
  assert.is(run.status, 0, run.stderr);
  const out = JSON.parse(run.stdout) as Record<string, string>;
  assert.is(out.parens, "parsed");
  assert.is(out.mixed, "parsed");
  for (const shape of ["calls", "cases"]) assert.ok(out[shape] === "parsed" || out[shape] === "sql_error", `${shape}: ${out[shape]}`);
});

test("NOTs and parentheses that close do not add up", () => {
  const siblings = Array.from({ length: 1000 }, () => "NOT (NOT a)").join(" AND ");
  assert.is(outcome(where(siblings)).error, undefined);
  const columns = Array.from({ length: 1000 }, (_, i) => `c${i} INT NOT NULL`).join(", ");
  assert.is(outcome(`CREATE TABLE IF NOT EXISTS t (${columns})`).error, undefined);
  const isNotNull = Array.from({ length: 1000 }, (_, i) => `c${i} IS NOT NULL`).join(" AND ");
  assert.is(outcome(where(isNotNull)).error, undefined);
});

test("a 10,000-term OR chain parses into one flat OR", () => {
  const ast = parseSql(where(Array.from({ length: 10_000 }, (_, i) => `a = ${i}`).join(" OR ")));
  assert.is(ast.kind === "select" && ast.where?.kind === "or" && ast.where.operands.length, 10_000);
});

test("10,000 placeholders are numbered 0..9999", () => {
  const ast = parseSql(`INSERT INTO t (a) VALUES ${Array.from({ length: 10_000 }, () => "(?)").join(", ")}`);
  assert.is(ast.kind, "insert");
  if (ast.kind !== "insert") return;
  assert.is(ast.rows.length, 10_000);
  assert.equal(ast.rows[9_999], [{ kind: "param", index: 9_999, span: ast.rows[9_999]![0]!.span }]);
});

test("a syntax error late in a huge statement is reported without replaying the grammar", () => {
  const { error, ms } = outcome(where(`${Array.from({ length: 20_000 }, (_, i) => `a = ${i}`).join(" OR ")} garbage`));
  assert.is(error?.code, "sql_syntax_error");
  assert.equal(error?.expected, ["EOF"]);
  assert.ok(ms < 5000, `${ms} ms`);
});

test("a megabyte string literal and a megabyte identifier are fine", () => {
  assert.is(outcome(where(`a = '${"x".repeat(1 << 20)}'`)).error, undefined);
  assert.is(outcome(where(`${"b".repeat(1 << 20)} = 1`)).error, undefined);
});

test("control characters and lone surrogates are clean lexing errors", () => {
  for (const bad of ["\u0000", "\u0007", "\ud800", "\udfff", "\u2028"]) {
    const { error } = outcome(where(`a = ${bad}`));
    assert.is(error?.code, "sql_syntax_error", JSON.stringify(bad));
  }
});

test.run();
