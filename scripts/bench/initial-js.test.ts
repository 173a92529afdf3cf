import { expect, test } from "vitest";
import { initialJsFiles, type Manifest } from "./initial-js.ts";

const manifest: Manifest = {
  "index.html": {
    file: "assets/index.js",
    isEntry: true,
    imports: ["_react.js"],
    dynamicImports: ["src/home.tsx", "src/clerk.tsx"],
  },
  "_react.js": { file: "assets/react.js", imports: ["_shared.js"] },
  "_shared.js": { file: "assets/shared.js", imports: ["_react.js"] },
  "src/home.tsx": { file: "assets/home.js", imports: ["_shared.js", "_msas.js"] },
  "_msas.js": { file: "assets/msas.js" },
  "src/clerk.tsx": { file: "assets/clerk.js", imports: ["_clerk-react.js"] },
  "_clerk-react.js": { file: "assets/clerk-react.js" },
  "index.css": { file: "assets/index.css" },
};

test("the initial JavaScript is the entry and its static imports, cycles and all, never dynamic imports", () => {
  expect(initialJsFiles(manifest)).toEqual(["assets/index.js", "assets/react.js", "assets/shared.js"]);
});

test("a route's chunk adds its own static closure", () => {
  expect(initialJsFiles(manifest, ["src/home.tsx"])).toEqual([
    "assets/home.js",
    "assets/index.js",
    "assets/msas.js",
    "assets/react.js",
    "assets/shared.js",
  ]);
});

test("a key the manifest lacks is an error, not a silent zero", () => {
  expect(() => initialJsFiles(manifest, ["src/nope.tsx"])).toThrow(/no chunk "src\/nope.tsx"/);
});
