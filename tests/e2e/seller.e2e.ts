import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { DEMO_USERS } from "@convex/lib/data/demo";
import { utcToZonedInput } from "@convex/lib/time";
import { launchBrowser, newVisitor, screenshot, sidewaysOverflow, signInAs } from "./browser";
import { ownSeller } from "./own-seller";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

const HOUR = 60 * 60 * 1000;
const SHOP_ZONE = "America/New_York";

test(
  "a new seller opens a shop, gets it approved, and takes a show live for everyone, then adds its replay",
  {
    timeout: 180_000,
  },
  async () => {
    const stamp = Date.now();
    const shopName = `Dawn Bakery ${stamp}`;
    const streamTitle = `Sourdough live ${stamp}`;
    const seller = await newVisitor(browser, { width: 390, height: 844 });

    // Sign in as a new user: a viewer with no shop, told how to open one.
    await seller.page.goto("/sign-in?redirect=/dashboard");
    await seller.page.getByLabel("Email").fill(`baker.${stamp}@example.com`);
    await seller.page.getByRole("button", { name: /sign in as a new user/i }).click();
    await seller.page.waitForURL((url) => url.pathname === "/dashboard");
    await seller.page.getByText(/You have no live shop yet/).waitFor();
    await seller.page.getByRole("link", { name: "Open a live shop" }).click();

    // The required fields, a category and a metro area, so the shop can be submitted.
    await seller.page.getByLabel("Shop name").fill(shopName);
    expect(await seller.page.getByLabel("Web address (slug)").inputValue()).toBe(`dawn-bakery-${stamp}`);
    await seller.page.getByLabel("Description").fill("Sourdough and pastries, baked live before dawn.");
    await seller.page.getByRole("button", { name: "Add category" }).click();
    await seller.page.getByLabel("Category", { exact: true }).selectOption("food_beverage");
    await seller.page.getByRole("combobox", { name: "Metro areas served" }).fill("austin");
    await seller.page.getByRole("option", { name: "Austin-Round Rock-San Marcos, TX" }).click();
    await seller.page.getByText("This address is free.").waitFor();
    expect(await sidewaysOverflow(seller.page)).toBeLessThanOrEqual(0);
    await screenshot(seller.page, "seller-new-shop-phone");
    await seller.page.getByRole("button", { name: "Create shop" }).click();
    await seller.page.waitForURL((url) => /^\/dashboard\/liveshops\/(?!new$)[^/]+$/.test(url.pathname));
    const shopPath = new URL(seller.page.url()).pathname;

    await seller.page.getByRole("button", { name: "Submit for verification" }).click();
    await seller.page.getByText("Awaiting verification").first().waitFor();
    await screenshot(seller.page, "seller-shop-submitted");

    // An admin approves it. There is no verification queue yet, so the admin opens the shop's page in the
    // dashboard, which offers an admin the moderation actions.
    const admin = await newVisitor(browser);
    const adminUser = DEMO_USERS.find((user) => user.role === "admin");
    if (!adminUser) throw new Error("The demo data has an admin.");
    await signInAs(admin.page, adminUser.name);
    await admin.page.goto(shopPath);
    await admin.page.getByRole("button", { name: "Approve" }).click();
    await admin.page.getByText("Approved.").waitFor();
    await screenshot(admin.page, "admin-approved-shop");
    // The seller's page follows without reload.
    await seller.page.getByText("Active", { exact: true }).first().waitFor({ timeout: 5_000 });

    // A stream, entered in the shop's zone, with a platform link.
    await seller.page.getByRole("link", { name: "Streams of this shop" }).click();
    await seller.page.getByRole("link", { name: "New stream" }).click();
    // Listed where the shop is until the seller says otherwise (issue 16 item 6).
    await seller.page
      .getByRole("list", { name: "Metro areas: chosen" })
      .getByText(/^Austin/)
      .waitFor();
    await seller.page.getByLabel("Title").fill(streamTitle);
    const start = Date.now() + HOUR;
    await seller.page.getByLabel("Start (optional)").fill(utcToZonedInput(start, SHOP_ZONE));
    await seller.page.getByLabel("Stop (optional)").fill(utcToZonedInput(start + 2 * HOUR, SHOP_ZONE));
    await seller.page.getByRole("button", { name: "Add a platform link" }).click();
    await seller.page.getByLabel("Platform").selectOption("whatnot");
    await seller.page.getByLabel("Whatnot stream link").fill("https://www.tiktok.com/@dawn/live");
    await seller.page.getByLabel("Whatnot stream link").blur();
    await seller.page.getByText("A Whatnot link must be on whatnot.com.").waitFor();
    await seller.page.getByLabel("Whatnot stream link").fill("https://www.whatnot.com/live/dawn-bakery");
    await screenshot(seller.page, "seller-new-stream-phone");
    await seller.page.getByRole("button", { name: "Create stream" }).click();
    await seller.page.getByText("Your stream is saved as a draft.").waitFor();

    const controls = seller.page.getByRole("group", { name: `Status of ${streamTitle}` });
    await controls.getByRole("button", { name: "Schedule" }).click();
    await controls.getByRole("button", { name: "Back to draft" }).waitFor();

    // A buyer on the home page, in another browser context, sees the show go live without reloading.
    const buyer = await newVisitor(browser);
    await buyer.page.goto("/");
    await buyer.page.getByRole("heading", { name: "Live now" }).waitFor();
    await buyer.page.locator("article").first().waitFor();
    expect(
      await buyer.page
        .getByRole("region", { name: "Live now" })
        .getByRole("heading", { name: streamTitle })
        .count(),
    ).toBe(0);
    await buyer.page.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));

    await controls.getByRole("button", { name: "Go live" }).click();
    await controls.getByRole("button", { name: "Pause" }).waitFor();
    await buyer.page
      .getByRole("region", { name: "Live now" })
      .getByRole("heading", { name: streamTitle })
      .waitFor({ timeout: 5_000 });
    expect(await buyer.page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(
      true,
    );
    await screenshot(buyer.page, "buyer-sees-new-seller-live");
    await screenshot(seller.page, "seller-stream-live-phone");

    // Ending asks first; then only the replay link can be changed.
    await controls.getByRole("button", { name: "End" }).click();
    await seller.page.getByRole("alertdialog", { name: `End “${streamTitle}” now?` }).waitFor();
    await screenshot(seller.page, "seller-end-confirm");
    await seller.page.getByRole("button", { name: "End stream" }).click();
    await buyer.page
      .getByRole("region", { name: "Live now" })
      .getByRole("heading", { name: streamTitle })
      .waitFor({ state: "detached", timeout: 5_000 });
    await seller.page.getByRole("button", { name: "Save replay link" }).waitFor();
    expect(await seller.page.getByLabel("Title").count()).toBe(0);
    await seller.page.getByLabel("Replay link (optional)").fill("https://www.youtube.com/watch?v=dawnbake");
    await seller.page.getByRole("button", { name: "Save replay link" }).click();
    await seller.page.getByText("Your changes are saved.").waitFor();
    await screenshot(seller.page, "seller-replay-saved");

    // The dashboard lists it under ended shows.
    await seller.page.getByRole("link", { name: "Overview" }).click();
    const ended = seller.page.getByRole("region", { name: "Ended and cancelled" });
    await ended.getByText(streamTitle).waitFor();
    await screenshot(seller.page, "seller-dashboard-after");

    expect(seller.errors).toEqual([]);
    expect(admin.errors).toEqual([]);
    expect(buyer.errors).toEqual([]);
  },
);

