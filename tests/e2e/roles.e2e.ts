import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { DEMO_USERS } from "@convex/lib/data/demo";
import { launchBrowser, newVisitor, screenshot, sidewaysOverflow, signInAs } from "./browser";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

function demoUser(role: "admin" | "viewer") {
  const user = DEMO_USERS.find((candidate) => candidate.role === role);
  if (!user) throw new Error(`The demo data has a ${role}.`);
  return user;
}

test("a viewer opening the admin screen gets 403 Forbidden, and no Admin entry anywhere", async () => {
  const viewer = demoUser("viewer");
  const { page, errors } = await newVisitor(browser);
  await signInAs(page, viewer.name);
  await page.goto("/dashboard/admin/users");
  await page.getByRole("heading", { name: "Forbidden" }).waitFor();
  expect(await page.getByText("403", { exact: true }).isVisible()).toBe(true);
  expect(await page.getByText("This page is for LiveLocal admins.").isVisible()).toBe(true);
  expect(await page.getByRole("heading", { name: "Users & roles" }).count()).toBe(0);
  expect(await page.title()).toBe("Forbidden · LiveLocal");
  await screenshot(page, "admin-forbidden-viewer");

  await page.getByRole("button", { name: `Account: ${viewer.name}` }).click();
  await page.getByRole("menuitem", { name: "Settings" }).waitFor();
  expect(await page.getByRole("menuitem", { name: "Admin" }).count()).toBe(0);
  expect(errors).toEqual([]);
});

test("the demo admin makes a new user a seller, which the new user sees at once", async () => {
  const email = `roles.e2e.${Date.now()}@example.com`;
  const newcomer = await newVisitor(browser);
  await newcomer.page.goto("/sign-in?redirect=/dashboard/settings");
  await newcomer.page.getByLabel("Email").fill(email);
  await newcomer.page.getByRole("button", { name: /sign in as a new user/i }).click();
  await newcomer.page.waitForURL((url) => url.pathname === "/dashboard/settings");
  const profile = newcomer.page.getByRole("region", { name: "Profile" });
  await profile.getByText("Viewer", { exact: true }).waitFor();

  const adminUser = demoUser("admin");
  const admin = await newVisitor(browser);
  await signInAs(admin.page, adminUser.name);
  await admin.page.getByRole("button", { name: `Account: ${adminUser.name}` }).click();
  await admin.page.getByRole("menuitem", { name: "Admin" }).click();
  await admin.page.waitForURL((url) => url.pathname === "/dashboard/admin");
  await admin.page
    .getByRole("navigation", { name: "Admin console" })
    .getByRole("link", { name: "Users & roles" })
    .click();
  await admin.page.waitForURL((url) => url.pathname === "/dashboard/admin/users");
  await admin.page.getByRole("table", { name: "Users" }).waitFor();
  await screenshot(admin.page, "admin-users");

  await admin.page.getByRole("searchbox", { name: "Email starts with" }).fill(email);
  await admin.page.waitForURL((url) => url.searchParams.get("email") === email);
  await admin.page.waitForFunction(() => document.querySelectorAll("tbody tr").length === 1);
  const role = admin.page.getByRole("combobox", { name: `Role of ${email}` });
  expect(await role.inputValue()).toBe("viewer");
  await role.selectOption("seller");
  // Every role change asks first (decision 025); this newcomer owns no shop.
  const question = admin.page.getByRole("alertdialog", { name: /a seller\?$/ });
  await question.getByText("Sellers open live shops and run their own shows.").waitFor();
  await screenshot(admin.page, "admin-users-role-question");
  await question.getByRole("button", { name: "Make a seller" }).click();
  await admin.page.waitForFunction((label) => {
    const select = document.querySelector<HTMLSelectElement>(`select[aria-label="${label}"]`);
    return select !== null && !select.disabled && select.value === "seller";
  }, `Role of ${email}`);
  await profile.getByText("Seller", { exact: true }).waitFor({ timeout: 5_000 });
  await screenshot(admin.page, "admin-users-role-changed");
  await screenshot(newcomer.page, "settings-new-seller");
  expect(admin.errors).toEqual([]);
  expect(newcomer.errors).toEqual([]);
});

test("the only admin cannot step down: the server's refusal shows beside the row (on a phone)", async () => {
  const adminUser = demoUser("admin");
  const { page, errors } = await newVisitor(browser, { width: 390, height: 844 });
  await signInAs(page, adminUser.name);
  await page.goto(`/dashboard/admin/users?role=admin`);
  const role = page.getByRole("combobox", { name: `Role of ${adminUser.email}` });
  await role.selectOption("viewer");
  const dialog = page.getByRole("alertdialog", { name: "Remove your own admin rights?" });
  await dialog.getByRole("button", { name: "Remove admin rights" }).click();
  const refusal = page.getByRole("row").filter({ hasText: adminUser.email }).getByRole("alert");
  await refusal.waitFor();
  expect(await refusal.textContent()).toMatch(/only admin/i);
  expect(await role.inputValue()).toBe("admin");
  const overflow = await sidewaysOverflow(page);
  expect(overflow).toBeLessThanOrEqual(0);
  await screenshot(page, "admin-users-refusal-phone");
  expect(errors).toEqual([]);
});
