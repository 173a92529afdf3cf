import { readFileSync } from "node:fs";
import { expect, test } from "vitest";
import { buildIconModule, findIconNames, ICON_MODULES } from "./generate-icons.mjs";

/** Whether a generated module bundles the icon `name` (a key of its `icons`, quoted or not). */
const bundles = (source: string, name: string) => new RegExp(`(^|\\s)"?${name}"?: \\{`, "m").test(source);

test.each(Object.entries(ICON_MODULES))(
  "the bundled %s icons are exactly those the source names (run `npm run icons:generate` if not)",
  async (part, file) => {
    expect(readFileSync(file, "utf8")).toBe(await buildIconModule(part));
  },
);

test("every category and platform icon is bundled: categories with the frame, platforms with the routes", async () => {
  const names = findIconNames();
  expect(names.get("lucide")).toContain("shirt");
  expect(names.get("simple-icons")).toContain("shopify");
  const [core, routes] = [await buildIconModule("core"), await buildIconModule("routes")];
  // The header's explore menu lists the categories; platform logos appear only on pages.
  expect(bundles(core, "shirt")).toBe(true);
  expect(bundles(routes, "shopify")).toBe(true);
  expect(bundles(core, "shopify")).toBe(false);
});

test("an icon named only inside a lazily loaded feature loads with the routes, not the main chunk", async () => {
  // The admin console's activity screen is a lazy route; its icon is named nowhere in the frame.
  const [core, routes] = [await buildIconModule("core"), await buildIconModule("routes")];
  expect(bundles(routes, "history")).toBe(true);
  expect(bundles(core, "history")).toBe(false);
});
