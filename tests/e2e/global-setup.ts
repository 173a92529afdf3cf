/**
 * Starts the app as `npm run dev` does — Vite with the local backend seeded with demo data — in a
 * throwaway store, for the whole suite, and stops it afterwards. The backend also runs the suite's own
 * functions (tests/support/functions/, which no deployment gets), with which each file makes data of
 * its own (tests/e2e/own-seller.ts); the admin key they need is provided to the files.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createServer, type ViteDevServer } from "vite";
import type { TestProject } from "vitest/node";
import { AdminKey } from "../../local-backend/api/admin-key.ts";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    adminKey: string;
  }
}

const root = path.resolve(import.meta.dirname, "../..");
let server: ViteDevServer | undefined;
let dataDir: string | undefined;

export async function setup(project: TestProject) {
  dataDir = mkdtempSync(path.join(tmpdir(), "livelocal-e2e-"));
  process.env.LIVELOCAL_LOCAL_BACKEND_DATA_DIR = dataDir;
  process.env.LIVELOCAL_LOCAL_BACKEND_EXTRA_FUNCTIONS = path.join(root, "tests/support/functions");
  server = await createServer({
    configFile: path.join(root, "vite.config.ts"),
    root,
    logLevel: "warn",
    server: { port: 0, strictPort: false },
  });
  await server.listen();
  const address = server.httpServer?.address();
  if (!address || typeof address === "string") throw new Error("Vite did not report its port.");
  const baseUrl = `http://localhost:${address.port}`;
  await waitForBackend(baseUrl);
  project.provide("baseUrl", baseUrl);
  project.provide("adminKey", AdminKey.load(dataDir).value);
}

export async function teardown() {
  await server?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}

async function waitForBackend(baseUrl: string) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${baseUrl}/local-backend/stats`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error("The local backend did not start within 60 s.");
}
