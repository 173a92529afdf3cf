import { readFileSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { DEMO_SHOPS } from "../../convex/lib/data/demo";
import { launchBrowser, newVisitor, screenshot, takeShowLive } from "./browser";
import { ownSeller } from "./own-seller";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

/** The notices in the corner of the page (src/components/notices). */
const notices = (page: Page) => page.getByRole("region", { name: "Notifications" });

/**
 * A tab's go-live claims, read from its sync sockets' frames: a tab announces a show only when a claim
 * it sent is answered with it, and claims only alerts its waiting list shows. `settled`: every claim
 * it sent is answered, and it has sent one or seen its waiting list fill and empty again, so it can
 * announce nothing more. `announced`: the claims answered with a show.
 */
function goLiveClaims(page: Page): { settled: () => boolean; announced: () => number } {
  let sent = 0;
  let answered = 0;
  let announced = 0;
  let sawWaiting = false;
  let waitingNow = 0;
  page.on("websocket", (socket) => {
    const claims = new Set<number>();
    const waitingQueries = new Set<number>();
    const parse = (payload: string | Buffer) => JSON.parse(payload.toString()) as Record<string, unknown>;
    socket.on("framesent", ({ payload }) => {
      const message = parse(payload);
      if (message.type === "Mutation" && message.udfPath === "goLiveAlerts:claim") {
        claims.add(message.requestId as number);
        sent += 1;
      }
      if (message.type === "ModifyQuerySet") {
        for (const change of message.modifications as { type: string; queryId: number; udfPath?: string }[]) {
          if (change.type === "Add" && change.udfPath === "goLiveAlerts:myPendingAlerts") {
            waitingQueries.add(change.queryId);
          }
        }
      }
    });
    socket.on("framereceived", ({ payload }) => {
      const message = parse(payload);
      if (message.type === "MutationResponse" && claims.delete(message.requestId as number)) {
        answered += 1;
        if (message.success === true && message.result !== null) announced += 1;
      }
      if (message.type === "Transition") {
        for (const change of message.modifications as {
          type: string;
          queryId: number;
          value?: unknown[];
        }[]) {
          if (change.type !== "QueryUpdated" || !waitingQueries.has(change.queryId)) continue;
          waitingNow = change.value?.length ?? 0;
          if (waitingNow > 0) sawWaiting = true;
        }
      }
    });
  });
  return {
    settled: () => answered === sent && (sent > 0 || (sawWaiting && waitingNow === 0)),
    announced: () => announced,
  };
}

// Two browsers and a dozen pages: on a busy 2-core machine it needs more than the default minute.
test(
  "a new user saves a show signed out, follows two shops, hears it go live once, and adds it to a calendar",
  { timeout: 120_000 },
  async () => {
    // A scheduled show of this file's own seller: no other file takes it live.
    const sellerUser = await ownSeller("watch-list", ["SCHEDULED"]);
    const { shopName } = sellerUser;
    const [streamTitle = "", streamId = ""] = [sellerUser.streamTitles[0], sellerUser.streamIds[0]];
    const otherShops = DEMO_SHOPS.filter((shop) => shop.status === "active" && shop.liveShopName !== shopName)
      .slice(0, 1)
      .map((shop) => shop.liveShopName);
    const buyer = await newVisitor(browser);
    const buyerClaims = goLiveClaims(buyer.page);

    // Signed out: "Save" leads to sign-in, and the save completes on return.
    await buyer.page.goto(`/stream/${streamId}`);
    await buyer.page.getByRole("heading", { level: 1, name: streamTitle }).waitFor();
    const streamUrl = new URL(buyer.page.url()).pathname;
    await buyer.page
      .getByRole("button", { name: new RegExp(`^Save`) })
      .first()
      .click();
    await buyer.page.waitForURL((url) => url.pathname === "/sign-in");
    await buyer.page.getByLabel("Email").fill(`watcher.${Date.now()}@example.com`);
    await buyer.page.getByRole("button", { name: /sign in as a new user/i }).click();
    await buyer.page.waitForURL((url) => url.pathname === streamUrl);
    await notices(buyer.page)
      .getByText(/Saved .* to your watch list/)
      .waitFor();
    await buyer.page.getByRole("button", { name: /^Save/, pressed: true }).first().waitFor();
    await screenshot(buyer.page, "watch-list-saved-after-sign-in");

    // Follow two shops: the show's own, from its page, and another from explore's shop list.
    await buyer.page.getByRole("link", { name: shopName }).first().click();
    await buyer.page.getByRole("heading", { level: 1, name: shopName }).waitFor();
    await buyer.page
      .getByRole("button", { name: new RegExp(`^Follow`) })
      .first()
      .click();
    await buyer.page
      .getByRole("button", { name: /^Follow/, pressed: true })
      .first()
      .waitFor();
    await buyer.page.goto("/explore/live-shops");
    await buyer.page.getByRole("button", { name: `Follow ${otherShops[0]}` }).click();
    await buyer.page.getByRole("button", { name: `Follow ${otherShops[0]}`, pressed: true }).waitFor();

    // The watch list, open in two tabs of the same browser.
    await buyer.page.goto("/watch-list");
    const comingUp = buyer.page.getByRole("region", { name: "Coming up" });
    await comingUp.getByRole("heading", { name: streamTitle }).waitFor();
    await comingUp
      .getByText(/Starts in|Starting now|Running late/)
      .first()
      .waitFor();
    const following = buyer.page.getByRole("region", { name: "Shops you follow" });
    await following.getByRole("heading", { name: shopName }).waitFor();
    await following.getByRole("heading", { name: otherShops[0] }).waitFor();
    await screenshot(buyer.page, "watch-list-before-live");
    const secondTab = await buyer.context.newPage();
    const secondTabClaims = goLiveClaims(secondTab);
    await secondTab.goto("/");
    await secondTab.getByRole("heading", { name: "Live now" }).waitFor();
    await buyer.page.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));

    // Add the show to a calendar: one file with every upcoming saved show.
    const [download] = await Promise.all([
      buyer.page.waitForEvent("download"),
      buyer.page.getByRole("button", { name: "Add all to calendar" }).click(),
    ]);
    const ics = readFileSync((await download.path()) ?? "", "utf8");
    expect(ics).toContain("BEGIN:VCALENDAR");
    expect(ics.replace(/\r\n /g, "")).toContain(`SUMMARY:${streamTitle.replace(/([,;])/g, "\\$1")}`);

    // Subscribe to the private feed: its address serves the saved show; turned off, it is gone.
    const feedPanel = buyer.page.getByRole("region", { name: "Calendar feed" });
    await feedPanel.getByRole("button", { name: /Turn on/ }).click();
    const address = await feedPanel.getByRole("textbox").inputValue();
    expect(address).toMatch(/\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
    const feed = await buyer.page.request.get(address);
    expect(feed.status()).toBe(200);
    expect(feed.headers()["content-type"]).toContain("text/calendar");
    expect((await feed.text()).replace(/\r\n /g, "")).toContain(streamTitle.slice(0, 20));
    await screenshot(buyer.page, "watch-list-feed-on");

    // The seller takes the show live in another browser.
    const { seller } = await takeShowLive(browser, sellerUser, streamTitle);

    // The list moves it to "Live now" without reload, and exactly one tab announces it.
    const liveNow = buyer.page.getByRole("region", { name: "Live now" });
    await liveNow.getByRole("heading", { name: streamTitle }).waitFor({ timeout: 10_000 });
    await comingUp.getByRole("heading", { name: streamTitle }).waitFor({ state: "detached" });
    const notice = (page: Page) => notices(page).getByText(`${streamTitle} is live now`);
    await Promise.race([notice(buyer.page).waitFor(), notice(secondTab).waitFor()]);
    // Both tabs are done with the alert, and one claim of one tab was answered with the show.
    await expect
      .poll(() => buyerClaims.settled() && secondTabClaims.settled(), { timeout: 10_000 })
      .toBe(true);
    expect(buyerClaims.announced() + secondTabClaims.announced()).toBe(1);
    const shown = (await notice(buyer.page).count()) + (await notice(secondTab).count());
    expect(shown).toBe(1);
    const announcer = (await notice(buyer.page).count()) === 1 ? buyer.page : secondTab;
    expect(await buyer.page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(
      true,
    );
    await screenshot(announcer, "watch-list-go-live-notice");
    await screenshot(buyer.page, "watch-list-live");
    await notices(announcer).getByRole("link", { name: "Watch now" }).click();
    await announcer.waitForURL((url) => url.pathname === streamUrl);

    // Turning the feed off revokes its address.
    if (announcer === buyer.page) await buyer.page.goto("/watch-list");
    await feedPanel.getByRole("button", { name: "Turn off" }).click();
    await buyer.page
      .getByRole("alertdialog")
      .getByRole("button", { name: /Turn off/ })
      .click();
    await feedPanel.getByRole("button", { name: /Turn on/ }).waitFor();
    expect((await buyer.page.request.get(address)).status()).toBe(404);

    expect(buyer.errors).toEqual([]);
    expect(seller.errors).toEqual([]);
  },
);

test("signed out, the watch list asks to sign in", async () => {
  const { page, errors } = await newVisitor(browser, { width: 390, height: 844 });
  await page.goto("/watch-list");
  await page
    .getByRole("link", { name: /Sign in/ })
    .first()
    .waitFor();
  await screenshot(page, "watch-list-signed-out");
  expect(errors).toEqual([]);
});

test("a visitor follows a shop signed out, and the follow completes after sign-in", async () => {
  const shopName = DEMO_SHOPS.filter((shop) => shop.status === "active")[2].liveShopName;
  const { page, errors } = await newVisitor(browser);
  // Searched for: shops other files open in the shared store can push it off the first page.
  await page.goto(`/explore/live-shops?q=${encodeURIComponent(shopName)}`);
  await page.getByRole("button", { name: `Follow ${shopName}` }).click();
  await page.waitForURL((url) => url.pathname === "/sign-in");
  await page.getByLabel("Email").fill(`follower.${Date.now()}@example.com`);
  await page.getByRole("button", { name: /sign in as a new user/i }).click();
  await page.waitForURL((url) => url.pathname === "/explore/live-shops");
  await page.getByRole("button", { name: `Follow ${shopName}`, pressed: true }).waitFor();
  await screenshot(page, "watch-list-followed-after-sign-in");
  expect(errors).toEqual([]);
});
