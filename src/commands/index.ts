/** The wire format: command types, their JSON Schemas, and strict validation (CONTRACT §1, §4, §5). */
export type * from "./types.js";
export type * from "./results.js";
export { commandBodySchema, commandSchema, databaseNameSchema, databaseParamsSchema, envelopeSchema, expressionSchema, tableSchemaSchema, definitions } from "./schema.js";
export { assertDatabaseName, isValidIdentifier } from "./names.js";
export {
  MAX_EXPRESSION_DEPTH,
  expressionProblem,
  parseCommand,
  parseCommandBody,
  parseEnvelope,
} from "./validate.js";
