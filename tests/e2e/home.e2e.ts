import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { launchBrowser, newVisitor, screenshot } from "./browser";
import { demoSellerWithStream } from "../support/demo-seller";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

test("the home page loads with the demo data's live shows", async () => {
  const { page, errors } = await newVisitor(browser);
  await page.goto("/");
  const live = demoSellerWithStream("LIVE");
  await page.getByRole("heading", { name: live.streamTitle }).waitFor();
  expect(await page.getByRole("heading", { name: "Live now" }).isVisible()).toBe(true);
  expect(await page.locator("article").filter({ hasText: "Live" }).count()).toBeGreaterThanOrEqual(2);
  expect(await page.title()).toBe("Live shopping near you · LiveLocal");
  await screenshot(page, "home-desktop");
  expect(errors).toEqual([]);
});

test("on a phone the home page fits the screen", async () => {
  const { page, errors } = await newVisitor(browser, { width: 390, height: 844 });
  await page.goto("/");
  await page.getByRole("heading", { name: "Live now" }).waitFor();
  await page.locator("article").first().waitFor();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await screenshot(page, "home-phone");
  expect(errors).toEqual([]);
});

test("an unknown path shows the not-found page", async () => {
  const { page } = await newVisitor(browser);
  await page.goto("/no/such/page");
  await page.getByText("Page not found: /no/such/page").waitFor();
  expect(await page.title()).toBe("Page Not Found · LiveLocal");
});
