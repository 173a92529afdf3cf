import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { DEMO_USERS } from "@convex/lib/data/demo";
import { launchBrowser, newVisitor, screenshot, signInAs } from "./browser";
import { demoSellerWithStream } from "../support/demo-seller";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

test("a signed-out visitor is sent from /dashboard to sign-in, and back after signing in as a seller", async () => {
  const { page, errors } = await newVisitor(browser);
  await page.goto("/dashboard");
  await page.waitForURL((url) => url.pathname === "/sign-in");
  expect(new URL(page.url()).searchParams.get("redirect")).toBe("/dashboard");
  await screenshot(page, "sign-in");

  const seller = demoSellerWithStream("LIVE").user;
  await page.getByRole("button", { name: `Sign in as ${seller.name}` }).click();
  await page.waitForURL((url) => url.pathname === "/dashboard");
  await page.getByText(`Signed in as ${seller.name}`).waitFor();
  await page.getByRole("heading", { name: "Dashboard" }).waitFor();
  await screenshot(page, "dashboard-seller");
  expect(errors).toEqual([]);
});

test("a demo user signs in and out from the account menu", async () => {
  const { page, errors } = await newVisitor(browser);
  const viewer = DEMO_USERS.find((user) => user.role === "viewer");
  if (!viewer) throw new Error("The demo data has a viewer.");
  await signInAs(page, viewer.name);
  await page.getByRole("button", { name: `Account: ${viewer.name}` }).click();
  await page.getByRole("menuitem", { name: "Sign out" }).click();
  await page.getByRole("link", { name: "Sign in" }).waitFor();
  expect(new URL(page.url()).pathname).toBe("/");
  await page.goto("/dashboard");
  await page.waitForURL((url) => url.pathname === "/sign-in");
  expect(errors).toEqual([]);
});

test("signing in as a new user by email creates a viewer", async () => {
  const { page } = await newVisitor(browser);
  await page.goto("/sign-in?redirect=/dashboard");
  await page.getByLabel("Email").fill("not-an-email");
  await page.getByRole("button", { name: /sign in as a new user/i }).click();
  await page.getByText(/valid email/i).waitFor();
  await page.getByLabel("Email").fill(`new.e2e.${Date.now()}@example.com`);
  await page.getByRole("button", { name: /sign in as a new user/i }).click();
  await page.waitForURL((url) => url.pathname === "/dashboard");
  await page.getByText(/· viewer/).waitFor();
  await page.getByText(/You have no live shop yet/).waitFor();
});
