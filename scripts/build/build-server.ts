/**
 * `npm run build`'s server half (decision 093): the server with the embedded backend, and the app's
 * Convex functions, bundled to plain JavaScript in `dist/.server/`, so `npm start` runs on `node` with
 * the production dependencies only (no TypeScript, Vite or tsx at run time):
 *
 *   engine/server.mjs    scripts/serve/server.ts and everything it imports of the project
 *   engine/isolate.mjs   an isolate's own code (local-backend/runtime/isolate/isolate.ts)
 *   engine/backup-restore.mjs  `npm run backup:restore` (scripts/serve/backup-restore.ts)
 *   engine/bootstrap.mjs an isolate's entry, as it is (plain JavaScript already)
 *   convex/              each functions module, as Convex's CLI bundles them for a push (one entry per
 *                        file, shared code split out to convex-chunks/), and convex.config.ts as it is:
 *                        the engine bundles the components it names when it starts
 *
 * npm packages stay imports, resolved from node_modules at run time: every one of them must be a
 * dependency (`serverPackages` names them; a test holds package.json to it).
 */
import { copyFileSync, rmSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import { build, type BuildOptions, type Metafile } from "esbuild";
import { listFunctionFiles } from "../../local-backend/runtime/modules.ts";
import { SERVER_BUILD_DIR } from "./build-info.ts";

const root = path.resolve(import.meta.dirname, "../..");
const isolateDir = path.join(root, "local-backend", "runtime", "isolate");

/** What both bundles share: Node's ESM, packages left to node_modules, source maps for stack traces. */
const COMMON: BuildOptions = {
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20.19",
  packages: "external",
  sourcemap: "linked",
  logLevel: "warning",
  legalComments: "none",
};

/** The npm packages a bundle imports (`convex/server` is `convex`); `dynamic`: only through `import()`. */
function packagesOf(metafile: Metafile): { always: Set<string>; dynamic: Set<string> } {
  const always = new Set<string>();
  const dynamic = new Set<string>();
  for (const input of Object.values(metafile.inputs)) {
    for (const imported of input.imports) {
      if (!imported.external || imported.path.startsWith("node:") || builtinModules.includes(imported.path))
        continue;
      const parts = imported.path.split("/");
      const name = imported.path.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] ?? "");
      (imported.kind === "dynamic-import" ? dynamic : always).add(name);
    }
  }
  for (const name of always) dynamic.delete(name);
  return { always, dynamic };
}

export type ServerBuild = {
  /** npm packages the server imports when it loads, and those it imports only on some paths. */
  packages: { always: string[]; dynamic: string[] };
};

/** Builds the server into `distDir`/.server (replacing what was there). */
export async function buildServer(distDir = path.join(root, "dist")): Promise<ServerBuild> {
  const outdir = path.join(distDir, SERVER_BUILD_DIR);
  rmSync(outdir, { recursive: true, force: true });
  const engine = await build({
    ...COMMON,
    entryPoints: {
      "engine/server": path.join(root, "scripts", "serve", "server.ts"),
      "engine/isolate": path.join(isolateDir, "isolate.ts"),
      "engine/backup-restore": path.join(root, "scripts", "serve", "backup-restore.ts"),
    },
    outdir,
    // Beside the entries: the engine finds its files (bootstrap.mjs) relative to its own.
    chunkNames: "engine/[name]-[hash]",
    outExtension: { ".js": ".mjs" },
    metafile: true,
    define: { __LIVELOCAL_BUILT__: "true" },
  });
  copyFileSync(path.join(isolateDir, "bootstrap.mjs"), path.join(outdir, "engine", "bootstrap.mjs"));

  const functionsDir = path.join(root, "convex");
  const functions = await build({
    ...COMMON,
    // What Convex pushes (no name with two dots: tests, their setup, convex.config.ts), and auth.config.ts,
    // which the engine reads as Convex's CLI does.
    entryPoints: listFunctionFiles(functionsDir).filter(
      (file) => path.basename(file).split(".").length <= 2 || path.basename(file) === "auth.config.ts",
    ),
    outbase: root,
    outdir,
    chunkNames: "convex-chunks/[name]-[hash]",
    metafile: true,
  });
  copyFileSync(path.join(functionsDir, "convex.config.ts"), path.join(outdir, "convex", "convex.config.ts"));
  // The functions' `.js` files are ES modules.
  writeFileSync(path.join(outdir, "package.json"), `${JSON.stringify({ type: "module" })}\n`);

  const engineImports = packagesOf(engine.metafile);
  const functionImports = packagesOf(functions.metafile);
  const always = new Set([...engineImports.always, ...functionImports.always]);
  const dynamic = new Set(
    [...engineImports.dynamic, ...functionImports.dynamic].filter((p) => !always.has(p)),
  );
  return { packages: { always: [...always].sort(), dynamic: [...dynamic].sort() } };
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const started = performance.now();
  const { packages } = await buildServer();
  console.log(
    `Built the server into dist/${SERVER_BUILD_DIR}/ in ${Math.round(performance.now() - started)} ms ` +
      `(npm packages it imports: ${packages.always.join(", ")})`,
  );
}
