/** Shared setup for the conformance tests: the fixture backend and official clients. */
import { spawn, type ChildProcess } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import {
  createServer as createHttpServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type Server,
} from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { ConvexClient, ConvexHttpClient } from "convex/browser";
import { makeFunctionReference, type FunctionReference } from "convex/server";
import type { Value } from "convex/values";
import type { AddressInfo } from "node:net";
import { createServer, type ViteDevServer } from "vite";
import { WebSocket } from "ws";
import { localBackend } from "../host/vite-plugin.ts";
import { startLocalBackend, type RunningLocalBackend, type StartLocalBackendOptions } from "../host/start.ts";

export const fixtureDir = path.join(import.meta.dirname, "test-fixture", "convex");

export function tempDataDir(): string {
  return mkdtempSync(path.join(tmpdir(), "local-backend-test-"));
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/**
 * Runs `read` on a copy of the database in `dataDir` as its files are now: what a crash of the
 * backend at this moment would leave. A backend holds its database's lock for as long as it runs
 * (decision 048), so no second connection opens the original meanwhile.
 */
export function readDatabaseCopy<T>(dataDir: string, read: (db: Database.Database) => T): T {
  const copy = mkdtempSync(path.join(tmpdir(), "database-copy-"));
  try {
    for (const file of ["data.sqlite3", "data.sqlite3-wal"]) {
      if (existsSync(path.join(dataDir, file))) copyFileSync(path.join(dataDir, file), path.join(copy, file));
    }
    const db = new Database(path.join(copy, "data.sqlite3"));
    try {
      return read(db);
    } finally {
      db.close();
    }
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

export async function startFixtureBackend(
  options: StartLocalBackendOptions = {},
): Promise<RunningLocalBackend> {
  return await startLocalBackend({
    functionsDir: fixtureDir,
    dataDir: null,
    port: 0,
    crons: false,
    watch: false,
    functionLogs: "none",
    ...options,
  });
}

/**
 * Vite with the local backend plugin on the fixture functions, as `npm run dev` runs it; `origin` is the
 * app's. `allowedHosts` is Vite's `server.allowedHosts` (what LIVELOCAL_ALLOWED_HOSTS sets).
 */
export async function startFixtureVite(
  allowedHosts?: string[] | true,
): Promise<{ vite: ViteDevServer; origin: string }> {
  const vite = await createServer({
    configFile: false,
    root: import.meta.dirname,
    logLevel: "silent",
    server: { port: 0, host: "127.0.0.1", ...(allowedHosts !== undefined && { allowedHosts }) },
    plugins: [
      localBackend({
        functionsDir: fixtureDir,
        dataDir: null,
        crons: false,
        functionLogs: "none",
        sitePort: 0,
      }),
    ],
  });
  await vite.listen();
  return { vite, origin: `http://127.0.0.1:${(vite.httpServer!.address() as AddressInfo).port}` };
}

export function newClient(url: string): ConvexClient {
  return new ConvexClient(url, {
    webSocketConstructor: WebSocket as unknown as typeof globalThis.WebSocket,
    skipConvexDeploymentUrlCheck: true,
    logger: false,
  });
}

/** Clients made by `client()` for a test file's backend, all closed by `closeAll()`. */
export function clientPool(url: () => string): {
  client: () => ConvexClient;
  closeAll: () => Promise<void>;
} {
  const clients: ConvexClient[] = [];
  return {
    client: () => {
      const created = newClient(url());
      clients.push(created);
      return created;
    },
    closeAll: async () => {
      await Promise.all(clients.splice(0).map((c) => c.close()));
    },
  };
}

export function newHttpClient(url: string): ConvexHttpClient {
  return new ConvexHttpClient(url, { skipConvexDeploymentUrlCheck: true, logger: false });
}

type AnyArgs = Record<string, Value>;
export const q = (name: string) => makeFunctionReference<"query", AnyArgs, Value>(name);
export const m = (name: string) => makeFunctionReference<"mutation", AnyArgs, Value>(name);
export const a = (name: string) => makeFunctionReference<"action", AnyArgs, Value>(name);

/** Subscribes and records every value; `next(pred)` waits for a value matching `pred`. */
export function watch<T extends Value>(
  client: ConvexClient,
  query: FunctionReference<"query", "public", AnyArgs, Value>,
  args: AnyArgs,
): {
  values: T[];
  errors: Error[];
  next(pred: (value: T) => boolean, timeoutMs?: number): Promise<T>;
  stop(): void;
} {
  const values: T[] = [];
  const errors: Error[] = [];
  const waiters: { pred: (value: T) => boolean; resolve: (value: T) => void }[] = [];
  const unsubscribe = client.onUpdate(
    query,
    args,
    (value) => {
      values.push(value as T);
      for (const waiter of [...waiters]) {
        if (waiter.pred(value as T)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(value as T);
        }
      }
    },
    (error) => errors.push(error),
  );
  return {
    values,
    errors,
    next(pred, timeoutMs = 5000) {
      const found = values.find(pred);
      if (found !== undefined) return Promise.resolve(found);
      return new Promise<T>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`timed out; values seen: ${JSON.stringify(values)}`)),
          timeoutMs,
        );
        waiters.push({
          pred,
          resolve: (value) => {
            clearTimeout(timer);
            resolve(value);
          },
        });
      });
    },
    stop: () => unsubscribe(),
  };
}

