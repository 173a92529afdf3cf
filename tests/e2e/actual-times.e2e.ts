/**
 * Issue 41: a show taken live ahead of its plan and ended says when it really started and ended, on its
 * page and its card, not when it was planned (decision 058). Its own data: a seller of this file's own
 * with one show planned for tomorrow.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { launchBrowser, newVisitor, screenshot, takeShowLive } from "./browser";
import { ownSeller, type OwnSeller } from "./own-seller";

let browser: Browser;
let mine: OwnSeller;
beforeAll(async () => {
  browser = await launchBrowser();
  mine = await ownSeller("actual-times", ["SCHEDULED"]);
});
afterAll(async () => {
  await browser.close();
});

/** "Sun, Nov 29": the day in the page's own zone, as the app writes dates. */
async function today(page: Page): Promise<string> {
  return await page.evaluate(() =>
    new Intl.DateTimeFormat("en-US", { weekday: "short", month: "short", day: "numeric" }).format(Date.now()),
  );
}

test(
  "a seller takes a show planned for tomorrow live now and ends it: its page and card say when it ran",
  {
    timeout: 120_000,
  },
  async () => {
    const [TITLE = ""] = mine.streamTitles;
    const buyer = await newVisitor(browser);
    await buyer.page.goto(`/live-shop/${mine.shopSlug}`);
    const upcoming = buyer.page
      .getByRole("region", { name: "Upcoming shows" })
      .getByRole("article")
      .filter({ hasText: TITLE });
    const plannedLine = (await upcoming.getByText(/^Starts /).textContent()) ?? "";
    const day = await today(buyer.page);
    // Planned for another day than today: otherwise the test could not tell the plan from what happened.
    expect(plannedLine).not.toContain(day);

    const { seller, controls } = await takeShowLive(browser, mine, TITLE);
    await controls.getByRole("button", { name: "End" }).click();
    await seller.page.getByRole("button", { name: "End stream" }).click();
    await controls.getByRole("button", { name: "End" }).waitFor({ state: "detached" });
    const endDay = await today(buyer.page);
    const ranOn = new RegExp(`^Started (${day}|${endDay}), .* · Ended (${day}|${endDay}), `);

    // The shop page's card moves to past shows, with the times it ran, live, without a reload.
    const past = buyer.page
      .getByRole("region", { name: "Past shows and replays" })
      .getByRole("article")
      .filter({ hasText: TITLE });
    await past.waitFor({ timeout: 10_000 });
    const cardLine = past.getByText(/^Started /);
    expect(await cardLine.textContent()).toMatch(ranOn);
    await screenshot(buyer.page, "actual-times-shop-card");

    // The seller's dashboard row says the same.
    const row = seller.page
      .getByRole("region", { name: "Ended and cancelled" })
      .getByRole("listitem")
      .filter({ hasText: TITLE });
    await row.waitFor();
    expect(await row.textContent()).toContain(endDay);

    // Its page: "Started" and "Ended", today, not the planned day.
    await past.getByRole("link", { name: TITLE }).click();
    await buyer.page.waitForURL((url) => url.pathname.startsWith("/stream/"));
    const when = buyer.page.getByRole("region", { name: "When" });
    const started = when.locator("dt", { hasText: /^Started$/ }).locator("xpath=following-sibling::dd[1]");
    const ended = when.locator("dt", { hasText: /^Ended$/ }).locator("xpath=following-sibling::dd[1]");
    expect(await started.locator("time").first().textContent()).toMatch(new RegExp(`^(${day}|${endDay}), `));
    expect(await ended.locator("time").first().textContent()).toMatch(new RegExp(`^(${day}|${endDay}), `));
    await screenshot(buyer.page, "actual-times-stream-page");

    expect(buyer.errors).toEqual([]);
    expect(seller.errors).toEqual([]);
  },
);
