import AxeBuilder from "@axe-core/playwright";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { DEMO_SHOPS, DEMO_USERS } from "../../convex/lib/data/demo";
import { launchBrowser, newVisitor, screenshot, signInAs } from "./browser";

/**
 * axe-core over every page, signed out and as each role, in light and dark mode: no serious or critical
 * violation. One tab per person, moved between pages by the app's own router (no reload), so the whole
 * run takes about a minute.
 */

const SHOP_SLUG = "east-austin-denim-co";
const viewer = demoUser((user) => user.role === "viewer");
const admin = demoUser((user) => user.role === "admin");
// Her pages are only read here.
const seller = demoUser((user) => user.key === ownerKeyOf(SHOP_SLUG));
// No other file uses her shop: the keyboard test adds a show to it and takes it through its statuses.
const keyboardSeller = demoUser((user) => user.key === ownerKeyOf("second-act-furniture"));

function ownerKeyOf(slug: string) {
  return DEMO_SHOPS.find((shop) => shop.slug === slug)?.ownerKey;
}

function demoUser(matches: (user: (typeof DEMO_USERS)[number]) => boolean) {
  const user = DEMO_USERS.find(matches);
  if (!user) throw new Error("The demo data has no such user.");
  return user;
}

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

/**
 * Moves the open app to `path` the way a link does: the router's navigation, no page load. Returns once
 * the new page has replaced the old one's heading: the address changes at once, but the router keeps
 * the old page on screen while the new one's module loads, and an audit or a click meanwhile would land
 * on the old page (a filter checkbox clicked there navigated back to it).
 */
async function go(page: Page, path: string): Promise<void> {
  const leaving = await page.evaluateHandle((to) => {
    const heading = document.querySelector("main h1");
    const text = heading?.textContent;
    if (`${window.location.pathname}${window.location.search}` === to) return null;
    window.history.pushState(null, "", to);
    window.dispatchEvent(new PopStateEvent("popstate"));
    return { heading, text };
  }, path);
  await page.waitForFunction((old) => {
    if (old === null) return true;
    const heading = document.querySelector("main h1");
    return heading !== old.heading || heading?.textContent !== old.text;
  }, leaving);
  await leaving.dispose();
  await page.waitForURL((url) => `${url.pathname}${url.search}` === path);
}

/** The page has drawn its content: an h1 in main, and no loading card or spinner left in it. */
async function settled(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      document.querySelector("main h1") !== null &&
      document.querySelector(
        'main .animate-pulse:not([aria-hidden]), main [aria-busy="true"], main .animate-spin',
      ) === null,
  );
  // Colours move with a transition when the theme changes; axe reads them once they have arrived.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation instanceof CSSTransition)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
}

/** The rules whose outcome depends on the colours: all that changes between light and dark mode. */
const COLOUR_RULES = ["color-contrast", "link-in-text-block"];

/** Every serious or critical violation on the page as it is now, one line per element. */
async function violations(page: Page, where: string, colourOnly: boolean): Promise<string[]> {
  const builder = new AxeBuilder({ page });
  // Only violations are read: axe skips collecting every passing element (much faster on long pages).
  if (colourOnly) builder.withRules(COLOUR_RULES).options({ resultTypes: ["violations"] });
  // WCAG 2.5.3 (label in name) is one of axe's experimental rules, off unless asked for.
  else
    builder.options({
      rules: { "label-content-name-mismatch": { enabled: true } },
      resultTypes: ["violations"],
    });
  const results = await builder.analyze();
  return results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .flatMap((violation) =>
      violation.nodes.map(
        (node) =>
          `${where}: ${violation.id} at ${node.target.join(" ")} — ${(node.failureSummary ?? "").split("\n").slice(1).join(" ").trim()}`,
      ),
    );
}

async function setDark(page: Page, dark: boolean): Promise<void> {
  const toggle = page.getByRole("button", { name: "Dark mode" });
  if ((await toggle.getAttribute("aria-pressed")) !== String(dark)) await toggle.click();
}

type Check = { path: string; name?: string; open?: (page: Page) => Promise<void>; darkShot?: string };