/**
 * Makes `udfPath` with `{ channel }` slow on `backend`: its first run takes 300 ms (so a pass re-runs
 * it after quicker queries), each later run waits for `release()`. `restore()` releases it and puts
 * the backend back.
 */
export function slowQuery(backend: RunningLocalBackend, udfPath: string, channel: string) {
  // The engine's: subscriptions run their queries there.
  const engine = backend.core.engine();
  const original = engine.call.bind(engine);
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let runs = 0;
  engine.call = async (path, args, options) => {
    if (path === udfPath && (args as { channel?: string }).channel === channel) {
      runs += 1;
      await (runs > 1 ? gate : sleep(300));
    }
    return await original(path, args, options);
  };
  return {
    release,
    runs: () => runs,
    restore() {
      release();
      engine.call = original;
    },
  };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await sleep(20);
  }
}

/** A bare sync socket: sends exactly what a test says and records every server message. */
export type RawSyncSocket = {
  ws: WebSocket;
  messages: Record<string, unknown>[];
  /** Resolves with the first message (seen or to come) matching `pred`. */
  next(
    pred: (message: Record<string, unknown>) => boolean,
    timeoutMs?: number,
  ): Promise<Record<string, unknown>>;
  /** Resolves with the close code once the server closes the socket. */
  closed: Promise<number>;
  send(message: unknown): void;
};

