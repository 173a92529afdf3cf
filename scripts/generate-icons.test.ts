import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import { buildIconModule, findIconNames } from "./generate-icons.mjs";

const generated = path.resolve(import.meta.dirname, "../src/components/ui/icons.generated.ts");

test("the bundled icons are exactly those the source names (run `npm run icons:generate` if not)", async () => {
  expect(readFileSync(generated, "utf8")).toBe(await buildIconModule());
});

test("every category and platform icon is bundled", () => {
  const names = findIconNames();
  expect(names.get("lucide")).toContain("shirt");
  expect(names.get("simple-icons")).toContain("shopify");
});
