/**
 * `npm start` (after `npm run build`): serves dist/ on one origin. When the build has no Convex
 * deployment built in (local mode), the local backend runs in this process on the same origin, as the
 * Vite plugin does in dev: `/api/*`, `/local-auth/*`, `/.well-known/*` and WebSocket upgrades on the
 * sync path go to it, HTTP actions get their own port.
 *
 *   --port 4173 (or PORT)   --host 127.0.0.1   --site-port 3211   --data-dir .local-backend   --reset
 *   --allowed-hosts livelocal.example,.livelocal.example   (names answered besides loopback ones; `all`: any)
 *   --public-origin https://livelocal.example   (or PUBLIC_ORIGIN: the address links, previews, file URLs
 *                                               and e-mails name)
 *   --demo-data   a fresh store also gets the demo accounts, shops and streams (for demos and tests)
 *   --drain-timeout 30   seconds SIGTERM gives the calls under way to finish (0: stop at once)
 *   --trust-proxy loopback,10.0.0.0/8   proxies whose header names the client (--client-ip-header
 *                                       x-forwarded-for, the default, or forwarded)
 *   --log-format text|json   --metrics-token TOKEN (or METRICS_TOKEN)
 *
 * `/healthz`, `/readyz` and `/metrics`, request ids and JSON logs: operations.ts (decision 094).
 *   --backup-dir /backups --backup-every 6h --backup-keep 14   online backups of the data folder
 *                                               (local-backend/host/backup-schedule.ts; restore with
 *                                               `npm run backup:restore FILE -- --data-dir NEW`)
 *
 * A fresh store gets the reference data only (metro areas, categories). Development sign-in is offered
 * only when the server is this machine's alone (loopback, no public origin, no other Host names), and
 * never through a proxy (local-backend/api/access.ts; decision 053).
 *
 * Shop and stream pages are read from the backend as they are asked for (page-previews.ts): an
 * unknown one answers 404, the others carry their title, description and link preview tags, whose
 * picture is a card drawn here (`/og/{page}.png`, preview-images.ts).
 *
 * Every request and upgrade is checked for its Host and Origin first (local-backend/api/access.ts), as
 * the embedded backend checks its own: loopback names by default, so a page that rebinds its name to
 * this machine gets 403 and never a development token.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { parseArgs } from "node:util";
import {
  AccessPolicy,
  describeAllowedHosts,
  describeDevSignIn,
  isLoopbackInterface,
  parseAllowedHosts,
  refuseUpgrade,
  signInMismatch,
  type AccessOptions,
} from "../../local-backend/api/access.ts";
import { BUILT } from "../../local-backend/core/built.ts";
import { LocalBackendCore } from "../../local-backend/host/backend.ts";
import {
  BackupSchedule,
  parseBackupFlags,
  type BackupScheduleOptions,
  type LastBackup,
} from "../../local-backend/host/backup-schedule.ts";
import { registerBackupMetrics } from "../../local-backend/host/metrics.ts";
import { requestPathname } from "../../local-backend/core/paths.ts";
import { SYNC_PATH } from "../../local-backend/api/sync.ts";
import { BACKEND_PATHS } from "../../local-backend/host/vite-plugin.ts";
import { builtFunctionsDir, readBuildMeta } from "../build/build-info.ts";
import {
  describeTrustProxy,
  parseClientAddressHeader,
  parseTrustProxy,
  type TrustedProxies,
} from "../../local-backend/api/client-address.ts";
import { createAppHandler } from "./app-handler.ts";
import { createOperations, parseLogFormat, type LogFormat, type Operations } from "./operations.ts";
import { createPagePreviews } from "./page-previews.ts";
import { createPreviewImages } from "./preview-images.ts";
import { createPageRenderer, loadServerEntry, type ServerEntry } from "./server-render.ts";

/** The project: this file is in scripts/serve/, or built into dist/.server/engine/ (decision 093). */
const root = path.resolve(import.meta.dirname, BUILT ? "../../.." : "../..");
/** How long SIGTERM gives calls under way to finish (`--drain-timeout`): an action's work, mostly. */
const DEFAULT_DRAIN_SECONDS = 30;
/** Rendered once at start (server-render.ts): one of each kind of server-rendered page. */
const WARM_UP_PAGES = ["/", "/explore/streams", "/explore/live-shops", "/live-shop/-", "/stream/-"];

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

