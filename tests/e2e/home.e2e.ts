import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { launchBrowser, newVisitor, screenshot, sidewaysOverflow } from "./browser";
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
  const overflow = await sidewaysOverflow(page);
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

// Issue 41: the list of metro areas was clipped by its own section (content-visibility's paint
// containment), so at 1280 px no option could be clicked and at 390 px only two showed.
test.each([
  ["at 1280 px", { width: 1280, height: 900 }],
  ["on a 390 px phone", { width: 390, height: 844 }],
])("a metro area typed on the home page is chosen with a click %s", async (_, viewport) => {
  const { page, errors } = await newVisitor(browser, viewport);
  await page.goto("/");
  const picker = page.getByRole("combobox", { name: "Metro area" });
  await picker.scrollIntoViewIfNeeded();
  await picker.fill("San");
  const options = page.getByRole("listbox", { name: "Metro areas" }).getByRole("option");
  await options.first().waitFor();
  expect(await options.count()).toBe(8);
  // Every option lies inside the screen's width and is the element a click there lands on.
  for (const option of await options.all()) {
    await option.scrollIntoViewIfNeeded();
    expect(await option.evaluate(hitByClick), (await option.textContent()) ?? "").toBe(true);
  }
  await screenshot(page, `home-metro-picker-${viewport.width}`);
  // Playwright's click waits until the option itself would receive it: nothing may cover it.
  await options.filter({ hasText: "San Antonio" }).click({ timeout: 5_000 });
  await page.waitForURL(
    (url) => url.pathname === "/explore/streams" && url.searchParams.get("msa") === "41700",
  );
  expect(errors).toEqual([]);
});

/** Whether a click at the middle of the element reaches the element (nothing covers or clips it). */
function hitByClick(element: Element): boolean {
  const box = element.getBoundingClientRect();
  const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  return hit !== null && element.contains(hit);
}
