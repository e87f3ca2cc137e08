/**
 * `ConnectionError`: the client got no storedb answer to its command.
 *
 * Kept apart from `StoreError` on purpose: a `StoreError` means the database
 * decided (refused the command, or failed running it), while this means the
 * client cannot tell what happened — the server was not reached, did not
 * answer in time, or answered with something that is not storedb's. A
 * caller retries or reports these differently, so they must not share codes.
 */

export type ConnectionErrorCode =
  /** No connection could be made, or it broke before an answer came. */
  | "connection_failed"
  /** No answer within the client's timeout; a write may or may not have happened. */
  | "timeout"
  /** An answer that is not storedb's (not JSON, no known error code). */
  | "unexpected_response";

export class ConnectionError extends Error {
  readonly code: ConnectionErrorCode;
  /** The HTTP status, when an answer came at all. */
  readonly status?: number;

  constructor(code: ConnectionErrorCode, message: string, options: { readonly status?: number; readonly cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ConnectionError";
    this.code = code;
    if (options.status !== undefined) this.status = options.status;
  }
}
