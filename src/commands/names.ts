/**
 * The name rules of CONTRACT §1, in one place: the patterns the JSON Schemas
 * carry, the checks SQL lowering and storage call directly, and the sentence
 * that explains a rule in an error. Kept apart from the Ajv validator so code
 * that only needs a name check does not compile the schemas.
 */

import { StoreError } from "../errors.js";

const IDENT = "[A-Za-z_][A-Za-z0-9_]{0,63}";
const NOT_PROTO = "(?!__proto__(?:$|\\.))";
const DEVICE = "(?:con|nul|aux|prn|com[1-9]|lpt[1-9])";

/** Table and column names: ASCII letters, digits and `_`, not starting with a digit, at most 64, not `__proto__`. */
export const IDENTIFIER_PATTERN = `^${NOT_PROTO}${IDENT}$`;
/** A column reference: `col` or `source.col`. */
export const QUALIFIED_NAME_PATTERN = `^${NOT_PROTO}${IDENT}(?:\\.${NOT_PROTO}${IDENT})?$`;
/** A select list's name: a column reference, or `source.*` for every column of one source. */
export const SELECT_NAME_PATTERN = `^${NOT_PROTO}${IDENT}(?:\\.(?:${NOT_PROTO}${IDENT}|\\*))?$`;
/** Database names: lower case (no collisions on case-insensitive mounts), never a Windows device name. */
export const DATABASE_NAME_PATTERN = `^(?!${DEVICE}$)[a-z0-9][a-z0-9_-]{0,63}$`;

export const IDENTIFIER_RULE = "a name starts with a letter or _, has only letters, digits and _, at most 64 characters, and is not __proto__";
export const DATABASE_RULE =
  "a database name is 1-64 lower-case letters, digits, _ or -, starts with a letter or digit, and is not a device name (con, nul, aux, prn, com1-9, lpt1-9)";

const IDENTIFIER = new RegExp(IDENTIFIER_PATTERN);
const DATABASE_NAME = new RegExp(DATABASE_NAME_PATTERN);

/** True for a valid table or column name (CONTRACT §1). */
export function isValidIdentifier(name: string): boolean {
  return IDENTIFIER.test(name);
}

/** Returns `name` if it is a valid database name, else throws 400 `invalid_name`. */
export function assertDatabaseName(name: unknown): string {
  if (typeof name === "string" && DATABASE_NAME.test(name)) return name;
  throw new StoreError("invalid_name", `database: invalid name ${quote(name)}: ${DATABASE_RULE}`);
}

/** A value for a message: JSON, cut short so a hostile input cannot blow up the message. */
export function quote(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(typeof value);
  }
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
