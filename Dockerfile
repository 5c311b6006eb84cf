# syntax=docker/dockerfile:1
# Agent Webhook Service: one image for the app processes and the standalone workers
# (docs/deploy.md, "At scale"). Build: `docker build -t agent-webhook-service .`
#   app:    docker run -p 3000:3000 -e DATABASE_URL=... -e AUTH_SECRET=... -e RUN_WORKER=false agent-webhook-service
#   worker: docker run -e DATABASE_URL=... -e WORKER_PORT=9464 agent-webhook-service node dist/worker.mjs
# Both bundles (dist/server.mjs, dist/worker.mjs) run on plain Node: the runtime image keeps only the
# production dependencies (no tsx, TypeScript, Prisma CLI or build tools).

FROM node:20-bookworm-slim AS build
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1
# Dependencies first (a layer reused while package*.json do not change); stubs/ holds a local
# package that package.json points at (file:).
COPY package.json package-lock.json ./
COPY stubs ./stubs
RUN npm ci --no-audit --no-fund
COPY . .
# Prisma client (generated), Next build in .next, dist/server.mjs and dist/worker.mjs; then the
# development dependencies and the build cache go.
RUN npm run build \
 && npm prune --omit=dev --no-audit --no-fund \
 && rm -rf .next/cache

FROM node:20-bookworm-slim AS runtime
WORKDIR /app
ENV NODE_ENV=production \
    NEXT_TELEMETRY_DISABLED=1 \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/app/data
# What `node dist/server.mjs` and `node dist/worker.mjs` read at run time: the bundles, Next's build
# and config, the production dependencies, and the SQL migrations (applied at start, from the
# working directory).
COPY --from=build /app/package.json /app/next.config.js ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/.next ./.next
COPY --from=build /app/dist ./dist
COPY --from=build /app/prisma/migrations ./prisma/migrations
# DATA_DIR: the embedded database and local file storage (unused with DATABASE_URL and STORAGE_URL=s3://...).
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 3000
# Liveness: /api/health answers 200 while the process reaches its database.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT || 3000}/api/health`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM (docker stop) drains: give the container more than SHUTDOWN_TIMEOUT_MS (25 s), e.g.
# `docker stop -t 35` or compose's stop_grace_period.
STOPSIGNAL SIGTERM
CMD ["node", "dist/server.mjs"]