export async function openRawSync(url: string): Promise<RawSyncSocket> {
  const ws = new WebSocket(`${url.replace(/^http/, "ws")}/api/1.48.0/sync`);
  const messages: Record<string, unknown>[] = [];
  const waiters = new Set<() => void>();
  ws.on("message", (data: Buffer) => {
    messages.push(JSON.parse(data.toString()) as Record<string, unknown>);
    for (const wake of [...waiters]) wake();
  });
  const closed = new Promise<number>((resolve) => ws.once("close", (code: number) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("error", reject);
  });
  return {
    ws,
    messages,
    closed,
    send: (message) => ws.send(typeof message === "string" ? message : JSON.stringify(message)),
    next(pred, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = messages.find(pred);
          if (!found) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no such message; seen: ${JSON.stringify(messages).slice(0, 2000)}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
  };
}

/** Documents written by every function the backend ran so far (its own statistics). */
export function documentsWritten(backend: RunningLocalBackend): number {
  return Object.values(backend.stats().functions).reduce((sum, stats) => sum + stats.docsWritten, 0);
}

/**
 * `npm run backend` as its own process (so it can be killed outright) on the fixture functions; `entry`
 * runs another script taking the same arguments, `port` a chosen port.
 */
export type SpawnedBackend = { url: string; child: ChildProcess; exited: Promise<number | null> };

export async function spawnFixtureBackend(
  dataDir: string,
  functionsDir = fixtureDir,
  options: { entry?: string; port?: number; env?: Record<string, string> } = {},
): Promise<SpawnedBackend> {
  const server = options.entry ?? path.join(import.meta.dirname, "..", "host", "server.ts");
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      server,
      "--port",
      String(options.port ?? 0),
      "--site-port",
      "0",
      "--data-dir",
      dataDir,
      "--functions",
      functionsDir,
    ],
    {
      cwd: path.join(import.meta.dirname, "..", ".."),
      stdio: "pipe",
      env: { ...process.env, ...options.env },
    },
  );
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  let output = "";
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the backend did not start:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Convex URL \(VITE_CONVEX_URL\): (http\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the backend exited (${String(code)}) before it started:\n${output}`));
    });
  });
  return { url, child, exited };
}

/**
 * Sends `count` mutations (`messages:send`, bodies `${label}-<n>`) with a few in flight at a time and
 * kills the backend with SIGKILL once `killAfter` of them were acknowledged. Resolves with the
 * acknowledged bodies.
 */
export async function mutateThenKill(
  backend: SpawnedBackend,
  options: { channel: string; label: string; count: number; killAfter: number; concurrency?: number },
): Promise<string[]> {
  const http = newHttpClient(backend.url);
  const acknowledged: string[] = [];
  let next = 0;
  let killed = false;
  await Promise.all(
    Array.from({ length: options.concurrency ?? 8 }, async () => {
      while (!killed && next < options.count) {
        const body = `${options.label}-${next++}`;
        try {
          await http.mutation(m("messages:send"), { channel: options.channel, body });
        } catch {
          continue; // in flight when the process died: it may or may not have been kept
        }
        if (killed) continue;
        acknowledged.push(body);
        if (acknowledged.length >= options.killAfter) {
          killed = true;
          backend.child.kill("SIGKILL");
        }
      }
    }),
  );
  if (!killed) backend.child.kill("SIGKILL");
  await backend.exited;
  return acknowledged;
}

/**
 * Uploads `rows` (JSON lines) to be appended to `messages` as `npx convex import` does (start, one part,
 * finish) through the caller's admin `post`; resolves with the import's id (parsed next, then waiting
 * for confirmation).
 */
export async function uploadImport(
  post: (route: string, body: string) => Promise<unknown>,
  rows: string[],
): Promise<string> {
  const { uploadToken } = (await post("/api/import/start_upload", "")) as { uploadToken: string };
  const partToken = await post(
    `/api/import/upload_part?uploadToken=${uploadToken}&partNumber=1`,
    rows.join("\n"),
  );
  const { importId } = (await post(
    "/api/import/finish_upload",
    JSON.stringify({
      import: { format: "jsonLines", tableName: "messages", mode: "append" },
      uploadToken,
      partTokens: [partToken],
    }),
  )) as { importId: string };
  return importId;
}

/** The Convex CLI from node_modules (`npx convex`). */
export const convexCliEntry = path.join(
  import.meta.dirname,
  "..",
  "..",
  "node_modules",
  "convex",
  "bin",
  "main.js",
);

/** The CLI's environment against `backend` as a self-hosted deployment (CI: no error reports sent). */
export function convexCliEnv(backend: { url: string; adminKey: string }, adminKey = backend.adminKey) {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    CONVEX_SELF_HOSTED_URL: backend.url,
    CONVEX_SELF_HOSTED_ADMIN_KEY: adminKey,
    CI: "1",
  };
  delete env.CONVEX_DEPLOYMENT;
  delete env.CONVEX_DEPLOY_KEY;
  return env;
}

export type CliResult = { ok: boolean; stdout: string; stderr: string };

/** Runs `npx convex <args>` against `backend` and waits for it to end. */
export function runConvexCli(
  backend: { url: string; adminKey: string },
  args: string[],
  options: { adminKey?: string; timeoutMs?: number } = {},
): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [convexCliEntry, ...args], {
      cwd: path.join(import.meta.dirname, "..", ".."),
      env: convexCliEnv(backend, options.adminKey),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill(), options.timeoutMs ?? 45_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ ok: code === 0, stdout, stderr });
    });
  });
}

/**
 * A reverse proxy on this machine, as nginx or Caddy is set up in front of `npm start`: it sends each
 * request on to `target` with the target's Host, adding who the visitor is (X-Forwarded-For and the rest).
 */
export async function startForwardingProxy(
  target: string,
): Promise<{ url: string; close: () => Promise<void> }> {
  const upstream = new URL(target);
  const server: Server = createHttpServer((req, res) => {
    const headers: IncomingHttpHeaders = {
      ...req.headers,
      host: upstream.host,
      "x-forwarded-for": req.socket.remoteAddress,
      "x-forwarded-host": req.headers.host,
      "x-forwarded-proto": "http",
    };
    const forward = httpRequest(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on("error", () => {
      res.statusCode = 502;
      res.end();
    });
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export type RawAnswer = { status: number; headers: IncomingHttpHeaders; body: string };

/** One request with exactly these headers (fetch will not let a caller set Host). */
export function rawRequest(
  url: string,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string },
): Promise<RawAnswer> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: options.method ?? "GET",
        path: options.path,
        headers: { ...(options.body ? { "Content-Type": "application/json" } : {}), ...options.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString(),
          }),
        );
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}
