import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { launchBrowser, newVisitor, screenshot, sidewaysOverflow, signInAs } from "./browser";
import { demoSellerWithStream } from "../support/demo-seller";
import { buildSampleStreams, DEMO_STREAM_LINKS } from "../../convex/lib/data/demo";
import { MSAS } from "../../convex/lib/data/msas";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

/** How many shows the list says are live now in the area: 0 when it does not say. */
function liveCount(text: string): number {
  return Number(/(\d+) live now/.exec(text)?.[1] ?? 0);
}

test("a seller going live in one browser changes the map in another, without reload", async () => {
  const { user, streamTitle } = demoSellerWithStream("SCHEDULED");
  const id = buildSampleStreams(Date.now()).find((stream) => stream.title === streamTitle)?.id ?? "";
  const cbsaCode = DEMO_STREAM_LINKS[id]?.cbsaCodes[0] ?? "";
  const areaName = MSAS.find((msa) => msa.cbsaCode === cbsaCode)?.name ?? "";
  expect(areaName).not.toBe("");

  const seller = await newVisitor(browser);
  const buyer = await newVisitor(browser, { width: 1280, height: 900 });
  await buyer.page.goto("/");
  const list = buyer.page.getByRole("list", { name: "Metro areas with shows" });
  await list.waitFor();
  // The busiest areas come first; the seller's, with nothing live yet, may be behind "Show all".
  const showAll = buyer.page.getByRole("button", { name: /^Show all \d+ areas$/ });
  if (await showAll.count()) await showAll.click();
  const area = list.getByRole("link").filter({ hasText: areaName });
  await area.waitFor();
  const before = liveCount(await area.innerText());
  await buyer.page.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));

  await signInAs(seller.page, user.name);
  await seller.page.goto("/dashboard");
  const controls = seller.page.getByRole("group", { name: `Status of ${streamTitle}` });
  await controls.getByRole("button", { name: "Go live" }).click();
  await controls.getByRole("button", { name: "Pause" }).waitFor();

  await area.filter({ hasText: `${before + 1} live now` }).waitFor({ timeout: 10_000 });
  await buyer.page.locator(`[data-area="${cbsaCode}"][data-live]`).waitFor({ state: "attached" });
  expect(await area.innerText()).toContain(streamTitle);
  expect(await buyer.page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(
    true,
  );
  await screenshot(buyer.page, "live-map-buyer");

  // Choosing the area opens explore filtered to it.
  await area.click();
  await buyer.page.waitForURL(
    (url) => url.pathname === "/explore/streams" && url.searchParams.get("msa") === cbsaCode,
  );
  await buyer.page.getByRole("heading", { name: streamTitle }).first().waitFor();

  await controls.getByRole("button", { name: "End" }).click();
  await seller.page.getByRole("alertdialog").getByRole("button", { name: "End stream" }).click();
  expect(seller.errors).toEqual([]);
  expect(buyer.errors).toEqual([]);
});

test("on a phone, explore shows the shows first and the map behind a button", async () => {
  const phone = await newVisitor(browser, { width: 390, height: 844 });
  await phone.page.goto("/explore/streams");
  const shows = phone.page.getByRole("list", { name: "Shows", exact: true });
  await shows.getByRole("link").first().waitFor();
  // Not drawn, and not loaded either (its code and its query wait for the button).
  const map = phone.page.getByTestId("live-map");
  expect(await map.isVisible()).toBe(false);
  // The first show is on the first screen, not a map's height below it.
  const first = await shows.getByRole("link").first().boundingBox();
  expect(first && first.y < 844).toBe(true);

  const toggle = phone.page.getByRole("button", { name: "Show the map" });
  await toggle.click();
  await map.waitFor();
  await phone.page.getByRole("list", { name: "Metro areas with shows" }).waitFor();
  expect(await phone.page.getByRole("button", { name: "Hide the map" }).getAttribute("aria-expanded")).toBe(
    "true",
  );
  const overflow = await sidewaysOverflow(phone.page);
  expect(overflow).toBe(0);
  expect(phone.errors).toEqual([]);
});
