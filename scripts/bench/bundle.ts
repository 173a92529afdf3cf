/**
 * `npm run bench:bundle`: builds the app and prints the initial JavaScript for `/` (gzip) against
 * issue 18's budget (120 KB; Clerk's own script not counted — Clerk is loaded lazily, in Clerk mode
 * only), then what each page loads beyond it: the session (Convex and sign-in, every page), the route
 * icons (every page) and each route's own chunks. `--no-build` measures the existing dist/.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { initialJsFiles, type Manifest } from "./initial-js";
import { buildApp } from "../build/build-app";
import { PUBLIC_CHUNK, PUBLIC_ROOTS } from "../build/chunks";

const BUDGET_KB = 120;
const HOME_ROUTE = "src/features/home/home-page.tsx";
/** Loaded with every page, beside its route's module (src/app/router.tsx). */
const EVERY_PAGE = ["src/app/session-layout.tsx", "src/components/ui/route-icons.ts"];
const root = path.resolve(import.meta.dirname, "../..");
const dist = path.join(root, "dist");

const gzipKb = (file: string) => gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length / 1024;
const sumKb = (files: string[]) => files.reduce((sum, file) => sum + gzipKb(file), 0);
const kb = (value: number) => `${value.toFixed(1).padStart(6)} KB`;

/**
 * A module's key in the manifest: its own, or the public pages' chunk's for a module built into it
 * (scripts/build/chunks.ts), which the manifest lists by chunk, not by module.
 */
function manifestKey(manifest: Manifest, src: string): string {
  if (manifest[src] || !PUBLIC_ROOTS.includes(path.join(root, src))) return src;
  const key = Object.keys(manifest).find((candidate) => manifest[candidate]?.name === PUBLIC_CHUNK);
  return key ?? src;
}

/** The files `keys` add to what is loaded already, and their size. */
function ownChunks(manifest: Manifest, keys: string[], loaded: string[]): { files: string[]; kb: number } {
  const files = initialJsFiles(
    manifest,
    keys.map((key) => manifestKey(manifest, key)),
  ).filter((file) => !loaded.includes(file));
  return { files, kb: sumKb(files) };
}

async function main() {
  if (!process.argv.includes("--no-build")) {
    // Built without a deployment, as `npm start` serves it: local mode, where Clerk is never loaded.
    await buildApp();
  }
  const manifest = JSON.parse(readFileSync(path.join(dist, ".vite/manifest.json"), "utf8")) as Manifest;
  const initial = initialJsFiles(manifest);
  const total = sumKb(initial);
  for (const file of initial) console.log(`${kb(gzipKb(file))}  ${file}`);
  const verdict = total <= BUDGET_KB ? "ok" : "OVER BUDGET";
  console.log(
    `Initial JS for / (entry + static imports, gzip): ${total.toFixed(1)} KB / ${BUDGET_KB} KB — ${verdict}`,
  );

  // The router starts these at once, in parallel, when it matches the first page.
  const everyPage = ownChunks(manifest, EVERY_PAGE, initial);
  console.log(`\nEvery page, beside its route (${EVERY_PAGE.join(", ")}): ${everyPage.kb.toFixed(1)} KB`);
  for (const file of everyPage.files) console.log(`${kb(gzipKb(file))}  ${file}`);
  const shared = [...initial, ...everyPage.files];
  // The router's lazy routes: the dynamic imports of the initial chunks.
  const routes = Object.values(manifest)
    .filter((chunk) => initial.includes(chunk.file))
    .flatMap((chunk) => chunk.dynamicImports ?? [])
    .filter((key) => /^src\/features\/.*\.tsx$/.test(key));
  console.log("\nEach route's own chunks (beyond the initial JS and the above):");
  for (const key of routes) {
    const own = ownChunks(manifest, [key], shared);
    const files = own.files.map((file) => `${path.basename(file)} ${gzipKb(file).toFixed(1)}`);
    console.log(`${kb(own.kb)}  ${key}: ${files.join(", ")}`);
  }
  if (manifest[HOME_ROUTE]) {
    const home = ownChunks(manifest, [HOME_ROUTE], shared);
    console.log(`\n/ with its session, icons and route: ${(total + everyPage.kb + home.kb).toFixed(1)} KB`);
  }
  if (total > BUDGET_KB) process.exitCode = 1;
}

await main();
