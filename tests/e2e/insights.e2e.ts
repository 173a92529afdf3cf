import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { baseUrl, launchBrowser, newVisitor, screenshot, signInAs } from "./browser";
import { demoSellerWithStream } from "../support/demo-seller";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

/** One total of the seller's insights, as the dashboard shows it. */
async function total(page: Page, label: string): Promise<number> {
  const text = await page
    .getByLabel("Totals")
    .locator("div", { has: page.getByText(label, { exact: true }) })
    .locator("dd")
    .textContent();
  return Number(text?.replaceAll(",", ""));
}

async function waitForTotal(page: Page, label: string, expected: number): Promise<void> {
  await page.waitForFunction(
    ([label, expected]) => {
      const totals = document.querySelector('[aria-label="Totals"]');
      const term = [...(totals?.querySelectorAll("dt") ?? [])].find((dt) => dt.textContent === label);
      return term?.nextElementSibling?.textContent?.replaceAll(",", "") === String(expected);
    },
    [label, expected] as const,
    { timeout: 10_000 },
  );
}

test("a seller's insights move as another browser views the shop and clicks through to a platform", async () => {
  const { user, shopName, shopSlug } = demoSellerWithStream("LIVE");
  const seller = await newVisitor(browser);
  const buyer = await newVisitor(browser, { width: 390, height: 844 });
  // Links out of LiveLocal open other sites: answered here with an empty page.
  const origin = new URL(baseUrl()).origin;
  await buyer.context.route(
    (url) => url.origin !== origin,
    (route) => route.fulfill({ status: 200, contentType: "text/html", body: "<title>Elsewhere</title>" }),
  );

  await signInAs(seller.page, user.name);
  await seller.page.goto("/dashboard");
  const insights = seller.page.getByRole("region", { name: "Insights" });
  await insights.waitFor();
  const shopPicker = insights.getByLabel("Shop", { exact: true });
  if (await shopPicker.count()) await shopPicker.selectOption({ label: shopName });
  await seller.page.getByLabel("Totals").waitFor();
  const views = await total(seller.page, "Page views");
  const clicks = await total(seller.page, "Click-throughs");
  await seller.page.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));

  await buyer.page.goto(`/live-shop/${shopSlug}`);
  await waitForTotal(seller.page, "Page views", views + 1);

  const links = buyer.page
    .getByRole("region", { name: "Live now" })
    .getByRole("list", { name: "Platform links" });
  const popup = buyer.page.waitForEvent("popup");
  await links.getByRole("link").first().click();
  await (await popup).close();
  await waitForTotal(seller.page, "Click-throughs", clicks + 1);

  // A reload is the same visitor in the same hour: not counted again.
  await buyer.page.reload();
  await buyer.page.getByRole("heading", { name: shopName, level: 1 }).waitFor();
  expect(await total(seller.page, "Page views")).toBe(views + 1);

  expect(await seller.page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(
    true,
  );
  expect(await seller.page.getByText(/brings the most click-throughs/).count()).toBe(1);
  await screenshot(seller.page, "insights-seller");
  // For a person to look at (INSIGHTS_SHOTS=<folder>): light and dark, desktop and phone.
  const shots = process.env.INSIGHTS_SHOTS;
  if (shots) {
    for (const theme of ["light", "dark"] as const) {
      await seller.page.evaluate((value) => localStorage.setItem("livelocal:theme", value), theme);
      await seller.page.reload();
      await seller.page.getByLabel("Totals").waitFor();
      for (const width of [1280, 390]) {
        await seller.page.setViewportSize({ width, height: 900 });
        await insights.screenshot({ path: `${shots}/insights-${theme}-${width}.png` });
      }
    }
  }
  expect(seller.errors).toEqual([]);
  expect(buyer.errors).toEqual([]);
}, 180_000);
