/**
 * Standalone local backend (no Vite UI): `tsx local-backend/host/server.ts [options]`.
 *
 *   --port <n>           backend port (default 3210; 0 = any free port)
 *   --site-port <n>      HTTP actions port (default port + 1)
 *   --host <addr>        interface (default 127.0.0.1, this machine only)
 *   --allowed-hosts <l>  names answered besides loopback ones: `a.lan,.example.com` (`all`: any Host)
 *   --trust-proxy <l>    proxies whose header names the client: `loopback,10.0.0.0/8` (decision 094)
 *   --client-ip-header <h>  the header they set: x-forwarded-for (default) or forwarded
 *   --data-dir <dir>     data folder (default .local-backend)
 *   --functions <dir>    Convex functions folder (default convex)
 *   --extra-functions <dir>  functions only this backend runs, as if in the functions folder (repeatable)
 *   --reset              wipe the data folder first (then seed again)
 *   --reset-only         wipe the data folder and exit (`npm run backend:reset`)
 *   --no-crons           do not run convex/crons.ts
 *   --no-seed            do not seed an empty store (by default: reference and demo data, seed:seedReferenceData and seed:seedDemoData)
 *   --no-watch           do not reload functions on change
 *   --quiet              do not print function log lines
 */
import path from "node:path";
import { parseArgs } from "node:util";
import {
  describeAllowedHosts,
  describeDevSignIn,
  isLoopbackInterface,
  parseAllowedHosts,
} from "../api/access.ts";
import { describeTrustProxy, parseClientAddressHeader, parseTrustProxy } from "../api/client-address.ts";
import { SqliteStore } from "../database/store.ts";
import { startLocalBackend, type StartLocalBackendOptions } from "./start.ts";

export type ServerArgs = StartLocalBackendOptions & { dataDir: string; resetOnly: boolean };

export function parseServerArgs(argv: string[]): ServerArgs {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: "string" },
      "site-port": { type: "string" },
      host: { type: "string" },
      "allowed-hosts": { type: "string" },
      "trust-proxy": { type: "string" },
      "client-ip-header": { type: "string" },
      "data-dir": { type: "string" },
      functions: { type: "string" },
      "extra-functions": { type: "string", multiple: true },
      reset: { type: "boolean" },
      "reset-only": { type: "boolean" },
      "no-crons": { type: "boolean" },
      "no-seed": { type: "boolean" },
      "no-watch": { type: "boolean" },
      quiet: { type: "boolean" },
    },
    strict: true,
  });
  const port = (value: string | undefined, name: string) => {
    if (value === undefined) return undefined;
    const n = Number(value);
    if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`--${name} must be a port number`);
    return n;
  };
  return {
    port: port(values.port, "port"),
    sitePort: port(values["site-port"], "site-port"),
    host: values.host,
    access: {
      allowedHosts: parseAllowedHosts(values["allowed-hosts"]),
      trustProxy: parseTrustProxy(
        values["trust-proxy"],
        parseClientAddressHeader(values["client-ip-header"]),
      ),
    },
    dataDir: path.resolve(values["data-dir"] ?? ".local-backend"),
    functionsDir: path.resolve(values.functions ?? "convex"),
    extraFunctionsDirs: (values["extra-functions"] ?? []).map((dir) => path.resolve(dir)),
    reset: values.reset ?? false,
    resetOnly: values["reset-only"] ?? false,
    crons: !values["no-crons"],
    seed: !values["no-seed"],
    watch: !values["no-watch"],
    functionLogs: values.quiet ? "none" : "all",
  };
}

async function main(): Promise<void> {
  const { resetOnly, ...options } = parseServerArgs(process.argv.slice(2));
  if (resetOnly) {
    SqliteStore.reset(options.dataDir);
    console.log(`Wiped ${options.dataDir}; the next start seeds demo data again.`);
    return;
  }
  const backend = await startLocalBackend(options);
  const loopback = isLoopbackInterface(backend.host);
  console.log(`LiveLocal local backend
  Convex URL (VITE_CONVEX_URL): ${backend.url}
  HTTP actions:                 ${backend.siteUrl}
  Convex CLI (this machine):    CONVEX_SELF_HOSTED_URL=${backend.url} CONVEX_SELF_HOSTED_ADMIN_KEY='${backend.adminKey}' npx convex run …
  Data:                         ${options.dataDir}${options.reset ? " (reset)" : ""}
  Listening on ${backend.host}: ${loopback ? "this machine only (loopback)" : "REACHABLE FROM OTHER MACHINES"}
  Answers Host:                 ${describeAllowedHosts(options.access?.allowedHosts, loopback)}
  Client addresses:             ${describeTrustProxy(options.access?.trustProxy)}
  ${describeDevSignIn(backend.core.access.devSignIn)}`);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    console.log(`\n${signal}: saving and stopping…`);
    backend.stop().then(
      () => process.exit(0),
      (e: unknown) => {
        console.error(e);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  main().catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  });
}
