import { readFile } from "node:fs/promises";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { DEMO_USERS } from "@convex/lib/data/demo";
import { REJECTION_REASON_REQUIRED } from "@convex/lib/validation";
import { launchBrowser, newVisitor, screenshot, sidewaysOverflow, signInAs, type Visitor } from "./browser";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
  // Vite compiles modules on first request; on a busy machine that alone can outlast a step's timeout.
  const { context, page } = await newVisitor(browser);
  page.setDefaultTimeout(100_000);
  await signInAs(page, demoUser("admin").name);
  await page.goto("/dashboard/admin/privacy-requests");
  await page.getByRole("heading", { name: "Open requests" }).waitFor();
  await page.goto("/dashboard/settings");
  await privacySection(page).getByRole("heading", { name: "Past requests" }).waitFor();
  await context.close();
});
afterAll(async () => {
  await browser.close();
});

const PHONE = { width: 390, height: 844 };

function demoUser(role: "admin" | "viewer") {
  const user = DEMO_USERS.find((candidate) => candidate.role === role);
  if (!user) throw new Error(`The demo data has a ${role}.`);
  return user;
}

/** A visitor whose system asks for dark mode (the app follows it until the toggle is used). */
async function darkVisitor(viewport = PHONE): Promise<Visitor> {
  const visitor = await newVisitor(browser, viewport);
  await visitor.page.emulateMedia({ colorScheme: "dark" });
  return visitor;
}

async function signInAsNewUser(page: Page, email: string): Promise<void> {
  await page.goto("/sign-in?redirect=/dashboard/settings");
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: /sign in as a new user/i }).click();
  await page.waitForURL((url) => url.pathname === "/dashboard/settings");
}

function privacySection(page: Page) {
  return page.getByRole("region", { name: "Privacy requests" });
}

/** Marks the page so that a reload (which would wipe the mark) is detectable. */
async function markNoReload(page: Page): Promise<void> {
  await page.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));
}

async function wasNotReloaded(page: Page): Promise<boolean> {
  return await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload === true);
}

async function openAdminQueue(page: Page): Promise<void> {
  await signInAs(page, demoUser("admin").name);
  await page.goto("/dashboard/admin/privacy-requests");
  await page.getByRole("heading", { name: "Privacy requests", level: 1 }).waitFor();
}

/** The open request of the person with this email, in the admin's queue. */
function openRequestOf(page: Page, email: string) {
  return page.getByRole("list", { name: "Open requests" }).getByRole("listitem").filter({ hasText: email });
}

