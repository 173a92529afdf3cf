/**
 * The build files (docs/product.md#build-files): `builds/latest.json` (`{ id, builtAt }`, polled to learn
 * that a new build is out) and `builds/meta/{id}.json` (the build's manifest: id, time, and the public
 * deployment settings it was built with, which `npm start` reads for its Content-Security-Policy).
 * The id is also compiled into the app as `import.meta.env.VITE_BUILD_ID`.
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Plugin } from "vite";

export type BuildMeta = {
  id: string;
  builtAt: string;
  /** The Convex deployment built in, or null in local mode (the app's own origin). */
  convexUrl: string | null;
  /** Clerk's publishable key built in (public by design), or null for development sign-in. */
  clerkPublishableKey: string | null;
};

export const LATEST_BUILD_PATH = "builds/latest.json";

/**
 * The server's build (decision 093), in a dot folder the app handler never serves: `engine/` (the
 * server and the isolates' code, `server.mjs` its entry) and `convex/` (the app's functions).
 */
export const SERVER_BUILD_DIR = ".server";
export const builtFunctionsDir = (distDir: string) => path.join(distDir, SERVER_BUILD_DIR, "convex");
export const buildMetaPath = (id: string) => `builds/meta/${id}.json`;

/** The manifest of the build in `distDir` (the latest one). */
export function readBuildMeta(distDir: string): BuildMeta {
  try {
    const { id } = JSON.parse(readFileSync(path.join(distDir, LATEST_BUILD_PATH), "utf8")) as { id: string };
    return JSON.parse(readFileSync(path.join(distDir, buildMetaPath(id)), "utf8")) as BuildMeta;
  } catch {
    throw new Error(
      `No build in ${distDir} (or one from before builds/latest.json). Run \`npm run build\` first.`,
    );
  }
}

/** Sortable by time, unique enough for builds: base-36 milliseconds and a random suffix. */
export function newBuildId(now = Date.now()): string {
  return `${now.toString(36)}-${randomBytes(4).toString("hex")}`;
}

export function buildInfo(deployment: { convexUrl?: string; clerkPublishableKey?: string }): Plugin {
  const meta: BuildMeta = {
    id: newBuildId(),
    builtAt: new Date().toISOString(),
    convexUrl: deployment.convexUrl?.trim() || null,
    // Also without a deployment: Clerk's sign-in on the embedded backend (decision 073).
    clerkPublishableKey: deployment.clerkPublishableKey?.trim() || null,
  };
  return {
    name: "livelocal-build-info",
    apply: "build",
    config: () => ({ define: { "import.meta.env.VITE_BUILD_ID": JSON.stringify(meta.id) } }),
    generateBundle() {
      // Once, with the browser's build (the server's entry is built beside it; decision 040).
      if (this.environment.name !== "client") return;
      const latest = { id: meta.id, builtAt: meta.builtAt };
      this.emitFile({ type: "asset", fileName: LATEST_BUILD_PATH, source: `${JSON.stringify(latest)}\n` });
      this.emitFile({
        type: "asset",
        fileName: buildMetaPath(meta.id),
        source: `${JSON.stringify(meta, null, 2)}\n`,
      });
    },
  };
}
