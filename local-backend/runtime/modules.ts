/**
 * Loading the functions folder: a modules map (keys like `/convex/messages.ts`) whose functions run
 * in isolates (worker threads, isolate/pool.ts; decision 082) that load them through Vite's module
 * runner, so edited files apply on the next call, and a watcher telling the backend which files
 * changed; components' bundles and HTTP actions run in the same isolates. The server's build has them
 * prebuilt (`createBuiltFunctionSource`, decision 093). Extra folders (the benchmark's
 * and the e2e suite's own functions) join the map as if their files were in the functions folder, so
 * no deployment of that folder ever gets them (decision 088). Configuration modules
 * (`schema`, `crons`, `convex.config`, `auth.config`) load here through Vite's `ssrLoadModule`.
 */
import { readdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ViteDevServer } from "vite";
import { BUILT } from "../core/built.ts";
import type { ModulesMap } from "./engine.ts";
import { IsolatePool } from "./isolate/pool.ts";

export type FunctionsChange = { file: string; event: "add" | "change" | "unlink" };

export interface FunctionSource {
  /** Absolute path of the functions folder (the one holding `_generated`). */
  readonly dir: string;
  /** The modules map as the folder is now. */
  modules(): ModulesMap;
  /** A component's bundled module (its file URL), its functions standing in for those in isolates. */
  componentModule(href: string): Promise<Record<string, unknown>>;
  /** Loads a module by path relative to the folder, without extension (`schema`, `crons`). */
  load(modulePath: string): Promise<Record<string, unknown> | null>;
  /** Calls `listener` with changes under the folder. Returns an unsubscribe function. */
  watch(listener: (change: FunctionsChange) => void): () => void;
  close(): Promise<void>;
}

const MODULE_FILE = /\.(?:[cm]?[jt]s)$/;
const SKIPPED_FILE = /\.(?:test|spec)\.[cm]?[jt]sx?$|\.d\.[cm]?ts$/;

/** Files the engine may load: `*.*s` under the folder, without tests and declarations. */
export function listFunctionFiles(dir: string): string[] {
  const files: string[] = [];
  const walk = (current: string) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      if (entry.name === "node_modules" || entry.name.startsWith(".")) continue;
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (MODULE_FILE.test(entry.name) && !SKIPPED_FILE.test(entry.name)) files.push(full);
    }
  };
  walk(dir);
  return files.sort();
}

function moduleKey(dir: string, file: string): string {
  return "/convex/" + path.relative(dir, file).split(path.sep).join("/");
}

function findModuleFile(dir: string, modulePath: string): string | null {
  for (const ext of [".ts", ".js", ".mts", ".mjs", ".cts", ".cjs"]) {
    const file = path.join(dir, modulePath + ext);
    try {
      if (statSync(file).isFile()) return file;
    } catch {
      // try the next extension
    }
  }
  return null;
}

/**
 * The modules map of `dir` and the extra folders, each module loaded in `isolates`: what both function
 * sources give the engine.
 */
function modulesOf(dir: string, extraDirs: readonly string[], isolates: IsolatePool): ModulesMap {
  const map: ModulesMap = {};
  for (const folder of [dir, ...extraDirs]) {
    for (const file of listFunctionFiles(folder)) {
      // Convex deploys no functions from a file with more than one dot (`convex.config.ts`,
      // `auth.config.ts`: those are read as configuration, through `load`), so neither do we.
      if ((path.basename(file).match(/\./g) ?? []).length > 1) continue;
      const key = moduleKey(folder, file);
      if (map[key]) throw new Error(`${file} has the same module path as a file of ${dir}.`);
      map[key] = () => isolates.module(file);
    }
  }
  return map;
}

/**
 * A function source backed by a Vite dev server: the app's own (in the Vite plugin) or one created
 * here in middleware mode (standalone server and tests).
 */
export async function createViteFunctionSource(options: {
  functionsDir: string;
  /** Folders whose modules join the functions folder's, keyed as if they were in it. */
  extraDirs?: readonly string[];
  vite?: ViteDevServer;
}): Promise<FunctionSource> {
  const dir = path.resolve(options.functionsDir);
  const extraDirs = (options.extraDirs ?? []).map((extra) => path.resolve(extra));
  let vite = options.vite;
  const ownsVite = vite === undefined;
  if (!vite) {
    const { createServer } = await import("vite");
    vite = await createServer({
      configFile: false,
      root: path.dirname(dir),
      // Its own cache, so it never rewrites the app dev server's optimized deps in node_modules/.vite.
      cacheDir: path.join(tmpdir(), "livelocal-local-backend-vite"),
      logLevel: "warn",
      appType: "custom",
      clearScreen: false,
      optimizeDeps: { noDiscovery: true, include: [] },
      server: {
        middlewareMode: true,
        hmr: false,
        ws: false,
        watch: { ignored: ["**/node_modules/**", "**/.git/**", "**/.local-backend/**", "**/dist/**"] },
      },
    });
  }
  const server = vite;
  const loadFile = async (file: string) => (await server.ssrLoadModule(file)) as Record<string, unknown>;
  const isolates = new IsolatePool(server);
  const invalidate = (_event: string, file: string) => {
    const resolved = path.resolve(file);
    if ([dir, ...extraDirs].some((folder) => resolved.startsWith(folder + path.sep))) isolates.invalidate();
  };
  server.watcher.on("all", invalidate);
  return {
    dir,
    modules: () => modulesOf(dir, extraDirs, isolates),
    componentModule: (href) => isolates.module(href),
    async load(modulePath) {
      const file = findModuleFile(dir, modulePath);
      return file ? await loadFile(file) : null;
    },
    watch(listener) {
      const onEvent = (event: string, file: string) => {
        if (event !== "add" && event !== "change" && event !== "unlink") return;
        const resolved = path.resolve(file);
        if (![dir, ...extraDirs].some((folder) => resolved.startsWith(folder + path.sep))) return;
        if (!MODULE_FILE.test(resolved) || SKIPPED_FILE.test(resolved)) return;
        listener({ file: resolved, event });
      };
      server.watcher.on("all", onEvent);
      return () => {
        server.watcher.off("all", onEvent);
      };
    },
    async close() {
      server.watcher.off("all", invalidate);
      await isolates.close();
      if (ownsVite) await server.close();
    },
  };
}

/**
 * The functions as the server's build holds them (`dist/.server/convex/`, plain JavaScript bundled by
 * `npm run build`; decision 093): imported by Node itself, here and in the isolates, without Vite. They
 * never change while the server runs, so nothing is watched.
 */
export function createBuiltFunctionSource(options: { functionsDir: string }): FunctionSource {
  if (!BUILT) throw new Error("Built functions run only in the server's build (npm run build && npm start).");
  const dir = path.resolve(options.functionsDir);
  const isolates = new IsolatePool(null);
  return {
    dir,
    modules: () => modulesOf(dir, [], isolates),
    componentModule: (href) => isolates.module(href),
    async load(modulePath) {
      const file = findModuleFile(dir, modulePath);
      return file ? ((await import(pathToFileURL(file).href)) as Record<string, unknown>) : null;
    },
    watch: () => () => undefined,
    close: () => isolates.close(),
  };
}
