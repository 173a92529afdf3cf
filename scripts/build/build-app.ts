/**
 * `npm run build` (after `tsc -b`): `vite build`'s browser app and the server's entry for page renders
 * (dist/.ssr/, decision 040; Vite's `build()` alone builds the browser's app only), then the server with
 * the embedded backend and the functions (dist/.server/, decision 093), which `npm start` runs.
 */
import path from "node:path";
import { createBuilder } from "vite";
import { buildServer } from "./build-server.ts";

const root = path.resolve(import.meta.dirname, "../..");

/**
 * Builds for production even in a process that ran Vite's dev server first (`npm run bench` does): that
 * server set NODE_ENV to "development", which a build keeps, shipping React's development build.
 */
export async function buildApp(options: { logLevel?: "info" | "warn" } = {}): Promise<void> {
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = "production";
  try {
    const builder = await createBuilder({
      configFile: path.join(root, "vite.config.ts"),
      root,
      mode: "production",
      logLevel: options.logLevel ?? "warn",
    });
    await builder.buildApp();
    await buildServer(path.join(root, "dist"));
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  await buildApp({ logLevel: "info" });
}
