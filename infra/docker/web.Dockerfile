# syntax=docker/dockerfile:1
# Image of the console (@cloudcost/web): its static build behind nginx. Build from the repository root:
#   docker build -f infra/docker/web.Dockerfile -t cloudcost/web .
# At run time WEB_CONFIG_JSON is the console's /config.json (default: the development sign-in), e.g.
#   {"auth":{"mode":"oidc","authority":"https://idp.example","client_id":"console"}}

ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS base
ENV TURBO_TELEMETRY_DISABLED=1
RUN npm install -g pnpm@10.34.9 && npm cache clean --force
WORKDIR /repo

# ---- prune: only the console and the workspace packages it imports (contracts) ----
FROM base AS prune
COPY . .
RUN pnpm install --frozen-lockfile --filter cloud-cost-platform \
 && pnpm exec turbo prune @cloudcost/web --docker

FROM base AS build
COPY --from=prune /repo/out/json/ ./
RUN pnpm install --frozen-lockfile
COPY --from=prune /repo/out/full/ ./
COPY --from=prune /repo/tsconfig.base.json ./
RUN pnpm exec turbo run build --filter=@cloudcost/web

# ---- runtime: static files only, nginx as a non-root user (uid 101) on port 8080 ----
FROM nginxinc/nginx-unprivileged:1.27-alpine AS runtime
ENV WEB_PORT=8080 \
    WEB_CONFIG_JSON='{"auth":{"mode":"dev"}}' \
    NGINX_ENVSUBST_FILTER='^WEB_'
COPY infra/web/default.conf.template /etc/nginx/templates/default.conf.template
COPY --from=build /repo/apps/web/dist/ /usr/share/nginx/html/
USER 101
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --retries=3 CMD wget -q -O /dev/null http://127.0.0.1:8080/healthz || exit 1
