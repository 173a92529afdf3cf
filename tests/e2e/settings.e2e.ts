import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { DEMO_USERS } from "@convex/lib/data/demo";
import { CARD_NUMBER_EXPLANATION } from "@convex/lib/validation";
import { launchBrowser, newVisitor, screenshot, signInAs } from "./browser";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

const viewer = DEMO_USERS.find((user) => user.role === "viewer");

test("a viewer's preference sticks across a reload, and a full card number is refused", async () => {
  if (!viewer) throw new Error("The demo data has a viewer.");
  const { page, errors } = await newVisitor(browser);
  await signInAs(page, viewer.name);
  await page.goto("/dashboard/settings");
  // A notice's e-mail box (decision 036).
  const box = page.getByRole("checkbox", { name: "E-mail: A saved show is cancelled or moved" });
  const after = !(await box.isChecked());
  await box.click();
  await page
    .getByText(`Saved — E-mail: A saved show is cancelled or moved is ${after ? "on" : "off"}.`)
    .waitFor();
  await page.reload();
  await page.getByRole("heading", { name: "Settings", level: 1 }).waitFor();
  expect(
    await page.getByRole("checkbox", { name: "E-mail: A saved show is cancelled or moved" }).isChecked(),
  ).toBe(after);

  const payments = page.getByRole("region", { name: "Payment methods" });
  await payments.getByRole("button", { name: "Add a card" }).click();
  const form = payments.getByRole("form", { name: "Add a card" });
  await form.getByLabel("Brand").selectOption("visa");
  await form.getByLabel("Last 4 digits").fill("4242 4242 4242 4242");
  await form.getByLabel("Expiry month").selectOption("12");
  await form.getByLabel("Expiry year").selectOption(String(new Date().getUTCFullYear() + 2));
  expect(await form.getByLabel("Last 4 digits").getAttribute("aria-invalid")).toBe("true");
  expect(await form.getByRole("alert").textContent()).toBe(CARD_NUMBER_EXPLANATION);
  await form.getByRole("button", { name: "Save card" }).click();
  await screenshot(page, "settings-card-number-refused");
  expect(await payments.getByRole("list", { name: "Saved cards" }).count()).toBe(0);
  expect(await payments.textContent()).toContain("0 of 5 cards saved.");

  await form.getByLabel("Last 4 digits").fill("4242");
  await form.getByRole("button", { name: "Save card" }).click();
  await payments.getByText("Saved — Visa ending in 4242 was added.").waitFor();
  expect(await payments.getByRole("listitem").first().textContent()).toContain("4242");
  expect(errors).toEqual([]);
});
