/**
 * `localBackend()`: runs the local backend inside `vite` dev, in the same process and on the same
 * origin as the app. `/api/*`, `/local-auth/*` and `/.well-known/*` go through Vite's middlewares;
 * WebSocket upgrades on the sync path go to the backend, everything else (Vite's HMR socket) is left
 * alone. Functions load through `server.ssrLoadModule` and reload on `server.watcher` events. HTTP
 * actions get their own port, as Convex serves them on a separate `.site` origin.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { Duplex } from "node:stream";
import type { Plugin, ViteDevServer } from "vite";
import { describeDevSignIn, isLoopbackInterface, signInMismatch } from "../api/access.ts";
import { LocalBackendCore, type LocalBackendCoreOptions } from "./backend.ts";
import { DataFolderError } from "../core/files.ts";
import { requestPathname } from "../core/paths.ts";
import { SYNC_PATH } from "../api/sync.ts";

export type LocalBackendPluginOptions = LocalBackendCoreOptions & {
  /** Port of the HTTP actions site (default 3211; a free one if taken). */
  sitePort?: number;
  /** Turn the plugin off (e.g. when a real deployment is configured). Default: on. */
  enabled?: boolean;
};

/** `LIVELOCAL_LOCAL_BACKEND_RESET=1 npm run dev` starts from a wiped (then re-seeded) store. */
export const RESET_ENV = "LIVELOCAL_LOCAL_BACKEND_RESET";

/** Paths the backend answers on the app's origin (also used by `npm start`, scripts/serve/server.ts). */
export const BACKEND_PATHS =
  /^\/(?:api\/|local-auth\/|\.well-known\/(?:openid-configuration|jwks\.json)$|local-backend\/)/;

/**
 * How long a backend started by a restarted Vite server waits for the one before it (same process,
 * same data folder) to stop before it opens the folder anyway (and is refused if it is still held).
 */
const PREVIOUS_STOP_WAIT_MS = 30_000;

/**
 * The plugin's backends running in this process, by data folder: each entry resolves once that
 * backend has stopped and released the folder. Vite restarts its server when a file `vite.config.ts`
 * imports changes (this engine is one: decision 083): it creates the new server, whose plugin starts
 * a backend, before it closes the old one, so the new backend waits here for the old one. On
 * `globalThis`, since each restart loads the config, and this module, anew.
 */
function runningBackends(): Map<string, Promise<void>> {
  const key = Symbol.for("livelocal.localBackend.running");
  const global = globalThis as { [key]?: Map<string, Promise<void>> };
  return (global[key] ??= new Map<string, Promise<void>>());
}

/** Resolves when `previous` does, or after `ms` (it is then left to the folder's own refusal). */
function waitBounded(previous: Promise<void>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    void previous.finally(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

function listenSite(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (e: NodeJS.ErrnoException) => {
      if (e.code === "EADDRINUSE" && port !== 0) {
        server.listen(0, host);
      } else {
        reject(e);
      }
    };
    server.on("error", onError);
    server.once("listening", () => {
      server.off("error", onError);
      resolve((server.address() as AddressInfo).port);
    });
    server.listen(port, host);
  });
}

