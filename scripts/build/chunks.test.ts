import path from "node:path";
import type { ChunkingContext, ModuleInfo } from "rolldown";
import { expect, test } from "vitest";
import { chunkGroups, PUBLIC_CHUNK, PUBLIC_ROOTS, staticClosure } from "./chunks.ts";

const root = path.resolve(import.meta.dirname, "../..");
const at = (file: string) => path.join(root, file);

/** A module graph: each module's static and dynamic imports. */
function contextOf(graph: Record<string, { imports?: string[]; dynamic?: string[] }>): ChunkingContext {
  return {
    getModuleInfo: (id) =>
      id in graph
        ? ({
            importedIds: graph[id]?.imports ?? [],
            dynamicallyImportedIds: graph[id]?.dynamic ?? [],
          } as unknown as ModuleInfo)
        : null,
  };
}

const graph = contextOf({
  [PUBLIC_ROOTS[0]]: { imports: [at("src/lib/cn.ts"), at("node_modules/convex/react.js")] },
  [at("src/lib/cn.ts")]: { imports: [at("node_modules/tailwind-merge/index.js")] },
  [at("node_modules/tailwind-merge/index.js")]: { imports: [at("src/lib/cn.ts")] },
  [at("node_modules/convex/react.js")]: { dynamic: [at("src/features/auth/clerk-auth-provider.tsx")] },
  [at("src/features/auth/clerk-auth-provider.tsx")]: {},
  [at("src/features/settings/settings-page.tsx")]: { imports: [at("src/lib/cn.ts")] },
});

test("a static closure follows static imports through cycles, not dynamic ones", () => {
  expect([...staticClosure([PUBLIC_ROOTS[0]], graph)].sort()).toEqual(
    [
      PUBLIC_ROOTS[0],
      at("node_modules/convex/react.js"),
      at("node_modules/tailwind-merge/index.js"),
      at("src/lib/cn.ts"),
    ].sort(),
  );
});

test("the public pages' modules go to one chunk; a dashboard page and what loads on demand do not", () => {
  const publicGroup = chunkGroups().find((group) => group.debugName === PUBLIC_CHUNK);
  const name = publicGroup?.name;
  if (typeof name !== "function") throw new Error("The public group names its modules with a function.");
  expect(name(at("src/lib/cn.ts"), graph)).toBe(PUBLIC_CHUNK);
  expect(name(PUBLIC_ROOTS[0], graph)).toBe(PUBLIC_CHUNK);
  expect(name(at("src/features/settings/settings-page.tsx"), graph)).toBeNull();
  expect(name(at("src/features/auth/clerk-auth-provider.tsx"), graph)).toBeNull();
});

test("the app chunk takes what the entry imports, but not the entry's own modules", () => {
  const app = chunkGroups().find((group) => group.name === "app");
  expect(app?.tags).toEqual(["$initial"]);
  const test = app?.test;
  if (typeof test !== "function") throw new Error("The app group tests its modules with a function.");
  expect(test(at("node_modules/react-dom/client.js"))).toBe(true);
  expect(test(at("index.html"))).toBe(false);
  expect(test(at("src/main.tsx"))).toBe(false);
});
