/**
 * How the browser's build is cut into chunks (decision 042). Left to itself, the bundler makes a chunk
 * of every set of modules that the same routes share: 38 files for `/explore/streams`, and each file
 * the browser asks for costs its main thread about 1.5 ms (4× that on Lighthouse's phone) before a byte
 * arrives. Two groups instead:
 *
 * - `app`: everything `src/main.tsx` imports statically, in one chunk beside the entry.
 * - `public`: every module the public pages (home, explore, a shop, a stream) and the session layout
 *   import statically, in one chunk: a visitor's first page asks for 7 files in all (entry, runtime,
 *   `app`, `public`, two one-line facades, the stylesheet), and the next public page for none.
 *
 * The dashboard's pages keep the bundler's own chunks.
 */
import path from "node:path";
import type { CodeSplittingGroup, ChunkingContext } from "rolldown";

const root = path.resolve(import.meta.dirname, "../..");

/** The name of the public pages' chunk (and of its key in the build manifest, `_public-<hash>.js`). */
export const PUBLIC_CHUNK = "public";

/** index.html and its module script: the entry chunk's own modules. */
const ENTRY_MODULES = ["index.html", "src/main.tsx"].map((file) => path.join(root, file));

/** The lazy modules a visitor's first page loads, from src/app/router.tsx. */
export const PUBLIC_ROOTS = [
  "src/app/session-layout.tsx",
  "src/components/ui/route-icons.ts",
  "src/app/hydration-warm-up.ts",
  "src/features/home/home-page.tsx",
  "src/features/explore/explore-streams-page.tsx",
  "src/features/explore/explore-shops-page.tsx",
  "src/features/shop-page/live-shop-page.tsx",
  "src/features/stream-page/stream-page.tsx",
].map((file) => path.join(root, file));

/** The modules `roots` import statically, the roots included (not what they import with `import()`). */
export function staticClosure(roots: string[], context: ChunkingContext): Set<string> {
  const seen = new Set<string>();
  const pending = [...roots];
  for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
    if (seen.has(id)) continue;
    const info = context.getModuleInfo(id);
    if (!info) continue;
    seen.add(id);
    pending.push(...info.importedIds);
  }
  return seen;
}

export function chunkGroups(): CodeSplittingGroup[] {
  let publicModules: Set<string> | null = null;
  return [
    // The entry's own modules stay in the entry chunk, which the manifest marks as the page's entry.
    { name: "app", tags: ["$initial"], test: (id) => !ENTRY_MODULES.includes(id), priority: 2 },
    {
      name: (id, context) => {
        publicModules ??= staticClosure(PUBLIC_ROOTS, context);
        return publicModules.has(id) ? PUBLIC_CHUNK : null;
      },
      debugName: PUBLIC_CHUNK,
      priority: 1,
    },
  ];
}
