import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { CATEGORIES } from "@convex/lib/data/categories";
import { buildSampleStreams, DEMO_SHOPS, DEMO_STREAM_LINKS } from "@convex/lib/data/demo";
import { MSAS } from "@convex/lib/data/msas";
import {
  emptyExploreFilter,
  exploreFilterToSearchParams,
  facetsFromLinks,
  matchesExploreFilter,
  TOO_MANY_MSAS_MESSAGE,
  type ExploreFilter,
} from "@convex/lib/explore";
import { launchBrowser, newVisitor, screenshot, sidewaysOverflow, takeShowLive } from "./browser";
import { ownSeller } from "./own-seller";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

/** What the list holds by default: live and upcoming shows (ended ones are under replays; decision 031). */
const LISTED = ["SCHEDULED", "LIVE", "PAUSED"];
const PHONE = { width: 375, height: 812 };
/** Where every file's own shows are listed (tests/support/functions/e2eData.ts). */
const ABILENE = "10180";

/** The demo streams a filter should list: public ones (decision 012) that match by the shared rule. */
function expectedTitles(filter: ExploreFilter): string[] {
  return buildSampleStreams(Date.now())
    .filter((stream) => {
      const links = DEMO_STREAM_LINKS[stream.id];
      const shop = DEMO_SHOPS.find((candidate) => candidate.slug === links?.shopSlug);
      if (!links || shop?.status !== "active" || !LISTED.includes(stream.status)) return false;
      const msaRows = MSAS.filter((msa) => links.cbsaCodes.includes(msa.cbsaCode));
      return matchesExploreFilter(facetsFromLinks(links.categories, msaRows), filter);
    })
    .map((stream) => stream.title)
    .sort();
}

async function shownTitles(page: Page): Promise<string[]> {
  const titles = await page
    .getByRole("list", { name: "Shows", exact: true })
    .getByRole("heading")
    .allTextContents();
  return titles.sort();
}

