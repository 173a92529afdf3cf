import type { Page } from "playwright-core";
import { DEMO_USERS } from "@convex/lib/data/demo";

export function demoAdmin() {
  const admin = DEMO_USERS.find((user) => user.role === "admin");
  if (!admin) throw new Error("The demo data has an admin.");
  return admin;
}

/** Opens a complete shop from the seller's dashboard and submits it; returns its id. */
export async function openAndSubmitShop(page: Page, shopName: string): Promise<string> {
  await page.goto("/dashboard/liveshops/new");
  await page.getByLabel("Shop name").fill(shopName);
  await page.getByLabel("Description").fill(`${shopName}: records and tapes, sold live.`);
  await page.getByRole("button", { name: "Add category" }).click();
  await page.getByLabel("Category", { exact: true }).selectOption("collectibles");
  await page.getByRole("combobox", { name: "Metro areas served" }).fill("austin");
  await page.getByRole("option", { name: "Austin-Round Rock-San Marcos, TX" }).click();
  await page.getByText("This address is free.").waitFor();
  await page.getByRole("button", { name: "Create shop" }).click();
  await page.waitForURL((url) => /^\/dashboard\/liveshops\/(?!new$)[^/]+$/.test(url.pathname));
  const liveShopId = new URL(page.url()).pathname.split("/").at(-1);
  if (!liveShopId) throw new Error("The new shop's page has its id.");
  await page.getByRole("button", { name: "Submit for verification" }).click();
  await page.getByText("Awaiting verification").first().waitFor();
  return liveShopId;
}