/** Each page in light then dark mode; returns every violation found, so one run names them all. */
async function auditPages(page: Page, who: string, checks: Check[]): Promise<string[]> {
  const found: string[] = [];
  for (const check of checks) {
    await go(page, check.path);
    await settled(page);
    await check.open?.(page);
    for (const dark of [false, true]) {
      await setDark(page, dark);
      await settled(page);
      found.push(
        ...(await violations(page, `${who}, ${dark ? "dark" : "light"}, ${check.name ?? check.path}`, dark)),
      );
      if (dark && check.darkShot) await screenshot(page, check.darkShot);
    }
    await setDark(page, false);
  }
  return found;
}

/** The first link on the page whose address starts with `prefix` (and is not a "new" form). */
async function firstHref(page: Page, prefix: string): Promise<string> {
  const link = page.locator(`main a[href^="${prefix}"]:not([href*="/new"])`).first();
  await link.waitFor();
  return (await link.getAttribute("href")) ?? "";
}

const openFilters: Check["open"] = async (page) => {
  // A phone's drawer is covered by the viewer's phone test; on a wide screen the panel is always open.
  await page.getByRole("checkbox", { name: "Collectibles" }).click();
  await page.getByRole("list", { name: "Applied filters" }).waitFor();
};

test(
  "every public page, signed out, has no serious accessibility violation",
  { timeout: 600_000 },
  async () => {
    const { page, errors } = await newVisitor(browser);
    await page.goto("/");
    await settled(page);
    const streamPath = await firstHref(page, "/stream/");
    const found = await auditPages(page, "signed out", [
      { path: "/", name: "home" },
      { path: "/explore/streams", open: openFilters },
      { path: "/explore/live-shops", open: openFilters },
      { path: streamPath, name: "a stream" },
      { path: `/live-shop/${SHOP_SLUG}` },
      { path: "/live-shop/alberta-street-coffee", name: "a shop temporarily closed" },
      { path: "/watch-list" },
      { path: "/sign-in" },
      { path: "/no-such-page", name: "404", darkShot: "accessibility-404-dark" },
      { path: "/dev/inbox" },
    ]);
    expect(found.join("\n")).toBe("");
    expect(errors).toEqual([]);
  },
);

test("a viewer's pages have no serious accessibility violation", { timeout: 600_000 }, async () => {
  const { page, errors } = await newVisitor(browser);
  await signInAs(page, viewer.name);
  const found = await auditPages(page, "viewer", [
    { path: "/watch-list" },
    { path: "/dashboard" },
    { path: "/dashboard/settings" },
    { path: "/dashboard/liveshops/new", name: "the new shop form" },
    { path: "/dashboard/admin", name: "the admin console refused (403)" },
    { path: "/dashboard/no-such-page", name: "a dashboard 404" },
  ]);
  expect(found.join("\n")).toBe("");
  expect(errors).toEqual([]);
});

test(
  "a seller's dashboard and forms have no serious accessibility violation",
  { timeout: 600_000 },
  async () => {
    const { page, errors } = await newVisitor(browser);
    await signInAs(page, seller.name);
    await page.goto("/dashboard/liveshops");
    await settled(page);
    const shopPath = await firstHref(page, "/dashboard/liveshops/");
    await go(page, "/dashboard/streams");
    await settled(page);
    const streamPath = await firstHref(page, "/dashboard/streams/");
    const found = await auditPages(page, "seller", [
      { path: "/dashboard" },
      { path: "/dashboard/liveshops" },
      { path: shopPath, name: "a shop's form" },
      { path: "/dashboard/streams" },
      { path: streamPath, name: "a stream's form" },
      { path: "/dashboard/streams/new", name: "the new stream form" },
      { path: `/live-shop/${SHOP_SLUG}`, name: "their own shop's page" },
    ]);
    expect(found.join("\n")).toBe("");
    expect(errors).toEqual([]);
  },
);

test("the admin console has no serious accessibility violation", { timeout: 600_000 }, async () => {
  const { page, errors } = await newVisitor(browser);
  await signInAs(page, admin.name);
  const found = await auditPages(page, "admin", [
    { path: "/dashboard/admin" },
    { path: "/dashboard/admin/shops" },
    { path: "/dashboard/admin/streams" },
    { path: "/dashboard/admin/users" },
    { path: "/dashboard/admin/privacy-requests" },
    { path: "/dashboard/admin/activity" },
  ]);
  expect(found.join("\n")).toBe("");
  expect(errors).toEqual([]);
});

