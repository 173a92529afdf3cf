/**
 * Whether the heap guard (decision 090, heap-guard/heap_guard.cc) is built and loads: with it, an
 * isolate runs with a hard heap limit far above its real one, which the guard enforces without ending
 * the process; without it, Node's own limit is the real one, and a large allocation near it aborts the
 * process (the backend says so once).
 */
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { BUILT } from "../../core/built.ts";

export type HeapGuard = {
  /** The built addon, which each isolate loads before anything else. */
  file: string;
};

let guard: HeapGuard | null | undefined;

/** The heap guard, or null when it was not built (or does not load on this Node). */
export function heapGuard(): HeapGuard | null {
  if (guard !== undefined) return guard;
  // Resolved on first use, not on import: page tests import the engine where `import.meta.url` is not
  // a file URL.
  // Built where `npm install` built it (package.json's postinstall), also for the server's build in
  // dist/.server/engine/ (decision 093): for the Node that installed it.
  const addon = "heap-guard/build/Release/heap_guard.node";
  const file = fileURLToPath(
    new URL(BUILT ? `../../../local-backend/runtime/isolate/${addon}` : `./${addon}`, import.meta.url),
  );
  try {
    const loaded = createRequire(import.meta.url)(file) as { install?: unknown };
    if (typeof loaded.install !== "function") throw new Error("It has no install()");
    guard = { file };
  } catch (error) {
    guard = null;
    console.warn(
      `local-backend: the heap guard is not built (${(error as Error).message.split("\n")[0]}); run ` +
        "`npm run heap-guard:build`. Until then a function that allocates without bound may stop this process.",
    );
  }
  return guard;
}
