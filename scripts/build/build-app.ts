/**
 * `vite build` from a script: the browser's app and the server's entry (dist/.ssr/, decision 040), as
 * `npm run build` builds them. Vite's `build()` alone builds the browser's app only.
 */
import path from "node:path";
import { createBuilder } from "vite";

const root = path.resolve(import.meta.dirname, "../..");

export async function buildApp(): Promise<void> {
  const builder = await createBuilder({
    configFile: path.join(root, "vite.config.ts"),
    root,
    logLevel: "warn",
  });
  await builder.buildApp();
}
