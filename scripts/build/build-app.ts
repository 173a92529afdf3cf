/**
 * `vite build` from a script: the browser's app and the server's entry (dist/.ssr/, decision 040), as
 * `npm run build` builds them. Vite's `build()` alone builds the browser's app only.
 */
import path from "node:path";
import { createBuilder } from "vite";

const root = path.resolve(import.meta.dirname, "../..");

/**
 * Builds for production even in a process that ran Vite's dev server first (`npm run bench` does): that
 * server set NODE_ENV to "development", which a build keeps, shipping React's development build.
 */
export async function buildApp(): Promise<void> {
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = "production";
  try {
    const builder = await createBuilder({
      configFile: path.join(root, "vite.config.ts"),
      root,
      mode: "production",
      logLevel: "warn",
    });
    await builder.buildApp();
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
}
