/**
 * The app's Convex components, found as Convex's bundler finds them: `convex/convex.config.ts` is
 * bundled (esbuild), and every component definition it imports (a package's `convex.config.js`) is
 * stamped with its folder, which `app.use()` needs (`componentDefinitionPath`; Convex's bundler
 * stamps it the same way). Each component's modules (its functions and schema, `.js` in a package,
 * `.ts` in the app's own repo) are bundled from that folder as the CLI bundles them for a push:
 * packages' own files are written for bundlers (extension-less imports), so Node cannot import them
 * as they are.
 *
 * Bundles are written to `node_modules/.cache/livelocal-components/` under the app, so the packages
 * they import (`convex/server`, …) resolve to the app's own copies. They stay while the process runs:
 * the isolates that run a component's functions (decision 082) import them from there, each in its
 * own thread, and a new isolate may start at any time. Engines of one process share what was built
 * until the config file changes; a process's bundles are removed when it exits (or, if it was killed,
 * by the next one to start). A process may build them for others while it runs (`shareComponents`:
 * a page-test run's main process, for its workers), which take them (`adoptComponents`).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import type { SourceMapPayload } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build, type Message, type Plugin } from "esbuild";
import { isRunning } from "../core/files.ts";
import { registerComponentBundle } from "./error-frames.ts";
import {
  childComponents,
  isComponentDefinition,
  stampedDefinitionModule,
  type ComponentDefinitionObject as Definition,
} from "./convex-abi.ts";

export type InstalledComponent = {
  /** The component path (`rateLimiter`, `rateLimiter/batchWorker`). */
  path: string;
  /** The folder holding its `convex.config.js`, schema and function modules. */
  dir: string;
  /** Its modules: `lib` -> its bundle's URL, or why it cannot be built. */
  modules: Map<string, ComponentModule>;
  /** Child name -> the child's component path. */
  children: Map<string, string>;
};

/** Export conditions Convex's bundler uses. */
const CONDITIONS = ["convex", "module"];
const RAW = "livelocal-raw:";

/** Imported component configs come back stamped with their folder and name. */
const stampDefinitions: Plugin = {
  name: "livelocal-component-definitions",
  setup(b) {
    b.onResolve({ filter: /^livelocal-raw:/ }, (args) => ({ path: args.path.slice(RAW.length) }));
    b.onResolve({ filter: /convex\.config/ }, async (args) => {
      const data = args.pluginData as { plain?: true } | undefined;
      if (args.kind === "entry-point" || data?.plain) return undefined;
      const resolved = await b.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        pluginData: { plain: true },
      });
      if (resolved.errors.length > 0 || !resolved.path) return undefined;
      return { path: resolved.path, namespace: "stamped" };
    });
    b.onLoad({ filter: /.*/, namespace: "stamped" }, (args) => ({
      resolveDir: path.dirname(args.path),
      contents: stampedDefinitionModule(RAW + args.path, path.dirname(args.path)),
    }));
  },
};

let generation = 0;

/** A fresh folder for this load's bundles (a reload gets new files, so Node loads them anew). */
function bundleDir(appRoot: string, name: string): string {
  const cache = path.join(appRoot, "node_modules", ".cache", "livelocal-components");
  const dir = path.join(cache, `${process.pid}-${++generation}`, name);
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    throw new Error(
      `The backend writes the components' bundles to ${cache}, and cannot (${(error as Error).message}). ` +
        "Make that folder writable by the user that runs the server.",
      { cause: error },
    );
  }
  return dir;
}

/** Evaluates `configFile` (the app's `convex.config.ts`) with its component imports stamped. */
async function loadAppDefinition(configFile: string, appRoot: string): Promise<unknown> {
  const outfile = path.join(bundleDir(appRoot, "app"), "convex.config.mjs");
  await build({
    entryPoints: [configFile],
    outfile,
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    conditions: CONDITIONS,
    plugins: [stampDefinitions],
    logLevel: "silent",
  });
  return ((await import(pathToFileURL(outfile).href)) as { default?: unknown }).default;
}