test("a viewer's data export, approved by an admin elsewhere, becomes a download without reload", async () => {
  const viewerUser = demoUser("viewer");
  const viewer = await newVisitor(browser);
  await signInAs(viewer.page, viewerUser.name);
  await viewer.page.goto("/dashboard/settings");
  const section = privacySection(viewer.page);
  await section.getByRole("heading", { name: "New request" }).waitFor();
  await screenshot(viewer.page, "privacy-settings-form-desktop");

  await section.getByRole("radio", { name: /a copy of my data/i }).check();
  await section.getByRole("textbox", { name: /reason/i }).fill("I want to see what you keep about me.");
  await section.getByText("37/500").waitFor();
  await section.getByRole("button", { name: "Request my data" }).click();
  const open = section.getByRole("group", { name: "Your open request" });
  await open.getByRole("heading", { name: "Open request: Data export" }).waitFor();
  expect(await open.textContent()).toMatch(/Waiting for a LiveLocal admin/);
  expect(await section.getByRole("radio").count()).toBe(0);
  await screenshot(viewer.page, "privacy-settings-open-desktop");
  await markNoReload(viewer.page);

  const admin = await newVisitor(browser);
  await openAdminQueue(admin.page);
  const request = openRequestOf(admin.page, viewerUser.email);
  await request.getByText("I want to see what you keep about me.").waitFor();
  expect(await request.getByRole("heading").textContent()).toBe(
    `Data export · ${viewerUser.name} (${viewerUser.email})`,
  );
  expect(await request.textContent()).toMatch(/Due in (30|31) days/);
  await screenshot(admin.page, "privacy-admin-queue-desktop");
  await request.getByRole("button", { name: "Approve and prepare export" }).click();
  await admin.page.getByText(/approved; the export is being prepared/i).waitFor();

  // The viewer's page follows along: the export is built, the download appears.
  const ready = section.getByRole("group", { name: "Your data export" });
  await ready.getByRole("button", { name: "Download your data" }).waitFor({ timeout: 15_000 });
  expect(await ready.textContent()).toMatch(/Available until [A-Z][a-z]{2} \d{1,2}, \d{4}/);
  expect(await wasNotReloaded(viewer.page)).toBe(true);
  await section.getByRole("list", { name: "Past requests" }).getByText("Completed").waitFor();
  await screenshot(viewer.page, "privacy-settings-ready-desktop");

  const [download] = await Promise.all([
    viewer.page.waitForEvent("download"),
    ready.getByRole("button", { name: "Download your data" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^livelocal-data-export-\d{4}-\d{2}-\d{2}\.json$/);
  const file = await download.path();
  const data: unknown = JSON.parse(await readFile(file, "utf8"));
  expect(typeof data).toBe("object");
  expect(JSON.stringify(data)).toContain(viewerUser.email);
  // Nothing about the admin who decided it, beyond what the request itself records.
  expect(JSON.stringify(data)).not.toContain(demoUser("admin").email);
  expect(await ready.getByRole("alert").count()).toBe(0);

  // The same page on a phone, in dark mode.
  const phone = await darkVisitor();
  await signInAs(phone.page, viewerUser.name);
  await phone.page.goto("/dashboard/settings");
  await privacySection(phone.page).getByRole("button", { name: "Download your data" }).waitFor();
  expect(await sidewaysOverflow(phone.page)).toBeLessThanOrEqual(0);
  await screenshot(phone.page, "privacy-settings-ready-phone-dark");

  expect(viewer.errors).toEqual([]);
  expect(admin.errors).toEqual([]);
  expect(phone.errors).toEqual([]);
});

test("a rejected correction shows the admin's reason to the user, live", async () => {
  const email = `privacy.e2e.${Date.now()}@example.com`;
  const user = await darkVisitor();
  await signInAsNewUser(user.page, email);
  const section = privacySection(user.page);
  await section.getByRole("radio", { name: /correct my data/i }).check();
  await section.getByRole("button", { name: "Request a correction" }).click();
  const details = section.getByRole("textbox", { name: /what should be corrected/i });
  expect(await details.getAttribute("aria-invalid")).toBe("true");
  await section.getByText("Tell us what should be corrected.").waitFor();
  await details.fill("My display name should be Robin, not my email address.");
  await screenshot(user.page, "privacy-settings-correction-phone-dark");
  await section.getByRole("button", { name: "Request a correction" }).click();
  await section.getByRole("heading", { name: "Open request: Correction" }).waitFor();
  expect(await sidewaysOverflow(user.page)).toBeLessThanOrEqual(0);
  await markNoReload(user.page);

  const admin = await darkVisitor();
  await openAdminQueue(admin.page);
  const request = openRequestOf(admin.page, email);
  await request.getByText("My display name should be Robin").waitFor();
  await request.getByRole("button", { name: "Reject" }).click();
  await request.getByText(REJECTION_REASON_REQUIRED).waitFor();
  await screenshot(admin.page, "privacy-admin-reject-phone-dark");
  const reason = "Names come from your sign-in account: change it there.";
  await request.getByRole("textbox", { name: /what you changed, or why you reject it/i }).fill(reason);
  await request.getByRole("button", { name: "Reject" }).click();
  await admin.page
    .getByText(/^Correction request from .+ rejected\.$/)
    .filter({ hasText: email })
    .waitFor();
  await request.waitFor({ state: "detached" });
  const decided = admin.page.getByRole("list", { name: "Decided requests" });
  await decided.getByText(reason).waitFor();
  expect(await sidewaysOverflow(admin.page)).toBeLessThanOrEqual(0);
  await screenshot(admin.page, "privacy-admin-decided-phone-dark");

  const past = section.getByRole("list", { name: "Past requests" });
  await past.getByText(reason).waitFor({ timeout: 5_000 });
  expect(await past.getByRole("listitem").first().textContent()).toContain("Rejected");
  expect(await past.getByRole("listitem").first().textContent()).toContain("Reason for the rejection");
  expect(await wasNotReloaded(user.page)).toBe(true);
  // Nothing is open any more: a new request can be made.
  await section.getByRole("heading", { name: "New request" }).waitFor();
  await screenshot(user.page, "privacy-settings-rejected-phone-dark");

  expect(user.errors).toEqual([]);
  expect(admin.errors).toEqual([]);
});

test("a restriction is approved, shown to the user, and lifted by the admin (desktop, dark)", async () => {
  const email = `privacy.restrict.${Date.now()}@example.com`;
  const user = await darkVisitor({ width: 1280, height: 900 });
  await signInAsNewUser(user.page, email);
  const section = privacySection(user.page);
  await section.getByRole("radio", { name: /restrict processing/i }).check();
  await section.getByRole("button", { name: "Request a restriction" }).click();
  await section.getByRole("heading", { name: "Open request: Restriction of processing" }).waitFor();

  const admin = await darkVisitor({ width: 1280, height: 900 });
  await openAdminQueue(admin.page);
  const request = openRequestOf(admin.page, email);
  await request.getByRole("button", { name: "Approve restriction" }).click();
  const restricted = admin.page.getByRole("list", { name: "Restricted accounts" });
  await restricted.getByText(email).waitFor();
  await screenshot(admin.page, "privacy-admin-restricted-desktop-dark");

  await section.getByText(/processing of your data is restricted/i).waitFor({ timeout: 5_000 });
  await screenshot(user.page, "privacy-settings-restricted-desktop-dark");

  await restricted.getByRole("button", { name: `Lift restriction on ${email}` }).click();
  await admin.page
    .getByRole("alertdialog", { name: /lift the restriction/i })
    .getByRole("button", { name: "Lift restriction" })
    .click();
  await restricted.getByText(email).waitFor({ state: "detached" });
  await section
    .getByText(/processing of your data is restricted/i)
    .waitFor({ state: "detached", timeout: 5_000 });

  expect(user.errors).toEqual([]);
  expect(admin.errors).toEqual([]);
});

test("an approved deletion, confirmed as irreversible, leaves a history entry without personal data", async () => {
  const email = `privacy.delete.${Date.now()}@example.com`;
  const user = await newVisitor(browser, PHONE);
  await signInAsNewUser(user.page, email);
  const section = privacySection(user.page);
  await section.getByRole("radio", { name: /delete my account/i }).check();
  await section.getByText("Deleting your account cannot be undone.").waitFor();
  await section.getByRole("button", { name: "Request deletion" }).click();
  const ask = user.page.getByRole("alertdialog", { name: "Ask to delete your account?" });
  await screenshot(user.page, "privacy-settings-deletion-confirm-phone");
  await ask.getByRole("button", { name: "Request deletion" }).click();
  await section.getByRole("heading", { name: "Open request: Account deletion" }).waitFor();

  const admin = await newVisitor(browser, PHONE);
  await openAdminQueue(admin.page);
  const request = openRequestOf(admin.page, email);
  await request.getByRole("button", { name: "Approve deletion" }).click();
  const confirm = admin.page.getByRole("alertdialog", { name: "Delete this account for good?" });
  expect(await confirm.textContent()).toContain("This is irreversible.");
  await screenshot(admin.page, "privacy-admin-deletion-confirm-phone");
  await confirm.getByRole("button", { name: "Delete account" }).click();
  await request.waitFor({ state: "detached" });
  const decided = admin.page.getByRole("list", { name: "Decided requests" }).getByRole("listitem").first();
  await decided.getByText("Account deletion · Deleted account").waitFor({ timeout: 15_000 });
  expect(await decided.textContent()).not.toContain(email);
  // The person's open page ends their session and says what happened.
  await user.page.getByRole("heading", { name: "Your account was deleted" }).waitFor();
  await user.page.waitForURL((url) => url.pathname === "/");
  await user.page.getByText("you have been signed out").waitFor();
  await screenshot(user.page, "privacy-settings-account-deleted-phone");
  // A reload finds nobody signed in: no account is made again behind their back.
  await user.page.reload();
  await user.page.getByRole("link", { name: "Sign in" }).first().waitFor();
  // Signing in again with the same identity asks first; a new account starts empty.
  await user.page.goto("/sign-in?redirect=/dashboard/settings");
  await user.page.getByLabel("Email").fill(email);
  await user.page.getByRole("button", { name: /sign in as a new user/i }).click();
  await user.page.getByRole("heading", { name: "This account was deleted" }).waitFor();
  await screenshot(user.page, "privacy-start-new-account-phone");
  await user.page.getByRole("button", { name: "Start a new account" }).click();
  await privacySection(user.page).getByRole("heading", { name: "Past requests" }).waitFor();
  expect(await privacySection(user.page).textContent()).not.toContain("Account deletion");
  expect(admin.errors).toEqual([]);
  expect(user.errors).toEqual([]);
});
