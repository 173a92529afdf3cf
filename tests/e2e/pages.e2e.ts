import { readFile } from "node:fs/promises";
import { ConvexHttpClient } from "convex/browser";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { api } from "../../convex/_generated/api";
import { baseUrl, launchBrowser, newVisitor, screenshot, sidewaysOverflow } from "./browser";

const SHOP_SLUG = "east-austin-denim-co";
const SHOP_NAME = "East Austin Denim Co.";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

test("a demo shop's page opens by slug, with its streams, JSON-LD and title", async () => {
  const { page, errors } = await newVisitor(browser);
  await page.goto(`/live-shop/${SHOP_SLUG}`);
  await page.getByRole("heading", { level: 1, name: SHOP_NAME }).waitFor();
  expect(await page.title()).toBe(`${SHOP_NAME} · LiveLocal`);
  const jsonLd = await page.locator('script[type="application/ld+json"]').textContent();
  expect(JSON.parse(jsonLd ?? "{}")).toMatchObject({ "@context": "https://schema.org", name: SHOP_NAME });
  await screenshot(page, "live-shop-desktop");
  expect(errors).toEqual([]);
});

test("the same shop opens by id, and fits a phone", async () => {
  const client = new ConvexHttpClient(baseUrl());
  const shop = await client.query(api.liveShops.getPublicShop, { idOrSlug: SHOP_SLUG });
  expect(shop).not.toBeNull();
  const { page, errors } = await newVisitor(browser, { width: 390, height: 844 });
  await page.goto(`/live-shop/${shop!._id}`);
  await page.getByRole("heading", { level: 1, name: SHOP_NAME }).waitFor();
  const overflow = await sidewaysOverflow(page);
  expect(overflow).toBeLessThanOrEqual(0);
  await screenshot(page, "live-shop-phone");
  expect(errors).toEqual([]);
});

test("a home card opens its stream page, which downloads an .ics of the show", async () => {
  const { page, errors } = await newVisitor(browser);
  await page.goto("/");
  const card = page.locator("article").filter({ hasText: "Live" }).first();
  const title = (await card.getByRole("heading").textContent())?.trim() ?? "";
  await card.getByRole("link", { name: title }).click();
  await page.waitForURL(/\/stream\//);
  await page.getByRole("heading", { level: 1, name: title }).waitFor();
  expect(await page.title()).toBe(`${title} · LiveLocal`);

  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Add to calendar" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/\.ics$/);
  const ics = await readFile(await download.path(), "utf8");
  expect(ics.startsWith("BEGIN:VCALENDAR\r\n")).toBe(true);
  expect(ics).toMatch(/\r\nDTSTART:\d{8}T\d{6}Z\r\n/);
  // A calendar app reads the file unfolded (RFC 5545 §3.1: a line break and a space continue a line).
  expect(ics.replace(/\r\n[ \t]/g, "")).toContain(`URL:${page.url()}`);
  await screenshot(page, "stream-desktop");
  expect(errors).toEqual([]);
});

test("a stream page fits a phone", async () => {
  const { page, errors } = await newVisitor(browser, { width: 390, height: 844 });
  await page.goto("/");
  const card = page.locator("article").first();
  await card.getByRole("link").click();
  await page.waitForURL(/\/stream\//);
  await page.getByRole("heading", { level: 1 }).waitFor();
  const overflow = await sidewaysOverflow(page);
  expect(overflow).toBeLessThanOrEqual(0);
  await screenshot(page, "stream-phone");
  expect(errors).toEqual([]);
});

test("a shop in maintenance shows its temporarily closed notice", async () => {
  const { page, errors } = await newVisitor(browser);
  await page.goto("/live-shop/alberta-street-coffee");
  await page.getByText("Temporarily closed.").waitFor();
  await screenshot(page, "live-shop-maintenance");
  expect(errors).toEqual([]);
});

test("an unknown shop slug shows the not-found page", async () => {
  const { page } = await newVisitor(browser);
  await page.goto("/live-shop/no-such-shop");
  await page.getByText("Page not found: /live-shop/no-such-shop").waitFor();
  expect(await page.title()).toBe("Page Not Found · LiveLocal");
});
