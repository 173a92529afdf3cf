/**
 * The standalone backend (`npm run backend`, i.e. `tsx local-backend/host/server.ts`) as a child process of
 * the benchmark, on a given data folder: its start-up time, its resident memory, its per-function
 * statistics and clients for it. It runs without crons (nothing runs besides what the benchmark
 * asks), without file watching and without function log lines, and with the benchmark's own functions
 * (`scripts/bench/functions/`) beside the project's. With `BENCH_CPU_PROF=<dir>` each
 * process writes a CPU profile (`--cpu-prof`) there when it stops.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { ConvexHttpClient } from "convex/browser";
import { makeFunctionReference } from "convex/server";
import type { Value } from "convex/values";
import { api } from "../../convex/_generated/api";

const root = path.resolve(import.meta.dirname, "../..");

export type Identity = { sub: string; email: string; name: string };
export type FunctionStats = { calls: number; totalMs: number; maxMs: number; docsRead: number };

/** Convex's admin HTTP client call, acting as `identity` when given (`npx convex run --identity`). */
type AdminClient = ConvexHttpClient & { setAdminAuth(key: string, identity?: Record<string, unknown>): void };

export class BackendProcess {
  private constructor(
    readonly child: ChildProcess,
    readonly exited: Promise<number | null>,
    readonly url: string,
    readonly adminKey: string,
    /** From spawning the process to its first answered query. */
    readonly startupMs: number,
  ) {}

  /**
   * Starts `tsx local-backend/host/server.ts` on `dataDir` (seeding the demo data when the folder is new)
   * and waits until it has answered a first query.
   */
  static async start(dataDir: string): Promise<BackendProcess> {
    const started = performance.now();
    const child = spawn(
      process.execPath,
      [
        ...(process.env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []),
        "--import",
        "tsx",
        path.join(root, "local-backend/host/server.ts"),
        ...["--port", "0", "--site-port", "0", "--data-dir", dataDir],
        ...["--no-crons", "--no-watch", "--quiet"],
        // The benchmark's generators (benchData:*), which no deployment gets.
        ...["--extra-functions", path.join(root, "scripts/bench/functions")],
      ],
      { cwd: root, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env } },
    );
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    let output = "";
    const printed = await new Promise<{ url: string; adminKey: string }>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`The backend did not start:\n${output}`)), 120_000);
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        const url = /Convex URL \(VITE_CONVEX_URL\): (http\S+)/.exec(output)?.[1];
        const adminKey = /CONVEX_SELF_HOSTED_ADMIN_KEY='([^']+)'/.exec(output)?.[1];
        if (url && adminKey) {
          clearTimeout(timer);
          resolve({ url, adminKey });
        }
      };
      child.stdout.on("data", onData);
      child.stderr.on("data", onData);
      void exited.then((code) => {
        clearTimeout(timer);
        reject(new Error(`The backend exited (${String(code)}) before it started:\n${output}`));
      });
    });
    // Errors it prints later are passed on; its other lines ("SIGTERM: saving and stopping…") are not.
    child.stdout.removeAllListeners("data");
    child.stderr.removeAllListeners("data");
    child.stdout.resume();
    child.stderr.on("data", (chunk: Buffer) => process.stderr.write(chunk));
    await new ConvexHttpClient(printed.url).query(api.streams.listLiveNow, {});
    const startupMs = performance.now() - started;
    return new BackendProcess(child, exited, printed.url, printed.adminKey, startupMs);
  }

  /** Resident memory of the process (VmRSS), in bytes. */
  rss(): number {
    const status = readFileSync(`/proc/${this.child.pid}/status`, "utf8");
    const kb = /VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1];
    if (!kb) throw new Error("No VmRSS in /proc/<pid>/status (Linux only).");
    return Number(kb) * 1024;
  }

  /** The per-function statistics the backend serves at `/local-backend/stats`. */
  async stats(): Promise<Record<string, FunctionStats>> {
    const response = await fetch(`${this.url}/local-backend/stats`);
    return ((await response.json()) as { functions: Record<string, FunctionStats> }).functions;
  }

  /**
   * One call of `udfPath` (made by `call`, nothing else running): its time as the backend measured
   * it (the function's run, a mutation's commit included: the growth of `totalMs` in its stats), the
   * time the client waited, and the documents it read.
   */
  async sample(
    udfPath: string,
    call: () => Promise<unknown>,
  ): Promise<{ backendMs: number; clientMs: number; docsRead: number }> {
    const before = (await this.stats())[udfPath];
    const started = performance.now();
    await call();
    const clientMs = performance.now() - started;
    const after = (await this.stats())[udfPath];
    if (!after || after.calls !== (before?.calls ?? 0) + 1) {
      throw new Error(`Expected one call of ${udfPath} in the backend's stats.`);
    }
    return {
      backendMs: after.totalMs - (before?.totalMs ?? 0),
      clientMs,
      docsRead: after.docsRead - (before?.docsRead ?? 0),
    };
  }

  /** An HTTP client with the admin key (internal functions too), acting as `identity` if given. */
  admin(identity?: { subject: string; issuer: string }): ConvexHttpClient {
    const client = new ConvexHttpClient(this.url) as AdminClient;
    client.setAdminAuth(this.adminKey, identity);
    return client;
  }

  /** Runs an internal mutation with the admin key. */
  async runMutation(name: string, args: Record<string, Value>): Promise<unknown> {
    return await this.admin().mutation(makeFunctionReference<"mutation">(name), args);
  }

  /** A development token for `identity` (`POST /local-auth/token`, loopback only). */
  async token(identity: Identity): Promise<string> {
    const response = await fetch(`${this.url}/local-auth/token`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(identity),
    });
    if (!response.ok) throw new Error(`Token refused: ${response.status} ${await response.text()}`);
    return ((await response.json()) as { token: string }).token;
  }

  /** Stops it as Ctrl-C does and waits for the process to end. */
  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill("SIGTERM");
    await this.exited;
  }
}