// A 1×1 PNG: the smallest picture a browser shows.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

test("a seller uploads her shop's logo: previewed, saved, shown publicly; replaced, its file is gone", async () => {
  // A shop of this file's own: no other file reads its pictures.
  const owner = await ownSeller("seller", []);
  const seller = await newVisitor(browser);
  await signInAs(seller.page, owner);
  await seller.page.goto("/dashboard/liveshops");
  await seller.page
    .getByRole("link", { name: /^Edit / })
    .first()
    .click();
  const logo = seller.page.getByLabel(/^Logo/);
  const picker = (label: string) =>
    seller.page
      .getByRole("button", { name: `Upload a picture for ${label}` })
      .locator("xpath=preceding-sibling::input[@type='file']");

  // Not a picture: refused in words, nothing uploaded.
  await picker("Banner image").setInputFiles({
    name: "notes.txt",
    mimeType: "text/plain",
    buffer: Buffer.from("hi"),
  });
  await seller.page
    .getByRole("alert")
    .filter({ hasText: "Choose a PNG, JPEG, WebP, GIF or AVIF picture." })
    .waitFor();

  await picker("Logo").setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: PNG });
  await seller.page.getByText("Uploaded. The preview shows it; save to use it.").waitFor();
  const uploaded = await logo.inputValue();
  expect(uploaded).toMatch(/\/api\/storage\//);
  const preview = seller.page.getByRole("img", { name: "Logo preview" });
  await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
  await screenshot(seller.page, "seller-logo-uploaded");
  await seller.page.getByRole("button", { name: "Save shop" }).click();
  await seller.page.getByText("Your changes are saved.").waitFor();

  const slug = await seller.page.getByLabel("Web address (slug)").inputValue();
  const visitor = await newVisitor(browser);
  await visitor.page.goto(`/live-shop/${slug}`);
  const shown = visitor.page.locator(`img[src="${uploaded}"]`).first();
  await expect.poll(() => shown.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);

  // Replaced by a link: the uploaded file is deleted.
  await logo.fill("/demo/shops/east-austin-denim-co-logo.svg");
  await seller.page.getByRole("button", { name: "Save shop" }).click();
  await seller.page.getByText("Your changes are saved.").waitFor();
  await expect.poll(async () => (await seller.page.request.get(uploaded)).status()).toBe(404);
  expect(seller.errors).toEqual([]);
  expect(visitor.errors).toEqual([]);
});
