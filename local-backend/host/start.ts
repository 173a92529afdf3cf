/**
 * `startLocalBackend`: the backend on its own HTTP servers (backend origin and HTTP actions site),
 * for the standalone server, the e2e suite and the benchmark.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { IssuedToken, TokenClaims } from "../api/auth.ts";
import { LocalBackendCore, type LocalBackendCoreOptions, type LocalBackendStats } from "./backend.ts";

export type StartLocalBackendOptions = LocalBackendCoreOptions & {
  /** Backend port (default 3210; 0 picks a free one). */
  port?: number;
  /** HTTP actions port (default port + 1, or a free one when port is 0). */
  sitePort?: number;
  /** Interface to listen on (default 127.0.0.1: this machine only). */
  host?: string;
};

export type RunningLocalBackend = {
  /** The deployment URL for the Convex clients (`VITE_CONVEX_URL`). */
  url: string;
  /** Where HTTP actions are served (Convex's `.site` URL). */
  siteUrl: string;
  host: string;
  /** For the Convex CLI (`CONVEX_SELF_HOSTED_ADMIN_KEY`) and `ConvexHttpClient.setAdminAuth`; loopback only. */
  adminKey: string;
  stop(): Promise<void>;
  issueToken(claims: TokenClaims, options?: { expiresInSeconds?: number }): Promise<IssuedToken>;
  stats(): LocalBackendStats;
  /** Resolves when the subscription passes triggered so far have been pushed. */
  idle(): Promise<void>;
  core: LocalBackendCore;
};

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function urlHost(host: string): string {
  if (host === "0.0.0.0" || host === "::") return "127.0.0.1";
  return host.includes(":") ? `[${host}]` : host;
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

export async function startLocalBackend(
  options: StartLocalBackendOptions = {},
): Promise<RunningLocalBackend> {
  const host = options.host ?? "127.0.0.1";
  let url = "";
  const core = await LocalBackendCore.createWithOrigin(
    { ...options, access: { listenHost: host, ...options.access } },
    () => url,
  );
  const api = createServer((req, res) => {
    core.apiMiddleware(req, res, () => {
      res.statusCode = 404;
      res.setHeader("Content-Type", "application/json");
      res.end(JSON.stringify({ code: "NotFound", message: `No route for ${req.method} ${req.url}` }));
    });
  });
  api.on("upgrade", (req, socket, head: Buffer) => {
    if (!core.handleUpgrade(req, socket, head)) socket.destroy();
  });
  const site = createServer(core.siteHandler);
  try {
    const port = await listen(api, options.port ?? 3210, host);
    url = `http://${urlHost(host)}:${port}`;
    core.originKnown();
    const sitePort = await listen(site, options.sitePort ?? (options.port === 0 ? 0 : port + 1), host);
    const siteUrl = `http://${urlHost(host)}:${sitePort}`;
    core.originKnown(siteUrl);
    return {
      url,
      siteUrl,
      host,
      adminKey: core.adminKey.value,
      core,
      stop: async () => {
        await core.stop();
        await Promise.all([closeServer(api), closeServer(site)]);
      },
      issueToken: (claims, tokenOptions) => core.issueToken(claims, tokenOptions),
      stats: () => core.stats(),
      idle: () => core.idle(),
    };
  } catch (e) {
    await core.stop();
    await Promise.all([closeServer(api), closeServer(site)]);
    throw e;
  }
}
