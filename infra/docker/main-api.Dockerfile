# syntax=docker/dockerfile:1
# Image of @cloudcost/main-api. Build from the repository root (compose does this):
#   docker build -f infra/docker/main-api.Dockerfile -t cloudcost/main-api .
# main-api.Dockerfile.dockerignore (next to this file; BuildKit reads it) keeps node_modules, dist,
# .data and generated code of the host out of the context.

ARG NODE_IMAGE=node:20-bookworm-slim

# ---- base: Node 20 + pnpm 10 (corepack cannot verify pnpm on registries without signatures) ----
FROM ${NODE_IMAGE} AS base
ENV TURBO_TELEMETRY_DISABLED=1 \
    CHECKPOINT_DISABLE=1
RUN npm install -g pnpm@10.34.9 && npm cache clean --force
WORKDIR /repo

# ---- prune: only main-api and the workspace packages it depends on ----
FROM base AS prune
COPY . .
# turbo comes from the workspace (root devDependency, version from the catalog): install the root
# project alone, then write out/json (manifests + pruned lockfile) and out/full (sources).
RUN pnpm install --frozen-lockfile --filter cloud-cost-platform \
 && pnpm exec turbo prune @cloudcost/main-api --docker

# ---- build: install from the pruned manifests (a cached layer until a manifest or the lock changes),
# then compile the workspace packages and the app ----
FROM base AS build
COPY --from=prune /repo/out/json/ ./
RUN pnpm install --frozen-lockfile
COPY --from=prune /repo/out/full/ ./
# turbo prune copies package folders, not the root tsconfig they extend.
COPY --from=prune /repo/tsconfig.base.json ./
# prisma generate runs without the native schema engine (prisma.config.ts points it at a stub);
# the generated client (src/generated/prisma) is compiled by tsc into dist/.
RUN pnpm exec turbo run build --filter=@cloudcost/main-api
# Production dependencies only. --legacy: the workspace does not use inject-workspace-packages, so
# workspace packages are copied in (their package.json "files"/dist) rather than injected.
RUN pnpm deploy --filter=@cloudcost/main-api --prod --legacy /out

# ---- runtime ----
FROM ${NODE_IMAGE} AS runtime
# jemalloc instead of glibc's malloc: under load glibc's main arena fragments and RSS grows far past
# the live data (2-core mixed load: pricing API 300 -> 500+ MiB with a 54 MiB live heap, over the
# manifests' 512Mi limit; with jemalloc it stayed at 220-245 MiB). Linked at one path for either
# architecture.
RUN apt-get update \
 && apt-get install -y --no-install-recommends libjemalloc2 \
 && rm -rf /var/lib/apt/lists/* \
 && ln -s "$(find /usr/lib -name libjemalloc.so.2 | head -n 1)" /usr/local/lib/libjemalloc.so.2
ENV NODE_ENV=production \
    LD_PRELOAD=/usr/local/lib/libjemalloc.so.2 \
    MAIN_API_HOST=0.0.0.0 \
    MAIN_API_PORT=3000
WORKDIR /app
# Files stay owned by root (read-only for the service user). No Prisma engine binary is needed:
# queries go through driver adapters (@prisma/adapter-pg, or PGlite for local use) and migrations
# are applied at start by our own runner (@cloudcost/db), not by the Prisma CLI.
COPY --from=build /out/package.json ./package.json
COPY --from=build /out/node_modules ./node_modules
COPY --from=build /repo/apps/main-api/dist ./dist
# The whole prisma/ folder: migrations (applied at start; src/db.ts resolves them as
# ../prisma/migrations from dist/) and any committed seed data.
COPY --from=build /repo/apps/main-api/prisma ./prisma
USER node
EXPOSE 3000
# Liveness only (/healthz); readiness (/readyz: database + migrations) is the orchestrator's probe.
# Slim images have no curl: Node's fetch does the request.
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.MAIN_API_PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# One GC thread: parallel GC helpers compete for the few cores a service gets; a larger young
# generation: shorter scavenges under ingest (docs/performance.md, "Process flags and jemalloc"). Kept equal to infra/node-flags.json.
CMD ["node", "--single-threaded-gc", "--max-semi-space-size=64", "dist/server.js"]
