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
import { LocalBackendCore } from "../../local-backend/host/backend.ts";
import {
  BackupSchedule,
  parseBackupFlags,
  type BackupScheduleOptions,
  type LastBackup,
} from "../../local-backend/host/backup-schedule.ts";
import { requestPathname } from "../../local-backend/core/paths.ts";
import { SYNC_PATH } from "../../local-backend/api/sync.ts";
import { BACKEND_PATHS } from "../../local-backend/host/vite-plugin.ts";
import { readBuildMeta } from "../build/build-info.ts";
import { createAppHandler } from "./app-handler.ts";
import { createPagePreviews } from "./page-previews.ts";
import { createPreviewImages } from "./preview-images.ts";
import { createPageRenderer, loadServerEntry, type ServerEntry } from "./server-render.ts";

const root = path.resolve(import.meta.dirname, "../..");
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
  /** The last scheduled backup's outcome (`--backup-dir`); null before the first, or without backups. */
  lastBackup(): LastBackup | null;
  stop(): Promise<void>;
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
  /** Backups of the local backend's data folder on a schedule (`--backup-dir`, `--backup-every`, `--backup-keep`). */
  backups?: BackupScheduleOptions;
}): Promise<StartedAppServer> {
  const distDir = options.distDir ?? path.join(root, "dist");
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

  const accessOptions: AccessOptions = { listenHost: host, allowedHosts: options.allowedHosts };
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
          functionsDir: options.functionsDir ?? path.join(root, "convex"),
          dataDir,
          reset: options.reset,
          watch: false,
          // A served store holds no demo identities (demo_admin) unless asked for by name.
          seed: options.demoData ? true : "reference",
          functionLogs: options.quiet ? "none" : "background",
          access: accessOptions,
          publicOrigin: options.publicOrigin,
        },
        () => origin,
      );

  const server = createServer((req, res) => {
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
  });
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
    stop: async () => {
      await backups?.stop();
      await core?.stop();
      await Promise.all(
        [server, site].map(
          (s) =>
            new Promise<void>((resolve) => {
              if (!s) return resolve();
              s.close(() => resolve());
              s.closeAllConnections();
            }),
        ),
      );
    },
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
      "backup-dir": { type: "string" },
      "backup-every": { type: "string" },
      "backup-keep": { type: "string" },
    },
  });
  const running = await startAppServer({
    port: Number(values.port ?? process.env.PORT ?? 4173),
    host: values.host,
    sitePort: values["site-port"] ? Number(values["site-port"]) : undefined,
    dataDir: values["data-dir"] ? path.resolve(values["data-dir"]) : undefined,
    reset: values.reset,
    allowedHosts: parseAllowedHosts(values["allowed-hosts"]),
    publicOrigin: parsePublicOrigin(values["public-origin"] ?? process.env.PUBLIC_ORIGIN),
    demoData: values["demo-data"],
    backups: parseBackupFlags({
      dir: values["backup-dir"],
      every: values["backup-every"],
      keep: values["backup-keep"],
    }),
  });
  const shutdown = () => void running.stop().then(() => process.exit(0));
  process.once("SIGINT", shutdown);
  process.once("SIGTERM", shutdown);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  // What stops the start (a data folder another backend is using, say) is said in words, as
  // `npm run backend` says it.
  await main().catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  });
}
