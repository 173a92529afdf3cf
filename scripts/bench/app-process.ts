/**
 * `npm start` (the production build served with the local backend) as a child process, as a visitor
 * meets it: the backend's work does not compete with the measuring process's event loop.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

export type AppProcess = {
  url: string;
  port: number;
  sitePort: number;
  child: ChildProcess;
  /** What it has printed so far. */
  output(): string;
  /** Milliseconds from the spawn to its "… on http://…" line. */
  startedInMs: number;
  /** SIGTERM (a graceful stop), then waits for it to exit. */
  stop(): Promise<void>;
};

export type AppProcessOptions = {
  /** The command after `node` (default: `npm start`'s, scripts/serve/start.mjs). */
  command?: string[];
  /** Where it runs (default: the project). */
  cwd?: string;
  /** Ports (default: free ones). */
  port?: number;
  sitePort?: number;
  /** Seed a fresh store with the demo data (default true). */
  demoData?: boolean;
  extraArgs?: string[];
};

/**
 * Starts `npm start` (the server's build, `npm run build` first) on `dataDir` (demo data when new:
 * `--demo-data`) and waits until it listens.
 */
export async function startAppProcess(dataDir: string, options: AppProcessOptions = {}): Promise<AppProcess> {
  const port = options.port ?? (await freePort());
  const sitePort = options.sitePort ?? (await freePort());
  const began = performance.now();
  const child = spawn(
    process.execPath,
    [
      ...(options.command ?? ["scripts/serve/start.mjs"]),
      ...["--port", String(port), "--site-port", String(sitePort), "--data-dir", dataDir],
      ...(options.demoData === false ? [] : ["--demo-data"]),
      ...(options.extraArgs ?? []),
    ],
    { cwd: options.cwd ?? root, stdio: ["ignore", "pipe", "pipe"] },
  );
  let printed = "";
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.stderr?.on("data", (chunk: Buffer) => {
    printed += chunk.toString();
    process.stderr.write(chunk);
  });
  await new Promise<void>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`npm start exited with ${code}:\n${printed}`)));
    child.stdout?.on("data", (chunk: Buffer) => {
      printed += chunk.toString();
      if (printed.includes(" on http://")) resolve();
    });
  });
  const startedInMs = performance.now() - began;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    sitePort,
    child,
    output: () => printed,
    startedInMs,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}
