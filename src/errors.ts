/**
 * One error type for the whole engine and service.
 *
 * Every failure carries a stable `code` from CONTRACT §7; the HTTP status and
 * the fixed title are derived from the code here, so the server maps errors
 * to problem details in exactly one place and no layer invents statuses.
 */

export type ErrorCode =
  | "invalid_json"
  | "invalid_request"
  | "invalid_name"
  | "sql_syntax_error"
  | "sql_error"
  | "unknown_column"
  | "ambiguous_column"
  | "type_mismatch"
  | "unauthorized"
  | "database_not_found"
  | "table_not_found"
  | "not_found"
  | "method_not_allowed"
  | "table_exists"
  | "constraint_violation"
  | "payload_too_large"
  | "unsupported_media_type"
  | "validation_failed"
  | "database_locked"
  | "internal_error"
  | "storage_error"
  | "database_corrupt"
  | "shutting_down"
  | "insufficient_storage";

const CODES: Record<ErrorCode, readonly [status: number, title: string]> = {
  invalid_json: [400, "Invalid JSON"],
  invalid_request: [400, "Invalid request"],
  invalid_name: [400, "Invalid name"],
  sql_syntax_error: [400, "SQL syntax error"],
  sql_error: [400, "SQL error"],
  unknown_column: [400, "Unknown column"],
  ambiguous_column: [400, "Ambiguous column"],
  type_mismatch: [400, "Type mismatch"],
  unauthorized: [401, "Unauthorized"],
  database_not_found: [404, "Database not found"],
  table_not_found: [404, "Table not found"],
  not_found: [404, "Not found"],
  method_not_allowed: [405, "Method not allowed"],
  table_exists: [409, "Table exists"],
  constraint_violation: [409, "Constraint violation"],
  payload_too_large: [413, "Payload too large"],
  unsupported_media_type: [415, "Unsupported media type"],
  validation_failed: [422, "Validation failed"],
  database_locked: [423, "Database locked"],
  internal_error: [500, "Internal error"],
  storage_error: [500, "Storage error"],
  database_corrupt: [500, "Database corrupt"],
  shutting_down: [503, "Shutting down"],
  insufficient_storage: [507, "Insufficient storage"],
};

/** Every error code, in the table's order (by status). */
export const ERROR_CODES = Object.keys(CODES) as readonly ErrorCode[];

export function statusOf(code: ErrorCode): number {
  return CODES[code][0];
}

export function titleOf(code: ErrorCode): string {
  return CODES[code][1];
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && Object.prototype.hasOwnProperty.call(CODES, value);
}

/** Where a SQL error starts: 1-based line and column, 0-based offset, in UTF-16 code units. */
export interface SourcePosition {
  readonly line: number;
  readonly column: number;
  readonly offset: number;
}

/** Codes of one entry in an `errors` list (CONTRACT §7). */
export const PROBLEM_CODES = [
  "required",
  "type",
  "unknown_column",
  "duplicate_key",
  "unique",
  "foreign_key",
  "check",
  "computed_write",
  "json",
  "checksum",
  "format",
  "journal",
] as const;

export type ProblemCode = (typeof PROBLEM_CODES)[number];

/** One entry of an `errors` list: a row-level or file-level problem. `row` is 0-based. */
export interface ProblemEntry {
  readonly table?: string;
  readonly row?: number;
  readonly column?: string;
  readonly code: ProblemCode;
  readonly message: string;
}

export interface StoreErrorOptions {
  readonly position?: SourcePosition;
  readonly expected?: readonly string[];
  readonly errors?: readonly ProblemEntry[];
  readonly cause?: unknown;
}

/** How a transaction's failing step is named in its error's detail. */
function stepDetail(step: number, message: string): string {
  return `Transaction step ${step}: ${message}`;
}

/** The base error: a stable code, a message for people (`detail`), optional extras. */
export class StoreError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly title: string;
  readonly position?: SourcePosition;
  readonly expected?: readonly string[];
  readonly errors?: readonly ProblemEntry[];
  /** The 0-based index of the transaction step that failed (CONTRACT §11), when the error ended a transaction. */
  readonly step?: number;

  constructor(code: ErrorCode, message: string, options: StoreErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.status = statusOf(code);
    this.title = titleOf(code);
    if (options.position) this.position = options.position;
    if (options.expected) this.expected = options.expected;
    if (options.errors) this.errors = options.errors;
  }

  /** RFC 9457 problem details body (without `type`/`instance`: the code identifies the problem). */
  toProblem(): Problem {
    const problem: Problem = { status: this.status, code: this.code, title: this.title, detail: this.message };
    if (this.position) problem.position = this.position;
    if (this.expected) problem.expected = this.expected;
    if (this.errors) problem.errors = this.errors;
    if (this.step !== undefined) problem.step = this.step;
    return problem;
  }

  /** This error pointing at `position` in the SQL text: a copy of the same class and code. */
  at(position: SourcePosition): this {
    const copy = this.copy();
    Object.defineProperty(copy, "position", { value: position, enumerable: true, configurable: true });
    return copy;
  }

  private copy(): this {
    const copy = Object.create(Object.getPrototypeOf(this) as object) as this;
    for (const key of Reflect.ownKeys(this)) Object.defineProperty(copy, key, Object.getOwnPropertyDescriptor(this, key) as PropertyDescriptor);
    return copy;
  }

  /**
   * This error as the failure of step `step` of a transaction: a copy of the
   * same class and code whose detail and problem name the step.
   */
  atStep(step: number): this {
    const copy = this.copy();
    Object.defineProperty(copy, "message", { value: stepDetail(step, this.message), writable: true, configurable: true });
    Object.defineProperty(copy, "step", { value: step, enumerable: true, configurable: true });
    return copy;
  }
}

export interface Problem {
  status: number;
  code: ErrorCode;
  title: string;
  detail: string;
  position?: SourcePosition;
  expected?: readonly string[];
  errors?: readonly ProblemEntry[];
  /** A transaction's failing step (0-based). */
  step?: number;
}

/** SQL text that does not lex, parse, or bind (`sql_syntax_error`, `sql_error`). */
export class SqlError extends StoreError {
  constructor(code: "sql_syntax_error" | "sql_error", message: string, options: StoreErrorOptions = {}) {
    super(code, message, options);
  }
}

/** Rows that break the schema: 422 `validation_failed` with an `errors` list. */
export class ValidationError extends StoreError {
  constructor(message: string, errors: readonly ProblemEntry[]) {
    super("validation_failed", message, { errors });
  }
}

/** Keys that collide or dangle: 409 `constraint_violation` with an `errors` list. */
export class ConstraintError extends StoreError {
  constructor(message: string, errors: readonly ProblemEntry[]) {
    super("constraint_violation", message, { errors });
  }
}

/** The filesystem failed us: 500 `storage_error` or 507 `insufficient_storage`. */
export class StorageError extends StoreError {
  constructor(code: "storage_error" | "insufficient_storage", message: string, cause?: unknown) {
    super(code, message, { cause });
  }
}

export function assertNever(value: never, what = "value"): never {
  throw new StoreError("internal_error", `Unexpected ${what}: ${JSON.stringify(value)}`);
}
