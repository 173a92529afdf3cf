/**
 * A hostile page in the developer's own browser (issue 14): another site's page cannot call the local
 * backend or get a development token, and a page whose name is rebound to 127.0.0.1 (Chromium's host
 * resolver maps evil.example there, as a DNS-rebinding attacker would) is refused although it is then
 * "same-origin". The app itself carries on in the same browser.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { launchChromium } from "../support/chromium";
import { baseUrl, newVisitor, screenshot } from "./browser";

let browser: Browser;
let evilSite: Server;
let evilPort = 0;

beforeAll(async () => {
  browser = await launchChromium(["--host-resolver-rules=MAP evil.example 127.0.0.1"]);
  evilSite = createServer((_req, res) => {
    res.setHeader("Content-Type", "text/html; charset=utf-8");
    res.end("<!doctype html><title>Totally legit</title><h1>Nothing to see</h1>");
  });
  await new Promise<void>((resolve) => evilSite.listen(0, "127.0.0.1", resolve));
  evilPort = (evilSite.address() as AddressInfo).port;
});
afterAll(async () => {
  await browser.close();
  await new Promise<void>((resolve) => evilSite.close(() => resolve()));
});

/** What a page's script gets when it asks for a token and opens the sync socket at `target`. */
async function attack(page: Page, target: string) {
  return await page.evaluate(async (origin) => {
    const token = await fetch(`${origin}/local-auth/token`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ sub: "demo_admin", name: "Admin", email: "admin@example.com" }),
    }).then(
      async (response) => ({ status: response.status, body: await response.text() }),
      (error: unknown) => ({ status: 0, body: String(error) }),
    );
    const socket = await new Promise<string>((resolve) => {
      const ws = new WebSocket(`${origin.replace(/^http/, "ws")}/api/1.48.0/sync`);
      ws.onopen = () => {
        ws.close();
        resolve("open");
      };
      ws.onerror = () => resolve("refused");
    });
    return { token, socket };
  }, target);
}

test("another site's page gets no token and no sync socket", async () => {
  const { page } = await newVisitor(browser);
  await page.goto(`http://evil.example:${evilPort}/`);
  await page.getByRole("heading", { name: "Nothing to see" }).waitFor();
  const result = await attack(page, baseUrl());
  expect(result.token.status).toBe(0); // refused (403 without CORS): the script sees nothing
  expect(result.token.body).not.toMatch(/eyJ/);
  expect(result.socket).toBe("refused");
});

test("a page rebound to this machine is refused, and the app next to it still works", async () => {
  const port = new URL(baseUrl()).port;
  const { page } = await newVisitor(browser);
  const response = await page.goto(`http://evil.example:${port}/`);
  expect(response?.status()).toBe(403);
  // Now "same-origin" with the dev server: the requests carry Host evil.example and are refused.
  const result = await attack(page, `http://evil.example:${port}`);
  expect(result.token.status).toBe(403);
  expect(result.token.body).not.toMatch(/"token"/);
  expect(result.socket).toBe("refused");
  await screenshot(page, "hostile-rebound-page");

  const { page: app, errors } = await newVisitor(browser);
  await app.goto("/");
  await app.getByRole("heading", { name: "Live now" }).waitFor();
  await app.locator("article").first().waitFor();
  expect(errors).toEqual([]);
});
