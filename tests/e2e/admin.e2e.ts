import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { launchBrowser, newVisitor, screenshot, sidewaysOverflow, signInAs, type Visitor } from "./browser";
import { demoAdmin, openAndSubmitShop } from "./shops";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

const PHONE = { width: 390, height: 844 };

/** The admin console's screens, each at desktop and phone width, light and dark, for looking at. */
async function screenshotConsole(admin: Visitor, name: string, ready: (page: Page) => Promise<void>) {
  for (const [viewport, size] of [
    [{ width: 1280, height: 900 }, "desktop"],
    [PHONE, "phone"],
  ] as const) {
    await admin.page.setViewportSize(viewport);
    for (const scheme of ["light", "dark"] as const) {
      // The app follows the system's scheme when it loads (index.html), until the toggle is used.
      await admin.page.emulateMedia({ colorScheme: scheme });
      await admin.page.reload();
      await ready(admin.page);
      if (size === "phone") expect(await sidewaysOverflow(admin.page)).toBeLessThanOrEqual(0);
      await screenshot(admin.page, `admin-${name}-${size}-${scheme}`);
    }
  }
  await admin.page.setViewportSize({ width: 1280, height: 900 });
  await admin.page.emulateMedia({ colorScheme: "light" });
  await admin.page.reload();
  await ready(admin.page);
}

