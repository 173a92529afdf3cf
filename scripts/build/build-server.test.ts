/**
 * The server's build (decision 093): what `npm start` runs, and what it needs installed. Every npm
 * package the built server or functions import must be a dependency, or `npm ci --omit=dev` (what a
 * production image installs) leaves it out and the server cannot start.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { buildServer, type ServerBuild } from "./build-server.ts";

const root = path.resolve(import.meta.dirname, "../..");
const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
/** Imported by the engine only when it runs from its source (`npm run dev`), never by the build. */
const SOURCE_ONLY = ["vite"];

let dist: string;
let built: ServerBuild;

beforeAll(async () => {
  dist = mkdtempSync(path.join(tmpdir(), "livelocal-server-build-"));
  built = await buildServer(dist);
}, 120_000);
afterAll(() => rmSync(dist, { recursive: true, force: true }));

describe("npm run build's server", () => {
  test("imports only dependencies, never a devDependency", () => {
    expect(built.packages.always).toContain("better-sqlite3");
    expect(built.packages.always).toContain("convex");
    const notDependencies = built.packages.always.filter((name) => !(name in pkg.dependencies));
    expect(notDependencies).toEqual([]);
    const dynamic = built.packages.dynamic.filter(
      (name) => !(name in pkg.dependencies) && !SOURCE_ONLY.includes(name),
    );
    expect(dynamic).toEqual([]);
    for (const name of SOURCE_ONLY) expect(pkg.devDependencies).toHaveProperty(name);
  });

  test("holds the server, the isolates' code and the functions Convex would push, not their tests", () => {
    const at = (...parts: string[]) => path.join(dist, ".server", ...parts);
    for (const file of ["server.mjs", "isolate.mjs", "bootstrap.mjs", "backup-restore.mjs"])
      expect(existsSync(at("engine", file))).toBe(true);
    for (const file of [
      "streams.js",
      "schema.js",
      "crons.js",
      "auth.config.js",
      "_generated/api.js",
      "convex.config.ts",
    ])
      expect(existsSync(at("convex", file))).toBe(true);
    for (const file of ["streams.test.js", "test.setup.js", "testing/authorization.matrix.js"])
      expect(existsSync(at("convex", file))).toBe(false);
    // Built code knows it is built (local-backend/core/built.ts), and nothing of it names tsx or Vite.
    const server = readFileSync(at("engine", "server.mjs"), "utf8");
    expect(server).not.toMatch(/__LIVELOCAL_BUILT__/);
    expect(server).not.toMatch(/from "tsx|from "vite/);
  });
});
