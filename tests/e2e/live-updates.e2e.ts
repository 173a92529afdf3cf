import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { launchBrowser, newVisitor, screenshot, signInAs } from "./browser";
import { ownSeller } from "./own-seller";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

test("a seller going live in one browser appears on another visitor's home page without reload", async () => {
  const mine = await ownSeller("live-updates", ["SCHEDULED"]);
  const [streamTitle = ""] = mine.streamTitles;
  const seller = await newVisitor(browser);
  const buyer = await newVisitor(browser, { width: 390, height: 844 });

  await buyer.page.goto("/");
  await buyer.page.getByRole("heading", { name: "Live now" }).waitFor();
  await buyer.page.locator("article").first().waitFor();
  expect(
    await buyer.page
      .getByRole("region", { name: "Live now" })
      .getByRole("heading", { name: streamTitle })
      .count(),
  ).toBe(0);
  // A marker that a reload would wipe.
  await buyer.page.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));

  await signInAs(seller.page, mine);
  await seller.page.goto("/dashboard");
  const controls = seller.page.getByRole("group", { name: `Status of ${streamTitle}` });
  await controls.getByRole("button", { name: "Go live" }).click();
  await controls.getByRole("button", { name: "Pause" }).waitFor();

  await buyer.page
    .getByRole("region", { name: "Live now" })
    .getByRole("heading", { name: streamTitle })
    .waitFor({ timeout: 5_000 });
  expect(await buyer.page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(
    true,
  );
  await screenshot(buyer.page, "live-update-buyer");
  await screenshot(seller.page, "live-update-seller");

  // And back: ending the show takes it off the board.
  await controls.getByRole("button", { name: "End" }).click();
  await seller.page.getByRole("alertdialog").getByRole("button", { name: "End stream" }).click();
  await buyer.page
    .getByRole("region", { name: "Live now" })
    .getByRole("heading", { name: streamTitle })
    .waitFor({ state: "detached", timeout: 5_000 });
  expect(seller.errors).toEqual([]);
  expect(buyer.errors).toEqual([]);
});
