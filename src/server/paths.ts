/**
 * The service's route paths, in fastify's syntax (`:name`), in one place:
 * the routes register them and the OpenAPI document describes them.
 */

export const PATHS = {
  health: "/health",
  commands: "/v1/commands",
  databaseCommands: "/v1/databases/:name/commands",
  databases: "/v1/databases",
  openapi: "/v1/openapi.json",
  /** The web console's page, and its other files (`console.ts`). */
  console: "/",
  consoleFile: "/console/:file",
  metrics: "/metrics",
} as const;