/** The visible window only: a full-page shot misplaces the fixed slide-over and the open menu. */
async function viewportShot(page: Page, name: string) {
  const dir = path.resolve(import.meta.dirname, "../../test-results/e2e");
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`) });
}

/** Clicks a checkbox and waits for it: its state follows the URL, which the router updates a moment later. */
async function tick(checkbox: Locator) {
  await checkbox.click();
  await expect.poll(() => checkbox.isChecked()).toBe(true);
}

/** Picks a metro area and, as a person would, waits to see it chosen before the next (unless refused). */
async function chooseMetroArea(page: Page, typed: string, name: string, { refused = false } = {}) {
  await page.getByRole("combobox", { name: "Find a metro area" }).fill(typed);
  await page.getByRole("option", { name }).click();
  if (!refused) await page.getByRole("button", { name: `Remove metro area ${name}` }).waitFor();
}

test("a category plus a metro area lists exactly the matching demo streams", async () => {
  const { page, errors } = await newVisitor(browser);
  await page.goto("/explore/streams");
  await page.getByRole("list", { name: "Shows", exact: true }).waitFor();

  await tick(page.getByRole("checkbox", { name: "Collectibles" }));
  await chooseMetroArea(page, "chicago", "Chicago-Naperville-Elgin, IL-IN");
  const collectibles = CATEGORIES.find((category) => category.id === "collectibles");
  const expected = expectedTitles({
    ...emptyExploreFilter(),
    categories: ["collectibles"],
    subcategories: collectibles?.subcategories.map((sub) => sub.id) ?? [],
    msas: ["16980"],
  });
  expect(expected.length).toBeGreaterThan(0);
  await expect.poll(() => shownTitles(page), { timeout: 5_000 }).toEqual(expected);
  expect(new URL(page.url()).searchParams.getAll("msa")).toEqual(["16980"]);
  await page.getByText("That’s every show.").waitFor();
  await screenshot(page, "explore-streams-desktop");

  // The same filter on the live shops tab.
  await page.getByRole("link", { name: "Live shops" }).click();
  await page.waitForURL((url) => url.pathname === "/explore/live-shops" && url.searchParams.has("msa"));
  await page.getByRole("list", { name: "Live shops" }).waitFor();
  await screenshot(page, "explore-shops-desktop");
  expect(errors).toEqual([]);
});

test("a seventh metro area is refused; removing a state drops its metro areas", async () => {
  const { page, errors } = await newVisitor(browser, { width: 390, height: 844 });
  await page.goto("/explore/streams");
  await page.getByRole("button", { name: "Filters" }).click();
  await page.getByRole("combobox", { name: "Add a state" }).selectOption("TX");
  const texas = page.getByRole("list", { name: "Metro areas in Texas" });
  for (const name of [
    "Abilene, TX",
    "Amarillo, TX",
    "Austin-Round Rock-San Marcos, TX",
    "Beaumont-Port Arthur, TX",
  ]) {
    await tick(texas.getByRole("checkbox", { name }));
  }
  await chooseMetroArea(page, "denver", "Denver-Aurora-Centennial, CO");
  await chooseMetroArea(page, "chicago", "Chicago-Naperville-Elgin, IL-IN");
  await page.getByText("6 of 6 metro areas chosen").waitFor();

  await chooseMetroArea(page, "portland", "Portland-Vancouver-Hillsboro, OR-WA", { refused: true });
  await page.getByRole("alert").filter({ hasText: TOO_MANY_MSAS_MESSAGE }).waitFor();
  expect(new URL(page.url()).searchParams.getAll("msa")).toHaveLength(6);
  await viewportShot(page, "explore-msa-limit-phone");

  // Texas goes, and with it every Texas metro area; Denver and Chicago lie outside any selected state.
  await page.getByRole("button", { name: "Remove state Texas" }).click();
  await expect.poll(() => new URL(page.url()).searchParams.getAll("msa")).toEqual([]);
  await page.getByText("0 of 6 metro areas chosen").waitFor();
  await page.getByRole("button", { name: "Show results" }).click();
  expect(await page.getByRole("list", { name: "Applied filters" }).count()).toBe(0);
  expect(errors).toEqual([]);
});

test("a stream set live in another browser shows its live badge on explore without reload", async () => {
  // A show of this file's own seller, a month away: no other file takes it live.
  const mine = await ownSeller("explore", [{ status: "SCHEDULED", startsInDays: 30 }]);
  const [title = ""] = mine.streamTitles;
  const buyer = await newVisitor(browser, { width: 390, height: 844 });
  const search = exploreFilterToSearchParams({ ...emptyExploreFilter(), msas: [ABILENE] });
  await buyer.page.goto(`/explore/streams?${search.toString()}`);
  const card = buyer.page
    .getByRole("listitem")
    .filter({ has: buyer.page.getByRole("heading", { name: title }) });
  await card.getByText("Upcoming", { exact: true }).waitFor();
  await buyer.page.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));
  // Unfiltered, the show starts too late to make the first page; going live brings it there.
  const wide = await buyer.context.newPage();
  await wide.goto("/explore/streams");
  await wide.getByRole("button", { name: "Load more" }).waitFor();
  const wideCard = wide.getByRole("listitem").filter({ has: wide.getByRole("heading", { name: title }) });
  expect(await wideCard.count()).toBe(0);

  const { seller, controls } = await takeShowLive(browser, mine, title);

  await card.getByText("Live", { exact: true }).waitFor({ timeout: 5_000 });
  await wideCard.getByText("Live", { exact: true }).waitFor({ timeout: 5_000 });
  // Live first: it moved ahead of every upcoming show.
  const aheadOfUpcoming = async () => {
    const items = await buyer.page
      .getByRole("list", { name: "Shows", exact: true })
      .getByRole("listitem")
      .allInnerTexts();
    const mine = items.findIndex((text) => text.includes(title));
    const firstUpcoming = items.findIndex((text) => text.includes("Upcoming"));
    return mine >= 0 && (firstUpcoming === -1 || mine < firstUpcoming);
  };
  await expect.poll(aheadOfUpcoming).toBe(true);
  expect(await buyer.page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(
    true,
  );
  await screenshot(buyer.page, "explore-live-badge-phone");

  await controls.getByRole("button", { name: "End" }).click();
  await seller.page.getByRole("alertdialog").getByRole("button", { name: "End stream" }).click();
  // Ended shows leave the list for the replays (decision 031), from both pages at once.
  await card.waitFor({ state: "detached", timeout: 10_000 });
  await wideCard.waitFor({ state: "detached", timeout: 10_000 });
  await buyer.page.getByRole("navigation", { name: "When" }).getByRole("link", { name: "Replays" }).click();
  await card.getByText("Ended", { exact: true }).waitFor({ timeout: 10_000 });
  expect(buyer.errors).toEqual([]);
  expect(seller.errors).toEqual([]);
});

test("the mobile menu at 375 px toggles, closes on navigation, and takes turns with the filter menu", async () => {
  const { page, errors } = await newVisitor(browser, PHONE);
  await page.goto("/explore/streams");
  const menuButton = page.getByRole("button", { name: "Menu" });
  const filtersButton = page.getByRole("button", { name: "Filters" });
  const menu = page.getByRole("navigation", { name: "Menu" });
  expect(await page.getByRole("navigation", { name: "Main" }).isVisible()).toBe(false);

  await menuButton.click();
  await menu.waitFor();
  expect(await menuButton.getAttribute("aria-expanded")).toBe("true");
  await viewportShot(page, "mobile-menu-open-phone");
  await menuButton.click();
  await menu.waitFor({ state: "hidden" });

  // Opening the mobile menu closes the filter menu...
  await filtersButton.click();
  await page.getByRole("dialog", { name: "Filters" }).waitFor();
  await viewportShot(page, "explore-filters-phone");
  await menuButton.click();
  await menu.waitFor();
  await page.getByRole("dialog", { name: "Filters" }).waitFor({ state: "hidden" });
  // ...and opening the filter menu (here from the keyboard, as the menu covers the button) closes it.
  await filtersButton.press("Enter");
  await page.getByRole("dialog", { name: "Filters" }).waitFor();
  await menu.waitFor({ state: "hidden" });
  await page.keyboard.press("Escape");
  await page.getByRole("dialog", { name: "Filters" }).waitFor({ state: "hidden" });

  // Following a link closes the menu.
  await menuButton.click();
  await menu.getByRole("link", { name: "Live shops" }).click();
  await page.waitForURL((url) => url.pathname === "/explore/live-shops");
  await menu.waitFor({ state: "hidden" });
  expect(await menuButton.getAttribute("aria-expanded")).toBe("false");
  expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
  expect(errors).toEqual([]);
});

test("the header's Explore menu leads to a category's streams on a desktop", async () => {
  const { page, errors } = await newVisitor(browser);
  await page.goto("/");
  await page.getByRole("button", { name: "Explore" }).click();
  await screenshot(page, "explore-menu-desktop");
  await page
    .getByRole("navigation", { name: "Explore", exact: true })
    .getByRole("link", { name: "Pet Supplies" })
    .click();
  await page.waitForURL((url) => url.searchParams.get("category") === "pets_supplies");
  expect(await page.getByRole("checkbox", { name: "Pet Supplies" }).isChecked()).toBe(true);
  expect(await page.getByRole("navigation", { name: "Explore", exact: true }).isVisible()).toBe(false);
  await page.getByRole("button", { name: "Dark mode" }).click();
  await page.getByRole("list", { name: "Shows", exact: true }).waitFor();
  await screenshot(page, "explore-streams-dark-desktop");
  expect(errors).toEqual([]);
});

test("at 360 px the explore page, its chips and the header fit without sideways scrolling", async () => {
  const { page, errors } = await newVisitor(browser, { width: 360, height: 740 });
  const filter = { ...emptyExploreFilter(), states: ["CA"], msas: ["31080", "41860"], q: "vintage" };
  await page.goto(`/explore/streams?${exploreFilterToSearchParams(filter).toString()}`);
  await page.getByRole("list", { name: "Applied filters" }).waitFor();
  await page.getByRole("button", { name: "Menu" }).waitFor();
  expect(await page.getByRole("searchbox", { name: "Search shows" }).inputValue()).toBe("vintage");
  expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
  await screenshot(page, "explore-streams-360");
  expect(errors).toEqual([]);
});
