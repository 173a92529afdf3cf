/**
 * Decision 040 in a real browser: `npm start` (the production build, built here, with the local
 * backend in its own process and data folder) sends public pages with their content in the HTML, and
 * the app hydrates them without an error and keeps them live. Behind a reverse proxy, its sign-in page
 * says that sign-in is not available there (decision 053).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ConvexHttpClient } from "convex/browser";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { api } from "../../convex/_generated/api";
import { startAppProcess, type AppProcess } from "../../scripts/bench/app-process";
import { buildApp } from "../../scripts/build/build-app";
import { startForwardingProxy } from "../../local-backend/conformance/test-helpers";
import { demoSellerWithStream } from "../support/demo-seller";
import { launchBrowser, screenshot } from "./browser";

let browser: Browser;
let app: AppProcess;
let dataDir: string;

beforeAll(async () => {
  await buildApp();
  dataDir = mkdtempSync(path.join(tmpdir(), "livelocal-e2e-ssr-"));
  app = await startAppProcess(dataDir);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** A live demo show no other test here changes, its seller, and its id as the backend gives it. */
async function liveShow(nth: number) {
  const { user, streamTitle, shopSlug } = demoSellerWithStream("LIVE", nth);
  const shop = await new ConvexHttpClient(app.url).query(api.liveShops.getPublicShop, { idOrSlug: shopSlug });
  const stream = shop?.streams.live.find((candidate) => candidate.streamTitle === streamTitle);
  if (!stream) throw new Error(`${streamTitle} is not live on ${shopSlug}'s page.`);
  return { user, streamTitle, streamId: stream._id };
}

async function visitor(options: { javaScriptEnabled?: boolean } = {}) {
  const context = await browser.newContext({
    baseURL: app.url,
    viewport: { width: 390, height: 844 },
    ...options,
  });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warning") problems.push(message.text());
  });
  return { context, page, problems };
}

test("a stream's page has the show's title before any script runs, and the home page its live cards", async () => {
  const { streamTitle, streamId } = await liveShow(0);
  const { context, page } = await visitor({ javaScriptEnabled: false });
  await page.goto(`/stream/${streamId}`);
  await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe(streamTitle);
  await expect(page.getByText("Live", { exact: true }).first().isVisible()).resolves.toBe(true);
  await screenshot(page, "server-render-stream-no-js");

  await page.goto("/");
  const live = page.getByRole("region", { name: "Live now" });
  await expect(live.getByRole("heading", { name: streamTitle }).count()).resolves.toBe(1);
  await context.close();
});

test("the hydrated stream page keeps the server's elements and still follows the show's status", async () => {
  const { user, streamTitle, streamId } = await liveShow(1);
  const buyer = await visitor();
  // The heading as the server sent it, kept before any of the app's scripts run.
  await buyer.page.addInitScript(() => {
    document.addEventListener("DOMContentLoaded", () => {
      (window as unknown as { __serverHeading: Element | null }).__serverHeading =
        document.querySelector("h1");
    });
  });
  await buyer.page.goto(`/stream/${streamId}`);
  // Hydrated: React has taken the server's heading as its own (it did not draw a new one).
  await buyer.page.waitForFunction(() => {
    const heading = document.querySelector("h1");
    return (
      heading !== null &&
      heading === (window as unknown as { __serverHeading: Element | null }).__serverHeading &&
      Object.keys(heading).some((key) => key.startsWith("__reactFiber"))
    );
  });
  // The account control is mounted by the session's module: the app is running, signed out.
  await buyer.page.getByRole("link", { name: "Sign in" }).waitFor();

  const seller = await visitor();
  await seller.page.goto("/sign-in");
  await seller.page.getByRole("button", { name: `Sign in as ${user.name}` }).click();
  await seller.page.waitForURL((url) => url.pathname !== "/sign-in");
  await seller.page.goto("/dashboard");
  const controls = seller.page.getByRole("group", { name: `Status of ${streamTitle}` });
  await controls.getByRole("button", { name: "Pause" }).click();
  await controls.getByRole("button", { name: "Resume" }).waitFor();

  await buyer.page.getByText("Paused", { exact: true }).first().waitFor({ timeout: 10_000 });
  await screenshot(buyer.page, "server-render-stream-paused");
  expect(buyer.problems).toEqual([]);
  expect(seller.problems).toEqual([]);
  await controls.getByRole("button", { name: "Resume" }).click();
  await buyer.page
    .getByText("Paused", { exact: true })
    .first()
    .waitFor({ state: "detached", timeout: 10_000 });
  await buyer.context.close();
  await seller.context.close();
});

test("a page whose warm-up script does not load still hydrates (decision 042)", async () => {
  const { streamId } = await liveShow(0);
  const buyer = await visitor();
  let refused = 0;
  await buyer.page.route(/\/assets\/hydration-warm-up-[^/]+\.js$/, async (route) => {
    refused += 1;
    await route.abort();
  });
  await buyer.page.goto(`/stream/${streamId}`);
  // The session's module mounts the account control once the app runs.
  await buyer.page.getByRole("link", { name: "Sign in" }).waitFor();
  await buyer.page.waitForFunction(() => {
    const heading = document.querySelector("h1");
    return heading !== null && Object.keys(heading).some((key) => key.startsWith("__reactFiber"));
  });
  expect(refused).toBeGreaterThan(0);
  // The refused script is the only problem the page reports.
  expect(
    buyer.problems.filter((problem) => !/Failed to load resource|net::ERR_FAILED/.test(problem)),
  ).toEqual([]);
  await buyer.context.close();
});

test("through a reverse proxy, the sign-in page says sign-in is not available here and offers no accounts", async () => {
  const proxy = await startForwardingProxy(app.url);
  const context = await browser.newContext({ baseURL: proxy.url });
  try {
    const page = await context.newPage();
    await page.goto("/sign-in");
    const notice = page.getByRole("region", { name: "Sign-in is not available on this server" });
    await notice.waitFor();
    await expect(notice.textContent()).resolves.toMatch(/came through a proxy/);
    await expect(page.getByRole("button", { name: /^Sign in as/ }).count()).resolves.toBe(0);
    await screenshot(page, "sign-in-through-proxy");
  } finally {
    await context.close();
    await proxy.close();
  }
});