test(
  "an admin approves one shop and rejects another from the queue, force-ends a live show, and the log lists it all",
  { timeout: 240_000 },
  async () => {
    const stamp = Date.now();
    const approvedName = `Vinyl Vault ${stamp}`;
    // One unbroken word, as some people name things: the console's phone layout must wrap it.
    const rejectedName = `Tapetroveandcassettecollective${stamp}`;
    const streamTitle = `Crate digging live ${stamp}`;
    const rejection = "Add photos of the tapes you sell, and say where you ship from.";
    const endReason = "Sound problems for the whole show: please check your microphone.";

    // A new seller submits two shops, one after the other.
    const seller = await newVisitor(browser);
    await seller.page.goto("/sign-in?redirect=/dashboard");
    await seller.page.getByLabel("Email").fill(`crates.${stamp}@example.com`);
    await seller.page.getByRole("button", { name: /sign in as a new user/i }).click();
    await seller.page.waitForURL((url) => url.pathname === "/dashboard");
    const approvedId = await openAndSubmitShop(seller.page, approvedName);
    await openAndSubmitShop(seller.page, rejectedName);
    // The seller waits on their dashboard, which follows the admin's decisions without a reload.
    await seller.page.goto("/dashboard");
    await seller.page.getByRole("heading", { name: "Your live shops" }).waitFor();
    await seller.page.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));

    // The demo admin opens the console from the account menu: the overview counts what waits.
    const admin = await newVisitor(browser);
    const adminUser = demoAdmin();
    await signInAs(admin.page, adminUser.name);
    await admin.page.getByRole("button", { name: `Account: ${adminUser.name}` }).click();
    await admin.page.getByRole("menuitem", { name: "Admin" }).click();
    await admin.page.waitForURL((url) => url.pathname === "/dashboard/admin");
    await admin.page.getByRole("heading", { name: "Admin console" }).waitFor();
    const shopsCard = admin.page
      .getByRole("list", { name: "Console screens" })
      .getByRole("link", { name: /^Shops/ });
    // The count arrives live: at least the two shops just submitted.
    await shopsCard.getByText(/^\d+\+?$/).waitFor();
    expect(
      Number.parseInt((await shopsCard.getByText(/^\d+\+?$/).textContent()) ?? "0"),
    ).toBeGreaterThanOrEqual(2);
    await screenshotConsole(admin, "overview", async (page) => {
      await page.getByRole("heading", { name: "Admin console" }).waitFor();
    });

    // The queue, waiting longest first: the first shop submitted comes before the second.
    await shopsCard.click();
    await admin.page.waitForURL((url) => url.pathname === "/dashboard/admin/shops");
    const queue = admin.page.getByRole("list", { name: "Verification queue" });
    const approvedCard = queue
      .getByRole("listitem")
      .filter({ has: admin.page.getByRole("heading", { name: approvedName }) });
    const rejectedCard = queue
      .getByRole("listitem")
      .filter({ has: admin.page.getByRole("heading", { name: rejectedName }) });
    await rejectedCard.waitFor();
    const order = await queue.getByRole("heading", { level: 3 }).allTextContents();
    expect(order.indexOf(approvedName)).toBeGreaterThanOrEqual(0);
    expect(order.indexOf(approvedName)).toBeLessThan(order.indexOf(rejectedName));
    await screenshotConsole(admin, "shops", async (page) => {
      await page.getByRole("list", { name: "Verification queue" }).waitFor();
      await page.getByRole("list", { name: "Shops" }).waitFor();
    });

    // Approve the first.
    await approvedCard.getByRole("button", { name: "Approve" }).click();
    await admin.page.getByRole("alertdialog", { name: `Approve ${approvedName}?` }).waitFor();
    await admin.page.getByRole("button", { name: "Approve shop" }).click();
    await admin.page.getByText(`${approvedName} is approved and now active.`).waitFor();
    await approvedCard.waitFor({ state: "detached" });

    // Reject the second: no reason, no rejection.
    await rejectedCard.getByRole("button", { name: "Reject…" }).click();
    const dialog = admin.page.getByRole("dialog", { name: `Reject ${rejectedName}?` });
    await dialog.getByRole("button", { name: "Reject shop" }).click();
    await dialog.getByText("Give a reason: the shop's owner will read it.").waitFor();
    await dialog.getByRole("textbox", { name: "Reason, shown to the shop's owner" }).fill(rejection);
    // The platform's modal dialog (issue 16 item 11): the page behind is inert and does not scroll, and
    // Tab reaches the dialog's controls only (past the last one, the browser's own UI, never the page).
    expect(
      await admin.page.evaluate(() => ({
        modal: document.querySelector("dialog")?.matches(":modal"),
        pageScrolls: getComputedStyle(document.documentElement).overflow !== "hidden",
      })),
    ).toEqual({ modal: true, pageScrolls: false });
    const reached = new Set<string>();
    for (let press = 0; press < 8; press++) {
      await admin.page.keyboard.press("Tab");
      reached.add(
        await admin.page.evaluate(() => {
          const active = document.activeElement;
          if (!active || active === document.body) return "outside the page";
          return document.querySelector("dialog")?.contains(active) ? "dialog" : "page behind";
        }),
      );
    }
    expect(reached.has("dialog")).toBe(true);
    expect(reached.has("page behind")).toBe(false);
    await screenshot(admin.page, "admin-shops-reject-dialog");
    await admin.page.setViewportSize(PHONE);
    await screenshot(admin.page, "admin-shops-reject-dialog-phone");
    await admin.page.setViewportSize({ width: 1280, height: 900 });
    await dialog.getByRole("button", { name: "Reject shop" }).click();
    await dialog.waitFor({ state: "detached" });
    await rejectedCard.waitFor({ state: "detached" });

    // The seller, in their own browser, reads the reason on their dashboard at once.
    await seller.page.getByText(rejection).first().waitFor({ timeout: 10_000 });
    expect(await seller.page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(
      true,
    );
    await screenshot(seller.page, "admin-seller-sees-rejection");

    // The approved shop takes a show live; a buyer sees it on the home page's live-now board.
    await seller.page.goto(`/dashboard/streams/new?shop=${approvedId}`);
    await seller.page.getByLabel("Title").fill(streamTitle);
    await seller.page.getByRole("button", { name: "Create stream" }).click();
    await seller.page.getByText("Your stream is saved as a draft.").waitFor();
    const controls = seller.page.getByRole("group", { name: `Status of ${streamTitle}` });
    await controls.getByRole("button", { name: "Go live" }).click();
    await controls.getByRole("button", { name: "Pause" }).waitFor();

    const buyer = await newVisitor(browser);
    await buyer.page.goto("/");
    const liveNow = buyer.page.getByRole("region", { name: "Live now" });
    await liveNow.getByRole("heading", { name: streamTitle }).waitFor({ timeout: 10_000 });

    // The admin force-ends it; it leaves the buyer's board without a reload.
    await admin.page
      .getByRole("navigation", { name: "Admin console" })
      .getByRole("link", { name: "Streams" })
      .click();
    await admin.page.waitForURL((url) => url.pathname === "/dashboard/admin/streams");
    await screenshotConsole(admin, "streams", async (page) => {
      await page.getByRole("region", { name: "Live now" }).getByRole("list").waitFor();
    });
    // Ending someone else's show takes a reason, which the seller reads on it at once.
    const moderation = admin.page.getByRole("group", { name: `Moderate ${streamTitle}` });
    await moderation.getByRole("button", { name: "End stream…" }).click();
    const endDialog = admin.page.getByRole("dialog", { name: `End “${streamTitle}” now?` });
    await endDialog.getByRole("textbox", { name: "Reason, shown to the stream's seller" }).fill(endReason);
    await screenshot(admin.page, "admin-streams-end-confirm");
    await endDialog.getByRole("button", { name: "End stream" }).click();
    await admin.page.getByText(`“${streamTitle}” is ended.`).waitFor();
    await liveNow.getByRole("heading", { name: streamTitle }).waitFor({ state: "detached", timeout: 10_000 });
    await moderation.waitFor({ state: "detached" });
    await seller.page.getByText(endReason).waitFor({ timeout: 10_000 });
    await screenshot(seller.page, "admin-seller-sees-end-reason");

    // The activity log lists the three actions, newest first, with who and why.
    await admin.page
      .getByRole("navigation", { name: "Admin console" })
      .getByRole("link", { name: "Activity" })
      .click();
    await admin.page.waitForURL((url) => url.pathname === "/dashboard/admin/activity");
    const log = admin.page.getByRole("list", { name: "Admin actions, newest first" });
    await log.waitFor();
    const entries = (await log.getByRole("listitem").allTextContents()).slice(0, 3);
    expect(entries[0]).toContain(`${adminUser.name} ended the stream ${streamTitle}`);
    expect(entries[0]).toContain(`Why: ${endReason}`);
    expect(entries[1]).toContain(`${adminUser.name} rejected the shop ${rejectedName}`);
    expect(entries[1]).toContain(`Why: ${rejection}`);
    expect(entries[2]).toContain(`${adminUser.name} approved the shop ${approvedName}`);
    await screenshotConsole(admin, "activity", async (page) => {
      await page.getByRole("list", { name: "Admin actions, newest first" }).waitFor();
    });

    expect(seller.errors).toEqual([]);
    expect(admin.errors).toEqual([]);
    expect(buyer.errors).toEqual([]);
  },
);
