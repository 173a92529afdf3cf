import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { launchBrowser, newVisitor, screenshot, sidewaysOverflow } from "./browser";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

test(
  "a new seller saves her shop and a stream in one go each, and previews her pending shop page; nobody else sees it",
  { timeout: 180_000 },
  async () => {
    const stamp = Date.now();
    // One unbroken word, as some people name things: it must wrap, never widen the page.
    const shopName = `Moonlightpotterystudiocollective${stamp}`;
    const seller = await newVisitor(browser, { width: 390, height: 844 });
    await seller.page.goto("/sign-in?redirect=/dashboard");
    await seller.page.getByLabel("Email").fill(`potter.${stamp}@example.com`);
    await seller.page.getByRole("button", { name: /sign in as a new user/i }).click();
    await seller.page.waitForURL((url) => url.pathname === "/dashboard");
    await seller.page.getByRole("link", { name: "Open a live shop" }).click();

    // Fields, a category, a metro area, products and a cover: one save.
    await seller.page.getByLabel("Shop name").fill(shopName);
    await seller.page.getByLabel("Description").fill("Wheel-thrown mugs and bowls, glazed by hand.");
    await seller.page.getByRole("button", { name: "Add category" }).click();
    await seller.page.getByLabel("Category", { exact: true }).selectOption("home_goods");
    await seller.page.getByRole("combobox", { name: "Metro areas served" }).fill("austin");
    await seller.page.getByRole("option", { name: "Austin-Round Rock-San Marcos, TX" }).click();
    await seller.page
      .getByLabel("Products summary (optional)")
      .fill("Mugs, bowls and vases, seconds sale monthly.");
    await seller.page.getByRole("button", { name: "Add product" }).click();
    await seller.page.getByLabel("Name", { exact: true }).fill("Speckled mug");
    await seller.page.getByLabel("Price").fill("28");
    await seller.page
      .getByLabel("Cover image (optional)")
      .fill("/demo/shops/peachtree-clay-studio-cover.svg");
    await seller.page.getByText("This address is free.").waitFor();
    await seller.page.getByRole("button", { name: "Create shop" }).click();
    await seller.page.waitForURL((url) => /^\/dashboard\/liveshops\/(?!new$)[^/]+$/.test(url.pathname));
    const editPath = new URL(seller.page.url()).pathname;

    // Everything the one save sent is there after a reload.
    await seller.page.reload();
    await seller.page.getByRole("button", { name: "Remove Austin-Round Rock-San Marcos, TX" }).waitFor();
    expect(await seller.page.getByLabel("Category", { exact: true }).inputValue()).toBe("home_goods");
    expect(await seller.page.getByLabel("Name", { exact: true }).inputValue()).toBe("Speckled mug");
    expect(await sidewaysOverflow(seller.page)).toBeLessThanOrEqual(0);
    await screenshot(seller.page, "shop-preview-dashboard-long-name-phone");

    for (const path of ["/dashboard", "/dashboard/liveshops"]) {
      await seller.page.goto(path);
      await seller.page.getByText(shopName).first().waitFor();
      // The dashboard's insights load after it (their charts are a chunk of their own): measured with them.
      if (path === "/dashboard")
        await seller.page
          .getByRole("table", { name: "Counts by day, last 30 days" })
          .waitFor({ state: "attached" });
      expect(await sidewaysOverflow(seller.page), path).toBeLessThanOrEqual(0);
    }
    await seller.page.goto(editPath);
    await seller.page.getByRole("button", { name: "Submit for verification" }).click();
    await seller.page.getByText("Submitted. An admin will verify your shop soon.").waitFor();

    // A stream with a category, a metro area and a platform link, in one save.
    await seller.page.getByRole("link", { name: "Streams of this shop" }).click();
    await seller.page.getByRole("link", { name: "New stream" }).click();
    await seller.page.getByLabel("Title").fill(`Kiln opening ${stamp}`);
    await seller.page.getByRole("button", { name: "Add a platform link" }).click();
    await seller.page.getByLabel("Platform").selectOption("Whatnot");
    await seller.page.getByLabel("Whatnot stream link").fill("https://www.whatnot.com/live/moonlight");
    await seller.page.getByRole("button", { name: "Create stream" }).click();
    await seller.page.waitForURL((url) => /^\/dashboard\/streams\/(?!new$)[^/]+$/.test(url.pathname));
    await seller.page.reload();
    expect(await seller.page.getByLabel("Whatnot stream link").inputValue()).toBe(
      "https://www.whatnot.com/live/moonlight",
    );
    // The shop's category and area came with it, saved in the same mutation.
    await seller.page.getByRole("button", { name: "Remove Austin-Round Rock-San Marcos, TX" }).waitFor();
    await seller.page.goto("/dashboard/streams");
    await seller.page.getByText(`Kiln opening ${stamp}`).waitFor();
    expect(await sidewaysOverflow(seller.page)).toBeLessThanOrEqual(0);
    await screenshot(seller.page, "shop-preview-dashboard-streams-long-name-phone");

    // Her pending shop's page, as a preview.
    await seller.page.goto(editPath);
    await seller.page.getByRole("link", { name: "Preview page" }).click();
    await seller.page.getByText("Preview: not public yet.").waitFor();
    const shopPath = new URL(seller.page.url()).pathname;
    await seller.page.getByRole("heading", { name: "What we sell" }).waitFor();
    await seller.page.getByRole("heading", { name: "Speckled mug" }).waitFor();
    expect(await seller.page.locator('img[src="/demo/shops/peachtree-clay-studio-cover.svg"]').count()).toBe(
      1,
    );
    expect(await sidewaysOverflow(seller.page)).toBeLessThanOrEqual(0);
    await screenshot(seller.page, "shop-preview-phone");
    await seller.page.setViewportSize({ width: 1280, height: 900 });
    await screenshot(seller.page, "shop-preview-desktop");

    // Anyone else, signed out or not, gets the not-found page.
    const visitor = await newVisitor(browser);
    await visitor.page.goto(shopPath);
    await visitor.page.getByText(`Page not found: ${shopPath}`).waitFor();
    expect(await visitor.page.getByRole("heading", { name: shopName }).count()).toBe(0);

    expect(seller.errors).toEqual([]);
    await seller.context.close();
    await visitor.context.close();
  },
);

test("every shop card shows its whole name at 1280 and 820 px", { timeout: 60_000 }, async () => {
  for (const width of [1280, 820]) {
    const visitor = await newVisitor(browser, { width, height: 900 });
    await visitor.page.goto("/explore/live-shops");
    const names = visitor.page.locator("article h3");
    await names.first().waitFor();
    const cut = await names.evaluateAll((headings) =>
      headings.filter((heading) => heading.scrollHeight > heading.clientHeight + 1).map((h) => h.textContent),
    );
    expect(cut, `at ${width} px`).toEqual([]);
    expect(await names.count()).toBeGreaterThanOrEqual(12);
    await screenshot(visitor.page, `shop-cards-${width}`);
    await visitor.context.close();
  }
});
