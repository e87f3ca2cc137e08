/**
 * Runs a script's statements one by one on a target, printing each result
 * as it comes, for `storedb sql` and the shell alike.
 *
 * A statement runs as one `sql` command, as any client would send it. A
 * `BEGIN` opens a transaction: each statement after it is checked for
 * syntax at once (the parser, in this process — a malformed one is refused
 * then, not at COMMIT) and queued, SELECTs too; `COMMIT` sends the queue as
 * ONE `transaction` command (CONTRACT §11: all or nothing, durable once,
 * later steps see earlier ones' writes), then prints each statement's
 * result in order; `ROLLBACK` drops the queue. The wire has only that batch
 * form, so a data directory and a server (`--url`) behave the same: nothing
 * is held open on the database between statements, and nothing of a
 * transaction reaches it before COMMIT. A failing step names itself (the
 * problem's `step`), and the refusal carries that step's statement, so its
 * position is marked in the script.
 */

import { MAX_TRANSACTION_STEPS } from "../../commands/schema.js";
import type { Value } from "../../commands/types.js";
import { SqlError, StoreError, type SourcePosition } from "../../errors.js";
import { checkStdout, out, OutputClosed } from "../io.js";
import { renderResult, type OutputMode } from "../render/result.js";
import type { Target } from "../target.js";
import { transactionControl } from "./control.js";
import type { ScriptStatement } from "./statements.js";

export interface RunSettings {
  readonly mode: OutputMode;
  /** Explain each statement (show its plan) instead of running it: at once, also inside a transaction, since explaining runs nothing. */
  readonly explain: boolean;
}

/** A statement refused, by the database or by the tool (a transaction statement out of place), with the statement it is about. */
export class Refusal extends Error {
  constructor(
    readonly error: unknown,
    readonly statement: ScriptStatement,
    /** The statements of a transaction that were not applied because of it. */
    readonly discarded?: number,
  ) {
    super(error instanceof Error ? error.message : String(error));
    this.name = "Refusal";
  }
}

/** What a statement did, for the shell's notes. */
export type Ran = { readonly kind: "ran" | "queued" | "begin" | "commit" } | { readonly kind: "rollback"; readonly discarded: number };

/** The statement's own start: where the tool's refusals of a whole statement point. */
const START: SourcePosition = { line: 1, column: 1, offset: 0 };

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * A server refuses a body over its limit (`STORE_MAX_BODY_BYTES`), and a
 * transaction is one body: its refusal says so, and what to do — a data
 * directory has no such limit, so the same script runs there.
 */
function tooLarge(error: unknown, statements: number): unknown {
  if (!(error instanceof StoreError) || error.code !== "payload_too_large") return error;
  const limit = /limit of (\d+) bytes/.exec(error.message)?.[1];
  return new StoreError("payload_too_large", `The transaction's ${plural(statements, "statement")} ${statements === 1 ? "exceeds" : "exceed"} the server's body limit${limit === undefined ? "" : ` of ${limit} bytes`}: split it into smaller transactions, or raise the limit (the server's STORE_MAX_BODY_BYTES)`, { cause: error });
}

export class ScriptRunner {
  /** The open transaction's statements, and its BEGIN; none outside a transaction. */
  #queue: ScriptStatement[] | undefined;
  #begin: ScriptStatement | undefined;

  constructor(
    private readonly target: Target,
    private readonly settings: RunSettings,
  ) {}

  /** How many statements the open transaction holds; undefined when none is open. */
  get queued(): number | undefined {
    return this.#queue?.length;
  }

