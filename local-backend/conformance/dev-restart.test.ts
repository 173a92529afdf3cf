/**
 * `npm run dev`: Vite restarts its whole server when a file `vite.config.ts` imports changes (the
 * engine is one). The restarted server's backend waits for the old one to stop and release the data
 * folder, clients reconnect and are served, and the process keeps running; a second process on the
 * same folder is still refused (decision 083). Vite runs in a child process here, on a scratch
 * config that imports the plugin and one scratch module, whose change restarts it as an engine
 * file's does.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { renameSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import type { ConvexClient } from "convex/browser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixtureDir, m, newClient, newHttpClient, q, removeDir, tempDataDir, watch } from "./test-helpers.ts";

const viteBin = path.join(import.meta.dirname, "..", "..", "node_modules", "vite", "bin", "vite.js");
const plugin = path.join(import.meta.dirname, "..", "host", "vite-plugin.ts");

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

type Dev = {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
  saw(text: string): Promise<void>;
};

/** `vite` (the dev server) in a child process on the scratch config, on `port`. */
function startDev(dir: string, port: number): Dev {
  const child = spawn(
    process.execPath,
    [viteBin, "--config", path.join(dir, "vite.config.mts"), "--port", String(port), "--strictPort"],
    {
      // The repository's folder, as `npm run dev`'s: components are bundled under its node_modules.
      cwd: path.join(import.meta.dirname, "..", ".."),
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NO_COLOR: "1" },
    },
  );
  let output = "";
  const listeners = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    output += chunk.toString();
    for (const listener of listeners) listener();
  };
  child.stdout.on("data", onData);
  child.stderr.on("data", onData);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    child,
    output: () => output,
    exited,
    /** Resolves once the output has shown `text` once more than it had when this was called. */
    saw(text: string) {
      const count = () => output.split(text).length - 1;
      const before = count();
      return new Promise<void>((resolve, reject) => {
        const check = () => {
          if (count() > before) {
            listeners.delete(check);
            resolve();
          }
        };
        listeners.add(check);
        void exited.then((code) => reject(new Error(`vite exited (${String(code)}):\n${output}`)));
      });
    },
  };
}

describe("npm run dev when an engine file changes", { timeout: 180_000 }, () => {
  const dir = tempDataDir();
  const dataDir = path.join(dir, "data");
  const touched = path.join(dir, "engine-file.mts");
  let dev: Dev;
  let url = "";
  let client: ConvexClient;

  beforeAll(async () => {
    writeFileSync(touched, "export const version = 1;\n");
    writeFileSync(
      path.join(dir, "vite.config.mts"),
      [
        `import { localBackend } from ${JSON.stringify(plugin)};`,
        `import { version } from "./engine-file.mts";`,
        `void version;`,
        `export default {`,
        `  root: ${JSON.stringify(dir)},`,
        `  server: { host: "127.0.0.1" },`,
        `  plugins: [localBackend(${JSON.stringify({ functionsDir: fixtureDir, dataDir, crons: false, sitePort: 0, functionLogs: "none" })})],`,
        `};`,
        "",
      ].join("\n"),
    );
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    dev = startDev(dir, port);
    await dev.saw("Local backend (offline Convex)");
    client = newClient(url);
  }, 180_000);
  afterAll(async () => {
    await client?.close();
    dev?.child.kill();
    await dev?.exited;
    removeDir(dir);
  }, 60_000);

  it("restarts with the backend on the same data, and a subscribed client is served again", async () => {
    const http = newHttpClient(url);
    const count = watch<number>(client, q("messages:count"), { channel: "restart" });
    await http.mutation(m("messages:send"), { channel: "restart", body: "before" });
    await count.next((n) => n === 1);

    const restarted = dev.saw("server restarted");
    // Saved in one step, as editors save: a write in place can reach the watcher as two changes on a busy
    // machine, and Vite then restarts twice in a row, which this test is not about.
    writeFileSync(`${touched}.next`, "export const version = 2;\n");
    renameSync(`${touched}.next`, touched);
    await restarted;
    await dev.saw("Local backend (offline Convex)");
    expect(dev.output()).not.toContain("Another backend is using the data folder");

    // The data stayed, and the client, disconnected by the restart, is served by the new backend.
    await http.mutation(m("messages:send"), { channel: "restart", body: "after" });
    await count.next((n) => n === 2, 30_000);
    expect(dev.child.exitCode).toBeNull();
    count.stop();
  });

  it("still refuses a second process on the same data folder", async () => {
    const second = startDev(dir, await freePort());
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain(`Another backend is using the data folder ${dataDir}`);
    expect(dev.child.exitCode).toBeNull();
  });
});
