/**
 * `npm start` (the production build served with the local backend) as a child process, as a visitor
 * meets it: the backend's work does not compete with the measuring process's event loop.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

export type AppProcess = { url: string; child: ChildProcess; stop(): Promise<void> };

/**
 * Starts `scripts/serve/server.ts` on `dataDir` (demo data when new: `--demo-data`), with `args` besides,
 * and waits until it listens.
 */
export async function startAppProcess(dataDir: string, args: readonly string[] = []): Promise<AppProcess> {
  const [port, sitePort] = [await freePort(), await freePort()];
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      "scripts/serve/server.ts",
      ...["--port", String(port), "--site-port", String(sitePort), "--data-dir", dataDir, "--demo-data"],
      ...args,
    ],
    { cwd: root, stdio: ["ignore", "pipe", "inherit"] },
  );
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`npm start exited with ${code}`)));
    child.stdout?.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes(" on http://")) resolve();
    });
  });
  child.stdout?.resume();
  return {
    url: `http://127.0.0.1:${port}`,
    child,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}
