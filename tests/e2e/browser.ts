import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { inject } from "vitest";
import { launchChromium } from "../support/chromium";

export const launchBrowser: () => Promise<Browser> = launchChromium;

export function baseUrl(): string {
  return inject("baseUrl");
}

/** A fresh visitor: own storage, a phone or desktop viewport, page errors collected. */
export async function newVisitor(browser: Browser, viewport = { width: 1280, height: 900 }) {
  const context = await browser.newContext({ viewport, baseURL: baseUrl() });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  return { context, page, errors };
}

const shotsDir = path.resolve(import.meta.dirname, "../../test-results/e2e");

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(shotsDir, { recursive: true });
  await page.screenshot({ path: path.join(shotsDir, `${name}.png`), fullPage: true });
}

/**
 * Signs in through the development sign-in page, as a person would: a demo user by their name, or
 * anyone else (a file's own seller) by their e-mail, as a new user.
 */
export async function signInAs(page: Page, who: string | { email: string }): Promise<void> {
  await page.goto("/sign-in");
  if (typeof who === "string") {
    await page.getByRole("button", { name: `Sign in as ${who}` }).click();
  } else {
    await page.getByLabel("Email").fill(who.email);
    await page.getByRole("button", { name: "Sign in as a new user" }).click();
  }
  await page.waitForURL((url) => url.pathname !== "/sign-in");
}

export type Visitor = { context: BrowserContext; page: Page; errors: string[] };

/**
 * The seller, in a browser of their own, takes one of their shows live from the dashboard; returns
 * that visitor and the show's status controls once "Pause" is offered.
 */
export async function takeShowLive(
  browser: Browser,
  sellerName: string | { email: string },
  streamTitle: string,
) {
  const seller = await newVisitor(browser);
  await signInAs(seller.page, sellerName);
  await seller.page.goto("/dashboard");
  const controls = seller.page.getByRole("group", { name: `Status of ${streamTitle}` });
  await controls.getByRole("button", { name: "Go live" }).click();
  await controls.getByRole("button", { name: "Pause" }).waitFor();
  return { seller, controls };
}

/**
 * How many pixels the page is wider than its window (0 or less: it does not scroll sideways). When it is
 * wider, what sticks out is written to the log, so that a failure names its cause.
 */
export async function sidewaysOverflow(page: Page): Promise<number> {
  const over = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  if (over > 0) {
    // Say what sticks out (outside any scrolling box of its own), so a failure names its cause.
    const culprits = await page.evaluate(() =>
      [...document.querySelectorAll("body *")]
        .filter((element) => {
          if (element.getBoundingClientRect().right <= window.innerWidth + 1) return false;
          for (let up = element.parentElement; up; up = up.parentElement) {
            if (getComputedStyle(up).overflowX !== "visible") return false;
          }
          return true;
        })
        .slice(-3)
        .map(
          (element) =>
            `<${element.tagName.toLowerCase()} class="${element.getAttribute("class") ?? ""}">${(element.textContent ?? "").slice(0, 80)}`,
        ),
    );
    console.error(`${page.url()} is ${over} px wider than its window:\n${culprits.join("\n")}`);
  }
  return over;
}
