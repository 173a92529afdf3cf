# LiveLocal for one town on one machine: `npm start` (the server's build, decision 093) with the embedded
# backend, its data on a volume. See README.md, "Serving a town".
#
#   docker build -t livelocal .
#   docker run -d --name livelocal -p 4173:4173 -v livelocal-data:/data livelocal \
#     --allowed-hosts livelocal.example --public-origin https://livelocal.example --trust-proxy 172.17.0.1
#
# For Clerk's sign-in: `--build-arg VITE_CLERK_PUBLISHABLE_KEY=pk_live_…` and, at run time,
# `-e CLERK_JWT_ISSUER_DOMAIN=https://clerk.your.domain`.
ARG NODE_VERSION=22

# 1. The build: every dependency, TypeScript, Vite, esbuild.
FROM node:${NODE_VERSION}-bookworm AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY local-backend/runtime/isolate/heap-guard ./local-backend/runtime/isolate/heap-guard
RUN npm ci --no-audit --no-fund
COPY . .
ARG VITE_CLERK_PUBLISHABLE_KEY=""
ENV VITE_CLERK_PUBLISHABLE_KEY=${VITE_CLERK_PUBLISHABLE_KEY}
RUN npm run build

# 2. What the server loads: the dependencies only, native modules built for this Node.
FROM node:${NODE_VERSION}-bookworm AS dependencies
WORKDIR /app
COPY package.json package-lock.json ./
COPY local-backend/runtime/isolate/heap-guard ./local-backend/runtime/isolate/heap-guard
RUN npm ci --omit=dev --no-audit --no-fund

# 3. The server: no compiler, no build tools, not root.
FROM node:${NODE_VERSION}-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY package.json ./
COPY scripts/serve/built.mjs scripts/serve/start.mjs scripts/serve/restore.mjs ./scripts/serve/
COPY --from=dependencies /app/node_modules ./node_modules
COPY --from=dependencies /app/local-backend/runtime/isolate/heap-guard/build/Release/heap_guard.node ./local-backend/runtime/isolate/heap-guard/build/Release/heap_guard.node
COPY --from=build /app/dist ./dist
# The data folder (a volume), and the one folder the server writes under the app: the components'
# bundles it makes at start (node_modules/.cache/livelocal-components).
RUN mkdir -p /data /app/node_modules/.cache && chown node:node /data /app/node_modules/.cache
USER node
VOLUME /data
EXPOSE 4173
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s \
  CMD ["node", "-e", "fetch('http://127.0.0.1:4173/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["node", "scripts/serve/start.mjs", "--host", "0.0.0.0", "--port", "4173", "--data-dir", "/data"]
CMD []
