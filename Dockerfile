# slipline's image: built in one stage, run from a second that holds only the production dependencies and
# the compiled bot. The Node version is pinned (the same as .nvmrc); test/deploy/files.test.ts checks this
# file against the code, and the runtime stage's commands run outside a container in the test suite.
ARG NODE_IMAGE=node:24.21.0-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
# --workspaces=false: the workspaces' dependencies (the sandbox's better-sqlite3, a native addon the slim image cannot
# compile) are never installed, even when a build context brings the workspaces in.
RUN npm ci --workspaces=false --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --workspaces=false --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
# The image's own unprivileged user: the bot needs no root and writes nothing to disk.
USER node
ENV PORT=3000
EXPOSE 3000
# Liveness only: readiness (/readyz) is for load balancers, which must not restart a degraded instance.
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM reaches node itself (no shell in between), which drains and finishes the accepted events.
CMD ["node", "dist/main.js"]
