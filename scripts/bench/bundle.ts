/**
 * `npm run bench:bundle`: builds the app and prints the initial JavaScript for `/` (gzip) against the
 * budget of issue 5 (150 KB, Clerk's own script not counted — Clerk is loaded lazily, in Clerk mode
 * only). `--no-build` measures the existing dist/.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { build } from "vite";
import { initialJsFiles, type Manifest } from "./initial-js";

const BUDGET_KB = 150;
const HOME_ROUTE = "src/features/home/home-page.tsx";
const root = path.resolve(import.meta.dirname, "../..");
const dist = path.join(root, "dist");

function gzipKb(files: string[]): { file: string; kb: number }[] {
  return files.map((file) => ({
    file,
    kb: gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length / 1024,
  }));
}

async function main() {
  if (!process.argv.includes("--no-build")) {
    // Built without a deployment, as `npm start` serves it: local mode, where Clerk is never loaded.
    await build({ configFile: path.join(root, "vite.config.ts"), root, logLevel: "warn" });
  }
  const manifest = JSON.parse(readFileSync(path.join(dist, ".vite/manifest.json"), "utf8")) as Manifest;
  const initial = gzipKb(initialJsFiles(manifest));
  const total = initial.reduce((sum, { kb }) => sum + kb, 0);
  for (const { file, kb } of initial) console.log(`  ${kb.toFixed(1).padStart(6)} KB  ${file}`);
  const verdict = total <= BUDGET_KB ? "ok" : "OVER BUDGET";
  console.log(
    `Initial JS for / (entry + static imports, gzip): ${total.toFixed(1)} KB / ${BUDGET_KB} KB — ${verdict}`,
  );
  // The home route's own chunk loads in parallel with the entry (the router starts it at once).
  if (manifest[HOME_ROUTE]) {
    const withHome = gzipKb(initialJsFiles(manifest, [HOME_ROUTE])).reduce((sum, { kb }) => sum + kb, 0);
    console.log(`  with the home route's chunks: ${withHome.toFixed(1)} KB`);
  }
  if (total > BUDGET_KB) process.exitCode = 1;
}

await main();