export type StartedAppServer = {
  url: string;
  /** The local backend's admin key (`npx convex`, this machine only); null with a deployment built in. */
  adminKey: string | null;
  /** The local backend's HTTP actions (`convex/http.ts`); null with a deployment built in. */
  siteUrl: string | null;
  /** Health, readiness, metrics (its `registry` takes other figures) and the request log. */
  operations: Operations;
  /**
   * Stops. With `drainMs` (SIGTERM), gracefully: no new connections, sync clients' new mutations left
   * for them to send again to the next start, calls under way given up to `drainMs` to finish and be
   * answered, then sockets closed (clients reconnect) and the store closed. Resolves with how many calls
   * did not finish in time (their clients send mutations again; an answered one is on disk).
   */
  stop(options?: { drainMs?: number }): Promise<{ unfinished: number }>;
  /** The last scheduled backup's outcome (`--backup-dir`); null before the first, or without backups. */
  lastBackup(): LastBackup | null;
};

export async function startAppServer(options: {
  distDir?: string;
  port?: number;
  host?: string;
  sitePort?: number;
  dataDir?: string | null;
  reset?: boolean;
  quiet?: boolean;
  /** Host names answered besides loopback ones (`true`: any). */
  allowedHosts?: AccessOptions["allowedHosts"];
  /** The Convex functions the local backend runs (default convex/; tests use a fixture). */
  functionsDir?: string;
  /**
   * The site's public address for canonical and preview links (default `http://{Host}`), file URLs and
   * e-mail links; a server started with one offers no development sign-in.
   */
  publicOrigin?: string;
  /** Seed a fresh store with the demo accounts and data too (default: reference data only). */
  demoData?: boolean;
  /** How long a shop's or stream's page head is kept (default 30 s). */
  previewTtlMs?: number;
  /**
   * The server's entry public pages are rendered with (decision 040): by default the build's
   * (dist/.ssr/), in local mode only; null renders none (tests pass src/entry-server.tsx).
   */
  serverEntry?: ServerEntry | null;
  /** How long a page's server render may take before the browser renders it instead (default 2 s). */
  renderTimeoutMs?: number;
  /** The proxies whose header names the client (`--trust-proxy`; default none). */
  trustProxy?: TrustedProxies;
  /** `json`: a JSON line per request and per function error (default `text`: as before, none). */
  logFormat?: LogFormat;
  /** Where the JSON log lines go (default stdout; tests keep them). */
  writeLog?: (line: string) => void;
  /** `/metrics` is answered to this Bearer token too, from any machine (default: this machine only). */
  metricsToken?: string;
  /** Backups of the local backend's data folder on a schedule (`--backup-dir`, `--backup-every`, `--backup-keep`). */
  backups?: BackupScheduleOptions;
}): Promise<StartedAppServer> {
  // Built, the build this file is part of (a copy of dist/ elsewhere serves itself).
  const distDir =
    options.distDir ?? (BUILT ? path.resolve(import.meta.dirname, "../..") : path.join(root, "dist"));
  const host = options.host ?? "127.0.0.1";
  const meta = readBuildMeta(distDir);
  let origin = "";
  // Public pages are rendered here in local mode, where their queries are read from this process. With a
  // deployment (Clerk's sign-in, maybe a static host) the browser renders every page, as before.
  const serverEntry =
    options.serverEntry !== undefined
      ? options.serverEntry
      : meta.convexUrl
        ? null
        : await loadServerEntry(distDir);
  const render = serverEntry
    ? createPageRenderer({ entry: serverEntry, convexUrl: () => origin, timeoutMs: options.renderTimeoutMs })
    : undefined;
  // The deployment the build names, or the local backend this process runs on its own origin.
  const convexUrl = () => meta.convexUrl ?? origin;
  const previews = createPagePreviews({ convexUrl, ttlMs: options.previewTtlMs, buildId: meta.id });
  const handleApp = createAppHandler({
    distDir,
    convexUrl: meta.convexUrl,
    clerkPublishableKey: meta.clerkPublishableKey,
    publicOrigin: options.publicOrigin,
    previews,
    previewImages: createPreviewImages({
      previews,
      staticDir: distDir,
      convexUrl,
      storageOrigins: () => [options.publicOrigin],
      buildId: meta.id,
    }),
    render,
  });

  const accessOptions: AccessOptions = {
    listenHost: host,
    allowedHosts: options.allowedHosts,
    trustProxy: options.trustProxy,
  };
  const access = new AccessPolicy(accessOptions);
  const dataDir = options.dataDir === undefined ? path.join(root, ".local-backend") : options.dataDir;
  // A backup folder that cannot be used stops the start before the data folder is touched.
  const backups = options.backups
    ? new BackupSchedule(options.backups, meta.convexUrl ? null : dataDir, {
        info: (line) => (options.quiet ? undefined : console.log(line)),
        error: (line) => console.error(line),
      })
    : null;
  const core = meta.convexUrl
    ? null
    : await LocalBackendCore.createWithOrigin(
        {
          // Built, the server runs the functions built beside it (`npm run build`), never their source.
          functionsDir:
            options.functionsDir ?? (BUILT ? builtFunctionsDir(distDir) : path.join(root, "convex")),
          builtFunctions: BUILT,
          dataDir,
          reset: options.reset,
          watch: false,
          // A served store holds no demo identities (demo_admin) unless asked for by name.
          seed: options.demoData ? true : "reference",
          functionLogs: options.quiet ? "none" : "background",
          access: accessOptions,
          publicOrigin: options.publicOrigin,
          ...(options.logFormat === "json" && { printFunctionLog: jsonFunctionLog(options.writeLog) }),
        },
        () => origin,
      );
  const operations = createOperations({
    access,
    core,
    logFormat: options.logFormat ?? "text",
    metricsToken: options.metricsToken,
    write: options.writeLog,
  });
  if (backups) registerBackupMetrics(operations.registry, backups);

  const server = createServer((req, res) =>
    operations.handle(req, res, () => {
      const allowed = access.check(req);
      if (!allowed.ok) {
        res.statusCode = 403;
        res.setHeader("Content-Type", "text/plain; charset=utf-8");
        res.end(`${allowed.message}\n`);
        return;
      }
      const pathname = (req.url ?? "/").split("?")[0] ?? "/";
      if (core && BACKEND_PATHS.test(pathname)) {
        core.apiMiddleware(req, res, () => handleApp(req, res));
        return;
      }
      handleApp(req, res);
    }),
  );
  server.on("upgrade", (req, socket, head: Buffer) => {
    const allowed = access.check(req);
    if (!allowed.ok) {
      refuseUpgrade(socket, allowed.message);
      return;
    }
    const pathname = requestPathname(req.url);
    if (!core || pathname === null || !SYNC_PATH.test(pathname) || !core.handleUpgrade(req, socket, head)) {
      socket.destroy();
    }
  });
  const site = core ? createServer(core.siteHandler) : null;

  const port = await listen(server, options.port ?? 4173, host);
  origin = `http://${host === "0.0.0.0" ? "127.0.0.1" : host}:${port}`;
  core?.originKnown();
  const sitePort = site ? await listen(site, options.sitePort ?? 3211, host) : null;
  // The first render of a page loads its modules and warms the JIT (hundreds of ms): done now, for
  // each kind of page, rather than for the first visitor.
  if (render) await Promise.all(WARM_UP_PAGES.map((page) => render(page, origin)));
  if (core) backups?.start(core.store);
  if (!options.quiet) {
    console.log(`LiveLocal build ${meta.id} (built ${meta.builtAt}) on ${origin}`);
    console.log(
      core
        ? `  Local backend in-process (Convex URL = ${origin}); HTTP actions on http://${host}:${sitePort}`
        : `  Convex deployment: ${meta.convexUrl}`,
    );
    console.log(`  Answers Host: ${describeAllowedHosts(options.allowedHosts, isLoopbackInterface(host))}`);
    console.log(`  Client addresses: ${describeTrustProxy(options.trustProxy)}`);
    console.log(
      `  Health: ${origin}/healthz, ${origin}/readyz (any Host); metrics: ${origin}/metrics (${options.metricsToken ? "this machine, or the --metrics-token Bearer token" : "this machine only"})`,
    );
    if (core) {
      console.log(`  ${describeDevSignIn(core.access.devSignIn)}`);
      const mismatch = signInMismatch(meta.clerkPublishableKey !== null, core.access.devSignIn);
      if (mismatch) console.warn(`  ${mismatch}`);
      console.log(
        `  A fresh store gets ${options.demoData ? "the reference and the demo data" : "the reference data only (--demo-data adds the demo accounts and shows)"}.`,
      );
    }
  }
  return {
    url: origin,
    adminKey: core?.adminKey.value ?? null,
    siteUrl: sitePort === null ? null : `http://${host === "0.0.0.0" ? "127.0.0.1" : host}:${sitePort}`,
    lastBackup: () => backups?.last() ?? null,
    operations,
    stop: async ({ drainMs = 0 } = {}) => {
      operations.markDraining();
      // No new connections from here; idle kept-alive ones are closed (upgraded sockets are the sync
      // server's, closed by the backend).
      const closed = [server, site].map(
        (s) =>
          new Promise<void>((resolve) => {
            if (!s) return resolve();
            s.close(() => resolve());
            s.closeIdleConnections();
          }),
      );
      const drained = core && drainMs > 0 ? await core.drain(drainMs) : { unfinished: 0 };
      operations.stop();
      // A backup under way is stopped; its partial file removed (the last complete one stays).
      await backups?.stop();
      await core?.stop();
      for (const s of [server, site]) s?.closeAllConnections();
      await Promise.all(closed);
      return drained;
    },
  };
}

