# syntax=docker/dockerfile:1
# Restaurant POS: build once, run the compiled server with plain node as an unprivileged user.
#   docker build -t restaurant-pos .
#   docker run -d -p 127.0.0.1:9154:9154 -v pos-data:/data \
#     -e POS_JWT_SECRET -e POS_PIN_KEY -e POS_ALLOWED_HOSTS -e POS_TRUST_PROXY=1 restaurant-pos
# (the keys from your environment, each 32+ random characters: openssl rand -base64 48; only this
# machine reaches the port, a TLS proxy serves the network; README, "Running on the restaurant's network")
# The supported line (README, "Set-up").
ARG NODE_VERSION=22

FROM node:${NODE_VERSION}-bookworm-slim AS build
# better-sqlite3 is native: compilers for when no prebuilt binary matches.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY scripts ./scripts
COPY src ./src
COPY web ./web
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:${NODE_VERSION}-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=9154 \
    DATABASE_URL=sqlite:/data/pos.db
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# The database folder must exist (only ./data is created on demand) and be the server's alone.
RUN install -d -o node -g node -m 0700 /data
VOLUME /data
USER node
EXPOSE 9154
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||9154)+'/health/live').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# node itself is PID 1 and handles SIGTERM: `docker stop` drains in-flight requests, then exits.
STOPSIGNAL SIGTERM
CMD ["node", "--enable-source-maps", "dist/server.js"]
