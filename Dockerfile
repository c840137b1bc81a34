# syntax=docker/dockerfile:1
# Analytics Hub: build with the same script CI runs (scripts/build-release.sh), then a slim image that runs as a non-root
# user and reports healthy only when /api/ready does. docs/deploy.md shows how to run web and worker roles from it.

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY . .
# npm ci and the web build, exactly as CI does before it runs the tests; then only what runs in production is kept.
RUN bash scripts/build-release.sh && npm prune --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim AS runtime
# Behaviour is set by the app's own variables (server/config.ts), never by NODE_ENV. HOST=0.0.0.0 is not loopback, so
# the sandbox stays off: without PUBLIC_URL and the credentials the container stops naming them (docs/deploy.md), and
# SANDBOX=on alone is refused. compose.yaml shows the one local demo that runs the sandbox in the image.
ENV HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/server ./server
COPY --from=build /app/contract ./contract
COPY --from=build /app/sandbox ./sandbox
COPY --from=build /app/tsconfig.json ./
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
# Readiness, not liveness: 503 while draining or before migrations are done (a ROLE=worker process answers it too).
HEALTHCHECK --interval=15s --timeout=3s --start-period=60s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
# SIGTERM drains (readiness 503 for SHUTDOWN_DRAIN_MS) and exits 0; node is PID 1's only child via tini-less exec form.
STOPSIGNAL SIGTERM
CMD ["node", "--import", "tsx", "server/main.ts"]