/** A function's log line of background work as a JSON line (`--log-format json`). */
function jsonFunctionLog(writeLog: ((line: string) => void) | undefined) {
  const write = writeLog ?? ((line: string) => process.stdout.write(`${line}\n`));
  return (line: string, udfPath: string) => {
    const level = /^\[(ERROR|WARN|INFO|LOG|DEBUG)\] /.exec(line)?.[1] ?? "LOG";
    write(
      JSON.stringify({
        time: new Date().toISOString(),
        level: level === "ERROR" ? "error" : level === "WARN" ? "warn" : level === "DEBUG" ? "debug" : "info",
        msg: "function log",
        function: udfPath,
        line,
      }),
    );
  };
}

/** An origin (`https://livelocal.example`) from the command line; anything else stops the server. */
function parsePublicOrigin(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const url = new URL(value);
  if (!["http:", "https:"].includes(url.protocol) || url.origin !== value.replace(/\/$/, "")) {
    throw new Error(`--public-origin takes an origin such as https://livelocal.example, not ${value}.`);
  }
  return url.origin;
}

async function main() {
  // `npm start` serves the production build: React's production server renderer, not its development
  // one (read when the server's entry first imports react-dom; decision 040).
  process.env.NODE_ENV ??= "production";
  const { values } = parseArgs({
    options: {
      port: { type: "string" },
      host: { type: "string" },
      "site-port": { type: "string" },
      "data-dir": { type: "string" },
      reset: { type: "boolean" },
      "allowed-hosts": { type: "string" },
      "public-origin": { type: "string" },
      "demo-data": { type: "boolean" },
      "trust-proxy": { type: "string" },
      "client-ip-header": { type: "string" },
      "log-format": { type: "string" },
      "metrics-token": { type: "string" },
      "drain-timeout": { type: "string" },
      "backup-dir": { type: "string" },
      "backup-every": { type: "string" },
      "backup-keep": { type: "string" },
    },
  });
  const drainSeconds = Number(values["drain-timeout"] ?? DEFAULT_DRAIN_SECONDS);
  if (!Number.isFinite(drainSeconds) || drainSeconds < 0 || drainSeconds > 3600) {
    throw new Error(`--drain-timeout takes seconds (0 to 3600), not ${values["drain-timeout"]}.`);
  }
  // Listened for before the start, so that a signal while starting stops the server once it has started
  // rather than ending the process in the middle of opening its store.
  let running: StartedAppServer | null = null;
  let signal: string | null = null;
  const stop = (server: StartedAppServer, by: string) => {
    const started = performance.now();
    console.log(`${by}: stopping. No new connections; the calls under way have ${drainSeconds} s to finish.`);
    server.stop({ drainMs: drainSeconds * 1000 }).then(
      ({ unfinished }) => {
        const took = `${Math.round(performance.now() - started)} ms`;
        console.log(
          unfinished === 0
            ? `Stopped in ${took}: every call finished and was answered; clients reconnect to the next start.`
            : `Stopped in ${took} with ${unfinished} calls unfinished: their clients send them again to the next start.`,
        );
        process.exit(0);
      },
      (e: unknown) => {
        console.error(e);
        process.exit(1);
      },
    );
  };
  const shutdown = (by: string) => {
    // A second signal: stop now (what was acknowledged is on disk already).
    if (signal) process.exit(1);
    signal = by;
    if (running) stop(running, by);
    else console.log(`${by} while starting: the server stops once it has started.`);
  };
  process.on("SIGINT", () => shutdown("SIGINT"));
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  running = await startAppServer({
    port: Number(values.port ?? process.env.PORT ?? 4173),
    host: values.host,
    sitePort: values["site-port"] ? Number(values["site-port"]) : undefined,
    dataDir: values["data-dir"] ? path.resolve(values["data-dir"]) : undefined,
    reset: values.reset,
    allowedHosts: parseAllowedHosts(values["allowed-hosts"]),
    publicOrigin: parsePublicOrigin(values["public-origin"] ?? process.env.PUBLIC_ORIGIN),
    demoData: values["demo-data"],
    trustProxy: parseTrustProxy(values["trust-proxy"], parseClientAddressHeader(values["client-ip-header"])),
    logFormat: parseLogFormat(values["log-format"]),
    metricsToken: values["metrics-token"] ?? (process.env.METRICS_TOKEN || undefined),
    backups: parseBackupFlags({
      dir: values["backup-dir"],
      every: values["backup-every"],
      keep: values["backup-keep"],
    }),
  });
  if (signal) stop(running, signal);
}

/**
 * The server as the command line asks for it: `npm start` (scripts/serve/start.mjs, the build) or
 * `tsx scripts/serve/server.ts` (the source). What stops the start (a data folder another backend is
 * using, say) is said in words, as `npm run backend` says it.
 */
export async function serveFromCommandLine(): Promise<void> {
  await main().catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  await serveFromCommandLine();
}
