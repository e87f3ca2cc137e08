/**
 * Turns a server's answer into what the library would have thrown.
 *
 * The server answers every error as problem details (CONTRACT §7); the
 * client rebuilds the error class the engine uses for that code (`SqlError`,
 * `ValidationError`, `ConstraintError`, `StorageError`, else `StoreError`),
 * so `code`, `status`, `message` (the problem's `detail`), `position`,
 * `expected`, `errors` and a transaction's failing `step` read the same whether the database is in this
 * process or behind a server. An answer that is not storedb's problem shape
 * (a proxy's HTML page, a code this client does not know) is a
 * `ConnectionError`, never guessed into a `StoreError`.
 */

import { ConstraintError, SqlError, StorageError, StoreError, ValidationError, isErrorCode } from "../errors.js";
import type { ErrorCode, ProblemEntry, SourcePosition } from "../errors.js";
import { ConnectionError } from "./connection-error.js";

/** The members of a problem details body the error classes carry. */
export interface ProblemBody {
  readonly code?: unknown;
  readonly detail?: unknown;
  readonly position?: SourcePosition;
  readonly expected?: readonly string[];
  readonly errors?: readonly ProblemEntry[];
  readonly step?: unknown;
}

/** The error a non-2xx answer stands for. `text` is the body as received. */
export function errorFromAnswer(status: number, text: string): Error {
  let body: ProblemBody;
  try {
    body = JSON.parse(text) as ProblemBody;
  } catch {
    return new ConnectionError("unexpected_response", `The server answered ${status} with a body that is not JSON.`, { status });
  }
  const code = body?.code;
  if (!isErrorCode(code)) {
    return new ConnectionError("unexpected_response", `The server answered ${status} with ${typeof code === "string" ? `an unknown code "${code}"` : "no error code"}.`, { status });
  }
  return errorFromProblem(body, code);
}

/** The library's error for a problem whose `code` is known: the class the engine throws for that code, with the transaction step it names. */
export function errorFromProblem(body: ProblemBody, code: ErrorCode): StoreError {
  const error = errorOfClass(body, code);
  // The detail already names the step (the server's atStep wrote it), so only the field is set.
  if (typeof body.step === "number") Object.defineProperty(error, "step", { value: body.step, enumerable: true, configurable: true });
  return error;
}

function errorOfClass(body: ProblemBody, code: ErrorCode): StoreError {
  const detail = typeof body.detail === "string" ? body.detail : "";
  switch (code) {
    case "sql_syntax_error":
    case "sql_error":
      return new SqlError(code, detail, options(body));
    case "validation_failed":
      return new ValidationError(detail, body.errors ?? []);
    case "constraint_violation":
      return new ConstraintError(detail, body.errors ?? []);
    case "storage_error":
    case "insufficient_storage":
      return new StorageError(code, detail);
    default:
      return new StoreError(code, detail, options(body));
  }
}

function options(body: ProblemBody): { position?: SourcePosition; expected?: readonly string[]; errors?: readonly ProblemEntry[] } {
  const result: { position?: SourcePosition; expected?: readonly string[]; errors?: readonly ProblemEntry[] } = {};
  if (body.position) result.position = body.position;
  if (body.expected) result.expected = body.expected;
  if (body.errors) result.errors = body.errors;
  return result;
}