/** Presses `key` until `target` has focus (at most `limit` times); fails saying where focus is instead. */
async function tabTo(page: Page, target: Locator, { limit = 60, key = "Tab" } = {}): Promise<void> {
  for (let i = 0; i < limit; i++) {
    if (await hasFocus(target)) return;
    await page.keyboard.press(key);
  }
  throw new Error(
    `${limit} presses of ${key} never reached ${target.toString()}; focus is on ${await focused(page)}.`,
  );
}

const hasFocus = (target: Locator) => target.evaluate((element) => element === document.activeElement);

/** The focused element, for failure messages: its tag, name and text. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement;
    if (!element) return "nothing";
    return `<${element.tagName.toLowerCase()}> ${element.getAttribute("aria-label") ?? element.textContent?.trim().slice(0, 60) ?? ""}`;
  });

const SHOTS = "accessibility";

test("the header by keyboard: a skip link first, then the Explore and account menus", async () => {
  const { page, errors } = await newVisitor(browser);
  await signInAs(page, viewer.name);
  await page.goto("/explore/streams");
  await settled(page);

  // The first Tab stop is the skip link, shown while it has focus; it takes focus past the header.
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to main content" });
  expect(await hasFocus(skip)).toBe(true);
  const box = await skip.boundingBox();
  expect(box && box.width > 40 && box.y >= 0).toBe(true);
  await screenshot(page, `${SHOTS}-skip-link-focused`);
  await page.keyboard.press("Enter");
  expect(await hasFocus(page.locator("main"))).toBe(true);
  await page.keyboard.press("Tab");
  expect(await page.evaluate(() => document.querySelector("main")?.contains(document.activeElement))).toBe(
    true,
  );

  // Explore opens with focus on its first link; Escape closes it and gives focus back to its button.
  await page.keyboard.press("Shift+Tab");
  await page.keyboard.press("Shift+Tab");
  const explore = page.getByRole("button", { name: "Explore" });
  await tabTo(page, explore, { key: "Shift+Tab" });
  await page.keyboard.press("Enter");
  expect(await explore.getAttribute("aria-expanded")).toBe("true");
  expect(await hasFocus(page.getByRole("navigation", { name: "Explore" }).getByRole("link").first())).toBe(
    true,
  );
  await page.keyboard.press("Escape");
  expect(await explore.getAttribute("aria-expanded")).toBe("false");
  expect(await hasFocus(explore)).toBe(true);

  // The account button, named with the initials it shows: arrows move through its menu, Escape closes it.
  const account = page.getByRole("button", { name: `Account: ${viewer.name} JL` });
  await tabTo(page, account);
  await screenshot(page, `${SHOTS}-account-button-focused`);
  await page.keyboard.press("Enter");
  const items = page.getByRole("menu", { name: "Account" }).getByRole("menuitem");
  expect(await hasFocus(items.first())).toBe(true);
  await page.keyboard.press("ArrowDown");
  expect(await hasFocus(items.nth(1))).toBe(true);
  await page.keyboard.press("Escape");
  expect(await page.getByRole("menu", { name: "Account" }).count()).toBe(0);
  expect(await hasFocus(account)).toBe(true);
  expect(errors).toEqual([]);
});

test(
  "explore's filters on a phone by keyboard: the drawer holds focus, Escape closes it",
  { timeout: 120_000 },
  async () => {
    const { page, errors } = await newVisitor(browser, { width: 390, height: 844 });
    await page.goto("/explore/streams");
    await settled(page);
    const filters = page.getByRole("button", { name: "Filters" });
    await tabTo(page, filters);
    await page.keyboard.press("Enter");
    const drawer = page.getByRole("dialog", { name: "Filters" });
    await drawer.waitFor();
    const close = drawer.getByRole("button", { name: "Close filters" });
    expect(await hasFocus(close)).toBe(true);

    // A category, chosen with Space.
    const collectibles = drawer.getByRole("checkbox", { name: "Collectibles" });
    await tabTo(page, collectibles);
    await page.keyboard.press("Space");
    await page.waitForURL((url) => url.searchParams.has("category"));
    await page.waitForFunction(() => {
      const box = [
        ...document.querySelectorAll<HTMLInputElement>('[role="dialog"] input[type="checkbox"]'),
      ].find((input) => input.closest("label")?.textContent?.includes("Collectibles"));
      return box?.checked === true;
    });
    expect(await hasFocus(collectibles)).toBe(true);
    await screenshot(page, `${SHOTS}-filter-drawer-focus-inside-phone`);

    // Tab never reaches the cards behind it: from the last control back to the first, and the other way.
    const showResults = drawer.getByRole("button", { name: "Show results" });
    await tabTo(page, showResults, { limit: 200 });
    await page.keyboard.press("Tab");
    expect(await hasFocus(close)).toBe(true);
    await page.keyboard.press("Shift+Tab");
    expect(await hasFocus(showResults)).toBe(true);
    const stops = await drawer.evaluate(
      (panel) =>
        [...panel.querySelectorAll<HTMLElement>("a[href], button, input, select, textarea")].filter(
          (element) => !element.hasAttribute("disabled") && element.getClientRects().length > 0,
        ).length,
    );
    for (let i = 0; i <= stops; i++) {
      await page.keyboard.press("Tab");
      const inside = await drawer.evaluate((panel) => panel.contains(document.activeElement));
      if (!inside) throw new Error(`Tab left the filter drawer for ${await focused(page)}.`);
    }

    // Open, the drawer is checked too; then in dark mode (the toggle's click outside closes it).
    const found = await violations(page, "phone, light, the filter drawer", false);
    await page.keyboard.press("Escape");
    await drawer.waitFor({ state: "detached" });
    expect(await hasFocus(filters)).toBe(true);
    expect(await page.getByRole("list", { name: "Applied filters" }).getByText("Collectibles").count()).toBe(
      1,
    );

    await setDark(page, true);
    await tabTo(page, filters);
    await page.keyboard.press("Enter");
    await drawer.waitFor();
    await settled(page);
    found.push(...(await violations(page, "phone, dark, the filter drawer", true)));
    await screenshot(page, `${SHOTS}-filter-drawer-dark-phone`);
    expect(found.join("\n")).toBe("");
    expect(errors).toEqual([]);
  },
);

test(
  "a seller takes a show live, pauses, resumes and ends it with the keyboard alone",
  { timeout: 120_000 },
  async () => {
    const title = `Keyboard-only show ${Date.now()}`;
    const { page, errors } = await newVisitor(browser);
    await signInAs(page, keyboardSeller.name);
    // A show of its own, so no other file's stream changes status.
    await page.goto("/dashboard/liveshops");
    await settled(page);
    await go(page, `${await firstHref(page, "/dashboard/liveshops/")}`);
    await settled(page);
    await page.getByRole("link", { name: "Streams of this shop" }).click();
    await page.getByRole("link", { name: "New stream" }).click();
    await page.getByLabel("Title").fill(title);
    await page.getByRole("button", { name: "Create stream" }).click();
    await page.getByText("Your stream is saved as a draft.").waitFor();

    await go(page, "/dashboard");
    await settled(page);
    const controls = page.getByRole("group", { name: `Status of ${title}` });
    await tabTo(page, controls.getByRole("button", { name: "Go live" }), { limit: 300 });
    // Each press moves the show to another group: focus follows it to its next control.
    for (const [press, next] of [
      ["Go live", "Pause"],
      ["Pause", "Resume"],
      ["Resume", "Pause"],
    ] as const) {
      expect(await hasFocus(controls.getByRole("button", { name: press }))).toBe(true);
      await page.keyboard.press("Enter");
      const nextButton = controls.getByRole("button", { name: next });
      await nextButton.waitFor();
      await page
        .waitForFunction((name) => document.activeElement?.textContent?.trim() === name, next, {
          timeout: 5_000,
        })
        .catch(async () => {
          throw new Error(`After "${press}", focus is on ${await focused(page)}, not "${next}".`);
        });
    }
    await screenshot(page, `${SHOTS}-seller-status-by-keyboard`);
    await tabTo(page, controls.getByRole("button", { name: "End" }));
    await page.keyboard.press("Enter");
    const question = page.getByRole("alertdialog", { name: `End “${title}” now?` });
    await question.waitFor();
    await tabTo(page, question.getByRole("button", { name: "End stream" }));
    await page.keyboard.press("Enter");
    await question.waitFor({ state: "detached" });
    await page.getByRole("region", { name: "Ended and cancelled" }).getByText(title).first().waitFor();
    expect(errors).toEqual([]);
  },
);
