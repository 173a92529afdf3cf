/**
 * The stack frames of a function's error as Convex shows them (crates/common/src/errors.rs: `JsError`,
 * `FrameData`'s Display): only the function's own code, from where it threw to where it was entered
 * (not the engine's frames, nor those of `convex`'s runtime, Vite or Node); each file named as in the
 * source maps of Convex's bundle, which is built into `out/` beside the functions folder
 * (`../convex/messages.ts`; `../component/errors.ts` for a component in the app's repo); a nameless
 * function as `<anonymous>`, `async` kept.
 *
 * The functions folders and the components' bundles register here (the engine, components.ts): a
 * component runs from a bundle whose files are gone once loaded, so its source map is kept in memory.
 */
import { SourceMap, type SourceMapPayload } from "node:module";
import { realpathSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { BUILT } from "../core/built.ts";

/**
 * The engine's own folder (`local-backend/`, or the server build's `dist/.server/engine/`, decision
 * 093): its frames are where user code was entered.
 */
const ENGINE_DIR = path.resolve(import.meta.dirname, BUILT ? "." : "..") + path.sep;

/** Folders of functions' source (a functions folder, a component's) -> the folder Convex bundles from. */
const sourceFolders = new Map<string, string>();
/** A component bundle's file -> its source map (sources as absolute paths). */
const bundleMaps = new Map<string, SourceMap>();

/** `dir`'s files are bundled from `root`; frames may name them through symbolic links or not. */
function registerFolder(dir: string, root: string): void {
  for (const [folder, from] of [
    [dir, root],
    [realPath(dir), realPath(root)],
  ]) {
    sourceFolders.set(path.resolve(folder) + path.sep, path.resolve(from));
  }
}

function realPath(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}

/** A functions folder: its files are the app's, named as bundled from the folder holding it. */
export function registerFunctionsFolder(functionsDir: string): void {
  registerFolder(functionsDir, path.dirname(path.resolve(functionsDir)));
}

/**
 * A component module's bundle `file`, built from `componentDir` with `map` (esbuild's, sources relative
 * to the bundle's folder), for an app whose functions folder is `functionsDir`.
 */
export function registerComponentBundle(
  file: string,
  map: SourceMapPayload,
  componentDir: string,
  functionsDir: string,
): void {
  const sources = map.sources.map((source) => path.resolve(path.dirname(file), source));
  // Stack frames name the file Node loaded, symbolic links resolved (node_modules may be one).
  bundleMaps.set(realPath(file), new SourceMap({ ...map, sources, sourceRoot: "" }));
  registerFolder(componentDir, path.dirname(path.resolve(functionsDir)));
}

type Frame = { async: boolean; name: string | null; file: string | null; line: string; column: string };

const FRAME = /^\s+at (async )?(.*)$/;

function parseFrame(text: string): Frame | null {
  const match = FRAME.exec(text);
  if (!match) return null;
  const [, isAsync, rest] = match;
  const named = /^(.*?) \((.*)\)$/.exec(rest);
  const name = named ? named[1] : null;
  const location = /^(.*):(\d+):(\d+)$/.exec(named ? named[2] : rest);
  if (!location) return { async: Boolean(isAsync), name, file: null, line: "", column: "" };
  let file = location[1];
  if (file.startsWith("file://")) file = fileURLToPath(file);
  const frame = { async: Boolean(isAsync), name, file, line: location[2], column: location[3] };
  const origin = bundleMaps.get(file)?.findOrigin(Number(frame.line), Number(frame.column));
  if (origin && "fileName" in origin) {
    return {
      ...frame,
      file: origin.fileName,
      line: String(origin.lineNumber),
      column: String(origin.columnNumber),
    };
  }
  return frame;
}

/** The registered folder holding `file` (the innermost), or null. */
function sourceFolderOf(file: string): { dir: string; root: string } | null {
  let found: { dir: string; root: string } | null = null;
  for (const [dir, root] of sourceFolders) {
    if (file.startsWith(dir) && (!found || dir.length > found.dir.length)) found = { dir, root };
  }
  return found;
}

/** The engine's code (bundled with Vite's config in `npm run dev`): user code was entered from it. */
function isEngine(file: string): boolean {
  return (
    (file.startsWith(ENGINE_DIR) ||
      file.includes(`${path.sep}node_modules${path.sep}.vite-temp${path.sep}`)) &&
    !sourceFolderOf(file)
  );
}

/** Code that is not the functions' own: the engine, `convex`'s runtime, Vite, Node, native frames. */
function isRuntime(frame: Frame): boolean {
  const { file } = frame;
  if (file === null || !path.isAbsolute(file)) return true;
  if (sourceFolderOf(file)) return false;
  return isEngine(file) || /[\\/]node_modules[\\/](?:convex|vite|tsx)[\\/]/.test(file);
}

/** `file` as Convex's source maps name it: relative to the bundle's `out/` folder (its module's folder in it). */
function displayPath(file: string): string {
  const folder = sourceFolderOf(file);
  let from: string | null = null;
  if (folder) {
    from = path.join(folder.root, "out", path.dirname(path.relative(folder.dir, file)));
  } else {
    // A file a module imports from outside the folders (a shared helper): as for a top-level module.
    const roots = [...sourceFolders.values()].filter((root) => file.startsWith(root + path.sep));
    if (roots.length > 0) from = path.join(roots.sort((a, b) => b.length - a.length)[0], "out");
  }
  return from === null ? file : path.relative(from, file).split(path.sep).join("/");
}

function formatFrame(frame: Frame): string {
  // Vite runs a module's code in a function it makes, so a nameless function there is called `eval`.
  const name = frame.name && frame.name !== "eval" ? frame.name : "<anonymous>";
  const where = `${displayPath(frame.file!)}:${frame.line}:${frame.column}`;
  return `    at ${frame.async ? "async " : ""}${name} (${where})`;
}

/**
 * The frames of the function that threw `error`, as Convex shows them, from its stack (the lines
 * after its `name: message` header, which may span lines).
 */
export function functionFrames(error: Error): string[] {
  const lines = (error.stack ?? "").split("\n");
  const header = `${error.name}: ${error.message}`.split("\n").length;
  const frames = lines
    .slice(header)
    .map(parseFrame)
    .filter((frame): frame is Frame => frame !== null);
  const start = frames.findIndex((frame) => !isRuntime(frame));
  if (start < 0) return [];
  let end = frames.findIndex((frame, i) => i > start && frame.file !== null && isEngine(frame.file));
  if (end < 0) end = frames.length;
  return frames
    .slice(start, end)
    .filter((frame) => !isRuntime(frame))
    .map(formatFrame);
}