  /** Runs, queues or applies `statement`; throws a `Refusal` when it is refused. `params` only for a statement run alone. */
  async run(statement: ScriptStatement, params: readonly Value[] = []): Promise<Ran> {
    this.#stopIfUnread();
    let control;
    try {
      control = transactionControl(statement.text);
    } catch (error) {
      throw new Refusal(error, statement);
    }
    const queue = this.#queue;
    switch (control) {
      case "begin":
        if (queue !== undefined) throw new Refusal(new SqlError("sql_error", `A transaction is already open (BEGIN on line ${this.#begin?.line ?? 1}) and transactions do not nest: this BEGIN is refused`, { position: START }), statement);
        this.#queue = [];
        this.#begin = statement;
        return { kind: "begin" };
      case "rollback":
        if (queue === undefined) throw new Refusal(new SqlError("sql_error", "No transaction is open: ROLLBACK ends one begun with BEGIN", { position: START }), statement);
        this.#queue = undefined;
        return { kind: "rollback", discarded: queue.length };
      case "commit":
        if (queue === undefined) throw new Refusal(new SqlError("sql_error", "No transaction is open: COMMIT ends one begun with BEGIN", { position: START }), statement);
        this.#queue = undefined;
        await this.#commit(queue);
        return { kind: "commit" };
      case undefined:
        break;
    }
    if (queue !== undefined && !this.settings.explain) {
      await this.#check(statement);
      if (queue.length >= MAX_TRANSACTION_STEPS) {
        const error = new SqlError("sql_error", `A transaction holds at most ${MAX_TRANSACTION_STEPS.toLocaleString("en")} statements (the transaction command's limit): COMMIT this one and BEGIN another`, { position: START });
        throw new Refusal(error, statement);
      }
      queue.push(statement);
      return { kind: "queued" };
    }
    let result;
    try {
      result = this.settings.explain
        ? await this.target.db.execute({ kind: "explain", command: { kind: "sql", sql: statement.text, params } })
        : await this.target.db.sql(statement.text, params);
    } catch (error) {
      throw new Refusal(error, statement);
    }
    await out(renderResult(result, this.settings.mode));
    return { kind: "ran" };
  }

  /**
   * At the end of the script: an open transaction is an error, its
   * statements not applied — a script that forgot its COMMIT must not look
   * as if it had worked.
   */
  finish(): void {
    // The script ran whole, but its last results were not all read: not a success either.
    this.#stopIfUnread();
    const queue = this.#queue;
    const begin = this.#begin;
    if (queue === undefined || begin === undefined) return;
    this.#queue = undefined;
    const n = queue.length;
    const error = new SqlError("sql_error", `The script ended inside a transaction: its ${plural(n, "statement")} ${n === 1 ? "was" : "were"} not applied (end it with COMMIT)`, { position: START });
    throw new Refusal(error, begin);
  }

  /** Drops an open transaction (the shell left with one open); how many statements it held. */
  discard(): number {
    const n = this.#queue?.length ?? 0;
    this.#queue = undefined;
    return n;
  }

  /** Nobody reads the results any more (stdout closed): nothing further runs, and an open transaction is dropped. */
  #stopIfUnread(): void {
    try {
      checkStdout();
    } catch (error) {
      const open = this.#queue?.length;
      this.#queue = undefined;
      throw open === undefined ? error : new OutputClosed(open);
    }
  }

  /** A statement queued in a transaction must at least parse: checked now, where it is typed. */
  async #check(statement: ScriptStatement): Promise<void> {
    const { parseSql } = await import("../../parser/index.js");
    try {
      parseSql(statement.text);
    } catch (error) {
      throw new Refusal(error, statement);
    }
  }

  async #commit(queue: readonly ScriptStatement[]): Promise<void> {
    if (queue.length > 0) {
      let result;
      try {
        result = await this.target.run({ kind: "transaction", commands: queue.map((s) => ({ kind: "sql", sql: s.text, params: [] })) });
      } catch (error) {
        const step = error instanceof StoreError ? error.step : undefined;
        throw new Refusal(tooLarge(error, queue.length), (step === undefined ? undefined : queue[step]) ?? (this.#begin as ScriptStatement), queue.length);
      }
      if (result.kind === "transaction") for (const step of result.results) await out(renderResult(step, this.settings.mode));
    }
    if (this.settings.mode === "table") await out(`committed: ${plural(queue.length, "statement")}\n`);
  }
}
