import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { launchBrowser, newVisitor, screenshot, signInAs } from "./browser";
import { demoAdmin, openAndSubmitShop } from "./shops";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

test(
  "a follower is told, in her watch list, when an admin suspends a shop she follows",
  { timeout: 240_000 },
  async () => {
    const stamp = Date.now();
    const shopName = `Button Box ${stamp}`;

    // A new seller's shop, approved by the demo admin.
    const seller = await newVisitor(browser);
    await seller.page.goto("/sign-in?redirect=/dashboard");
    await seller.page.getByLabel("Email").fill(`buttons.${stamp}@example.com`);
    await seller.page.getByRole("button", { name: /sign in as a new user/i }).click();
    await seller.page.waitForURL((url) => url.pathname === "/dashboard");
    const shopId = await openAndSubmitShop(seller.page, shopName);
    const admin = await newVisitor(browser);
    await signInAs(admin.page, demoAdmin().name);
    await admin.page.goto("/dashboard/admin/shops");
    const waiting = admin.page
      .getByRole("list", { name: "Verification queue" })
      .getByRole("listitem")
      .filter({ has: admin.page.getByRole("heading", { name: shopName }) });
    await waiting.getByRole("button", { name: "Approve" }).click();
    await admin.page.getByRole("button", { name: "Approve shop" }).click();
    await admin.page.getByText(`${shopName} is approved and now active.`).waitFor();

    // A viewer of her own follows it from its page.
    const follower = await newVisitor(browser);
    await follower.page.goto("/sign-in");
    await follower.page.getByLabel("Email").fill(`follower.${stamp}@example.com`);
    await follower.page.getByRole("button", { name: /sign in as a new user/i }).click();
    await follower.page.waitForURL((url) => url.pathname !== "/sign-in");
    await follower.page.goto(`/live-shop/${shopId}`);
    await follower.page.getByRole("button", { name: `Follow ${shopName}` }).click();
    await follower.page.getByRole("button", { name: `Follow ${shopName}`, pressed: true }).waitFor();
    await follower.page.goto("/watch-list");
    await follower.page.getByRole("heading", { name: shopName }).first().waitFor();

    // The admin suspends it; her open watch list says what went, without a reload.
    await admin.page.getByRole("searchbox", { name: "Search by shop name or owner's email" }).fill(shopName);
    await admin.page.getByText(`Matches for “${shopName}”`, { exact: false }).waitFor();
    const row = admin.page
      .getByRole("list", { name: "Shops" })
      .getByRole("listitem")
      .filter({ hasText: shopName });
    await row.getByRole("button", { name: "Suspend…" }).click();
    const dialog = admin.page.getByRole("dialog", { name: `Suspend ${shopName}?` });
    await dialog
      .getByRole("textbox", { name: "Reason, shown to the shop's owner" })
      .fill("Listings copied from another seller's shop.");
    await dialog.getByRole("button", { name: "Suspend shop" }).click();
    await admin.page.getByText(`${shopName} is suspended.`).waitFor();

    await follower.page
      .getByText(`${shopName} is off LiveLocal for now: your follow went with it.`)
      .waitFor();
    // The admin's reason is the owner's to read, not her followers'.
    expect(await follower.page.getByText("Listings copied").count()).toBe(0);
    await screenshot(follower.page, "shop-closed-watch-list");
    expect(follower.errors).toEqual([]);
    expect(admin.errors).toEqual([]);
  },
);