/** What Convex's CLI bundles as a module (its bundler's entry point extensions). */
const MODULE_EXTENSION = /\.(?:[cm]?[jt]s|tsx|jsx)$/;

/**
 * A component folder's modules as Convex's CLI picks them for a push: JavaScript and TypeScript files
 * (a package ships `.js`, a component in the app's own repo `.ts`), not `_generated/`, dotfiles, names
 * with more than one dot (`convex.config.ts`, `*.d.ts`, `*.test.ts`), names with a space, folders of
 * nested components, or a TypeScript file with no `import`/`export` line. `schema` is among them:
 * the engine reads the component's tables from it.
 */
function moduleFiles(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (folder: string, prefix: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const file = path.join(folder, entry.name);
      if (entry.isDirectory()) {
        const skipped =
          entry.name === "node_modules" ||
          (prefix === "" && entry.name === "_generated") ||
          existsSync(path.join(file, "convex.config.ts"));
        if (!skipped) walk(file, `${prefix}${entry.name}/`);
        continue;
      }
      const name = entry.name;
      if (!MODULE_EXTENSION.test(name) || /^[.#]/.test(name) || name.split(".").length > 2) continue;
      if (`${prefix}${name}`.includes(" ")) continue;
      if (/\.tsx?$/.test(name) && !/^\s{0,100}(import|export)/m.test(readFileSync(file, "utf8"))) continue;
      files.set(`${prefix}${name.replace(MODULE_EXTENSION, "")}`, file);
    }
  };
  walk(dir, "");
  return files;
}

/** A component module as built: the URL of its bundle, or why it cannot be built. */
export type ComponentModule = { href: string } | { error: Error };

export type ModuleLoader = () => Promise<Record<string, unknown>>;

/** esbuild's errors in words: `file:line:col: text` each. */
function buildErrorText(e: unknown): string {
  const errors = (e as { errors?: Message[] }).errors;
  if (!Array.isArray(errors) || errors.length === 0) return e instanceof Error ? e.message : String(e);
  return errors
    .map(({ text, location }) =>
      location ? `${location.file}:${location.line}:${location.column}: ${text}` : text,
    )
    .join("; ");
}

/** Bundles `entries` (module path -> file) into `outdir`, their packages left as imports. */
async function buildModules(entries: Map<string, string>, outdir: string, splitting: boolean): Promise<void> {
  await build({
    entryPoints: Object.fromEntries(entries),
    outdir,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    splitting,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    conditions: CONDITIONS,
    // Kept in memory once loaded (the files go): a component's error names its own source files.
    sourcemap: "external",
    sourcesContent: false,
    logLevel: "silent",
  });
}

/** Keeps the source maps of the bundles in `outdir`, built from the component folder `dir`. */
function keepSourceMaps(outdir: string, dir: string, functionsDir: string): void {
  for (const entry of readdirSync(outdir, { recursive: true, encoding: "utf8" })) {
    if (!entry.endsWith(".mjs.map")) continue;
    const mapFile = path.join(outdir, entry);
    const map = JSON.parse(readFileSync(mapFile, "utf8")) as SourceMapPayload;
    registerComponentBundle(mapFile.slice(0, -".map".length), map, dir, functionsDir);
  }
}

/**
 * Bundles a component's modules. A module that cannot be built is said at start, in words, and kept
 * with that reason, so a call to its functions says why too; the component's other modules build.
 */
async function bundleComponent(
  componentPath: string,
  dir: string,
  outdir: string,
  functionsDir: string,
): Promise<Map<string, ComponentModule>> {
  const files = moduleFiles(dir);
  const modules = new Map<string, ComponentModule>();
  if ([...files.keys()].every((modulePath) => modulePath === "schema")) {
    console.error(
      `local-backend: component "${componentPath}" has no function modules in ${dir} (Convex bundles its .js and .ts files but schema, convex.config and _generated/): its functions cannot be called`,
    );
  }
  if (files.size === 0) return modules;
  const built = new Set<string>();
  try {
    await buildModules(files, outdir, true);
    for (const modulePath of files.keys()) built.add(modulePath);
  } catch {
    // One module's error fails the shared build: each is built alone to tell which ones fail.
    for (const [modulePath, file] of files) {
      try {
        await buildModules(new Map([[modulePath, file]]), outdir, false);
        built.add(modulePath);
      } catch (e) {
        modules.set(modulePath, { error: cannotLoad(componentPath, modulePath, file, buildErrorText(e)) });
      }
    }
  }
  keepSourceMaps(outdir, dir, functionsDir);
  for (const modulePath of built) {
    modules.set(modulePath, { href: pathToFileURL(path.join(outdir, `${modulePath}.mjs`)).href });
  }
  return modules;
}

/** Why a component's module cannot be loaded, said on stderr as it is found. */
function cannotLoad(
  componentPath: string,
  modulePath: string,
  file: string | undefined,
  reason: string,
): Error {
  const message = `Component "${componentPath}": module ${modulePath} (${file}) cannot be loaded: ${reason}`;
  console.error(`local-backend: ${message}`);
  return new Error(message);
}

/**
 * A loader for each of `component`'s modules, each loaded now with `load` (this thread's `import()`,
 * or an isolate's): a module's code runs when it is first imported, as when Convex loads a component,
 * and one that throws is said at start, its loader failing with the reason.
 */
export async function loadComponentModules(
  component: InstalledComponent,
  load: (href: string) => Promise<Record<string, unknown>>,
): Promise<Map<string, ModuleLoader>> {
  const loaders = new Map<string, ModuleLoader>();
  for (const [modulePath, built] of component.modules) {
    let error = "error" in built ? built.error : null;
    if ("href" in built) {
      try {
        const module = await load(built.href);
        loaders.set(modulePath, () => Promise.resolve(module));
        continue;
      } catch (e) {
        const reason = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
        error = cannotLoad(component.path, modulePath, fileURLToPath(built.href), reason);
      }
    }
    const failed = error!;
    loaders.set(modulePath, () => Promise.reject(failed));
  }
  return loaders;
}

/**
 * The components `configFile` (the app's `convex.config.ts`) installs, the root app first (with
 * only its children). `appRoot` is the folder of the app's package.json.
 */
export async function installedComponents(
  configFile: string,
  appRoot: string,
): Promise<InstalledComponent[]> {
  if (!existsSync(configFile)) return [{ path: "", dir: appRoot, modules: new Map(), children: new Map() }];
  const key = versionOf(configFile);
  let loading = loaded.get(key);
  if (!loading) {
    removeBundles(appRoot);
    loading = loadComponents(configFile, appRoot);
    loaded.set(key, loading);
    loading.catch(() => loaded.delete(key));
  }
  return await loading;
}

/** Loaded component trees by config file version: engines of one process share them. */
const loaded = new Map<string, Promise<InstalledComponent[]>>();

function versionOf(configFile: string): string {
  const { mtimeMs, size } = statSync(configFile);
  return `${configFile}:${mtimeMs}:${size}`;
}

/**
 * Components built by one process for others (`shareComponents`, `adoptComponents`): a test run builds
 * them once and its workers load the same bundles instead of each building its own. Plain data, for
 * Vitest's `provide`.
 */
export type SharedComponents = {
  version: string;
  components: {
    path: string;
    dir: string;
    /** The folder its bundles were written to (their source maps are read from there). */
    outdir: string | null;
    modules: [string, { href: string } | { error: string }][];
    children: [string, string][];
  }[];
};

/**
 * The components `configFile` installs, built here for other processes of this machine. The bundles
 * stay while this process runs (they are removed when it exits).
 */
export async function shareComponents(configFile: string, appRoot: string): Promise<SharedComponents> {
  const components = await installedComponents(configFile, appRoot);
  return {
    version: existsSync(configFile) ? versionOf(configFile) : "",
    components: components.map((component) => ({
      path: component.path,
      dir: component.dir,
      outdir: outdirs.get(component) ?? null,
      modules: [...component.modules].map(([modulePath, built]) => [
        modulePath,
        "href" in built ? { href: built.href } : { error: built.error.message },
      ]),
      children: [...component.children],
    })),
  };
}

/**
 * Takes components another process built (`shareComponents`) for `configFile`, unless the file has
 * changed since: engines of this process then load those bundles instead of building their own.
 */
export function adoptComponents(configFile: string, shared: SharedComponents): void {
  if (!existsSync(configFile) || versionOf(configFile) !== shared.version) return;
  const components = shared.components.map((component): InstalledComponent => {
    if (component.outdir) keepSourceMaps(component.outdir, component.dir, path.dirname(configFile));
    return {
      path: component.path,
      dir: component.dir,
      modules: new Map(
        component.modules.map(([modulePath, built]) => [
          modulePath,
          "href" in built ? built : { error: new Error(built.error) },
        ]),
      ),
      children: new Map(component.children),
    };
  });
  loaded.set(shared.version, Promise.resolve(components));
}

/** The folder each built component's bundles are in. */
const outdirs = new WeakMap<InstalledComponent, string>();

async function loadComponents(configFile: string, appRoot: string): Promise<InstalledComponent[]> {
  const app = await loadAppDefinition(configFile, appRoot);
  if (!isComponentDefinition(app))
    throw new Error(`${configFile} does not export an app (defineApp()) by default`);
  const found: InstalledComponent[] = [];
  const visit = async (definition: Definition, parentPath: string): Promise<Map<string, string>> => {
    const children = new Map<string, string>();
    for (const { name, child, dir } of childComponents(definition)) {
      const childPath = parentPath ? `${parentPath}/${name}` : name;
      children.set(name, childPath);
      if (!dir)
        throw new Error(`Component "${childPath}" has no folder (was it imported from a convex.config?)`);
      const outdir = bundleDir(appRoot, childPath.replaceAll("/", "__"));
      const component: InstalledComponent = {
        path: childPath,
        dir,
        modules: await bundleComponent(childPath, dir, outdir, path.dirname(configFile)),
        children: new Map(),
      };
      outdirs.set(component, outdir);
      found.push(component);
      component.children = await visit(child, childPath);
    }
    return children;
  };
  const rootChildren = await visit(app, "");
  found.unshift({ path: "", dir: appRoot, modules: new Map(), children: rootChildren });
  return found;
}

/** Removes the bundles of processes that are gone; this process's go when it exits. */
function removeBundles(appRoot: string): void {
  const cache = path.join(appRoot, "node_modules", ".cache", "livelocal-components");
  if (!existsSync(cache)) return;
  for (const entry of readdirSync(cache)) {
    const pid = Number(entry.split("-")[0]);
    if (pid === process.pid || isRunning(pid)) continue;
    try {
      rmSync(path.join(cache, entry), { recursive: true, force: true });
    } catch {
      // Another user's (a build run as root, say): theirs to remove; this process writes its own folder.
    }
  }
  if (!caches.has(cache)) {
    caches.add(cache);
    if (caches.size === 1) process.once("exit", removeOwnBundles);
  }
}

/** The bundle folders this process wrote under. */
const caches = new Set<string>();

function removeOwnBundles(): void {
  for (const cache of caches) {
    if (!existsSync(cache)) continue;
    for (const entry of readdirSync(cache)) {
      if (Number(entry.split("-")[0]) === process.pid)
        rmSync(path.join(cache, entry), { recursive: true, force: true });
    }
  }
}