export function localBackend(options: LocalBackendPluginOptions = {}): Plugin {
  /** Stops this server's backend (once): set when it starts. */
  let stop: () => Promise<void> = () => Promise.resolve();
  return {
    name: "livelocal-local-backend",
    apply: "serve",
    // Vite calls this after tearing the server down, for a restart too, and waits for it: the backend
    // is stopped (sockets closed, so clients reconnect to the next server; the folder released).
    async closeServer() {
      await stop();
    },
    configureServer(server: ViteDevServer) {
      const { sitePort, enabled, ...coreOptions } = options;
      if (enabled === false) return;
      const logger = server.config.logger;
      // Vite's `server.host` and `server.allowedHosts` decide whom the backend answers, as they do
      // for Vite's own requests (access.ts).
      const viteHost = server.config.server.host;
      const listenHost = viteHost === true ? "0.0.0.0" : viteHost || undefined;
      const loopback = isLoopbackInterface(listenHost);
      const bindHost = loopback ? "127.0.0.1" : "0.0.0.0";
      // The app signs in with Clerk on this backend when its key is set (src/config/env.ts).
      const clerkKey: unknown = server.config.env.VITE_CLERK_PUBLISHABLE_KEY;
      const appUsesClerk = typeof clerkKey === "string" && clerkKey.trim() !== "";
      let origin = "http://localhost:5173";
      const folder =
        coreOptions.dataDir === null ? null : path.resolve(coreOptions.dataDir ?? ".local-backend");
      const running = runningBackends();
      const previous = folder === null ? undefined : running.get(folder);
      let released!: () => void;
      const stopped = new Promise<void>((resolve) => (released = resolve));
      if (folder !== null) running.set(folder, stopped);
      const ready = (async () => {
        if (previous) await waitBounded(previous, PREVIOUS_STOP_WAIT_MS);
        return await LocalBackendCore.createWithOrigin(
          {
            functionLogs: "all",
            // A restart keeps the data: only the process's first backend wipes it.
            reset: process.env[RESET_ENV] === "1" && previous === undefined,
            access: { listenHost, allowedHosts: server.config.server.allowedHosts },
            ...coreOptions,
            vite: server,
          },
          () => origin,
        );
      })();
      let stopping: Promise<void> | null = null;
      stop = () =>
        (stopping ??= (async () => {
          site.close();
          try {
            await (await ready).stop();
          } catch {
            // It never started (told when it failed).
          } finally {
            if (folder !== null && running.get(folder) === stopped) running.delete(folder);
            released();
          }
        })());
      ready.catch((e: unknown) => {
        if (e instanceof DataFolderError) {
          // The data folder needs the operator (a damaged or lost database, a damaged key, a
          // read-only folder): said in one line, and `npm run dev` stops rather than serve an app
          // without its backend.
          logger.error(`local backend: ${e.message}`);
          void server.close().finally(() => process.exit(1));
          return;
        }
        logger.error(
          `local backend failed to start: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`,
        );
      });

      server.middlewares.use((req, res, next) => {
        const pathname = (req.url ?? "/").split("?")[0];
        if (!BACKEND_PATHS.test(pathname)) {
          next();
          return;
        }
        ready.then(
          (core) => core.apiMiddleware(req, res, next),
          (e: unknown) => next(e),
        );
      });

      const site = createServer((req, res) => {
        ready.then(
          (core) => core.siteHandler(req, res),
          () => {
            res.statusCode = 503;
            res.end("local backend failed to start");
          },
        );
      });

      const httpServer = server.httpServer;
      if (!httpServer) {
        logger.warn(
          "local backend: Vite runs in middleware mode; WebSocket sync needs the parent server's upgrades",
        );
        return;
      }
      httpServer.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
        const pathname = requestPathname(req.url);
        if (pathname === null || !SYNC_PATH.test(pathname)) return; // Vite's HMR socket and others
        ready.then(
          (core) => {
            core.handleUpgrade(req, socket, head);
          },
          () => socket.destroy(),
        );
      });

      httpServer.once("listening", () => {
        const address = httpServer.address() as AddressInfo;
        const protocol = server.config.server.https ? "https" : "http";
        origin = `${protocol}://localhost:${address.port}`;
        void ready.then((core) => core.originKnown()).catch(() => undefined);
        void listenSite(site, sitePort ?? 3211, bindHost)
          .then(
            async (port) => {
              const siteHost = bindHost === "0.0.0.0" ? "localhost" : bindHost;
              (await ready).originKnown(`http://${siteHost}:${port}`);
              logger.info(
                [
                  "",
                  `  Local backend (offline Convex):`,
                  `    App and Convex URL: ${origin}  (WebSocket ${origin.replace(/^http/, "ws")}/api/<version>/sync)`,
                  `    HTTP actions:       http://${siteHost}:${port}`,
                  `    Sign-in:            ${describeDevSignIn((await ready).access.devSignIn)}`,
                  ...[signInMismatch(appUsesClerk, (await ready).access.devSignIn)]
                    .filter((line) => line !== null)
                    .map((line) => `    ${line}`),
                  loopback
                    ? `    Listening on loopback only (this machine).`
                    : `    WARNING: Vite listens on all interfaces, so the backend is reachable from other machines (Host and Origin are checked against server.allowedHosts).`,
                  "",
                ].join("\n"),
              );
            },
            (e: unknown) => logger.error(`local backend: HTTP actions port failed: ${String(e)}`),
          )
          // A backend that failed to start was reported above (`ready.catch`); Vite goes on serving.
          .catch(() => undefined);
      });
      httpServer.once("close", () => void stop());
    },
  };
}
