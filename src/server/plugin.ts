/**
 * Marks a plugin as applying to the instance that registers it, the way
 * fastify-plugin does (fastify's own `skip-override` symbol), so the hooks
 * and handlers of auth, errors and drain cover every route, including the
 * not-found handler, without an extra dependency.
 */

import type { FastifyPluginCallback } from "fastify";

export function rootPlugin<Options extends Record<string, unknown>>(
  plugin: FastifyPluginCallback<Options>,
): FastifyPluginCallback<Options> {
  Object.defineProperty(plugin, Symbol.for("skip-override"), { value: true });
  return plugin;
}
