# syntax=docker/dockerfile:1
#
# storedb service image. Three stages:
#   build     — `npm ci` + `npm run build` (esbuild bundle in dist/), then the
#               dev dependencies are pruned away. The default.
#   prebuilt  — takes dist/, console/ and production node_modules from the
#               build context instead, for machines whose builder cannot reach
#               the npm registry (test/container/podman.test.ts builds this
#               way). Select it with
#               --build-arg BUILD_STAGE=prebuilt.
#   runtime   — node, the bundle (`dist/cli.js serve` is the service), the
#               web console's static files (console/, served at /) and
#               production dependencies only (fastify, chevrotain, ajv, pino,
#               commander, papaparse, …); no compiler, no
#               dev dependencies, no shell needed. Runs as a non-root user,
#               writes only to /data (the volume) and /tmp, so it works with a
#               read-only root filesystem.
#
# Behind a TLS-intercepting proxy, pass its CA bundle as a build secret (never
# baked into a layer): --secret id=npm_ca,src="$(npm config get cafile)"
#
# podman/buildah 4.x decide which stages to build before applying ARG
# defaults, so with them pass the stage explicitly:
#   podman build --build-arg BUILD_STAGE=build -t storedb .

ARG NODE_IMAGE=node:22-bookworm-slim
ARG BUILD_STAGE=build

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: nothing the bundle needs has an install script that matters
# (better-sqlite3 is a dev dependency used by benchmarks only).
RUN --mount=type=secret,id=npm_ca \
    if [ -f /run/secrets/npm_ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/npm_ca; fi; \
    npm ci --ignore-scripts --no-audit --no-fund
COPY . .
# /app/data: an empty directory the runtime stage copies to /data with the right owner.
RUN npm run build && npm prune --omit=dev --ignore-scripts --no-audit --no-fund && mkdir -p /app/data

# The context holds package.json, dist/, console/ and the production node_modules/.
# No RUN here (the base may have no shell): WORKDIR makes /app/data, which
# buildah materialises with the next step.
FROM ${NODE_IMAGE} AS prebuilt
WORKDIR /app/data
COPY package.json /app/package.json
WORKDIR /app
COPY node_modules ./node_modules
COPY dist ./dist
COPY console ./console

FROM ${BUILD_STAGE} AS artifacts

FROM ${NODE_IMAGE} AS runtime
ARG STORE_UID=10001
ARG STORE_GID=10001
ENV NODE_ENV=production \
    STORE_DATA_PATH=/data \
    STORE_BIND_ADDRESS=0.0.0.0 \
    STORE_PORT=3000
WORKDIR /app
COPY --from=artifacts /app/package.json ./package.json
COPY --from=artifacts /app/node_modules ./node_modules
COPY --from=artifacts /app/dist ./dist
COPY --from=artifacts /app/console ./console
COPY --from=artifacts --chown=${STORE_UID}:${STORE_GID} /app/data /data
USER ${STORE_UID}:${STORE_GID}
EXPOSE 3000
VOLUME /data
# No curl or shell in the image: node itself asks /health.
HEALTHCHECK --interval=30s --timeout=5s --start-period=5s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.STORE_PORT||3000)+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["node", "dist/cli.js", "serve"]
