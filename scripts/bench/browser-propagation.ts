/**
 * Click in browser A → changed DOM in browser B (issue 18), on the production build as people get it
 * (`npm start`, in its own process), with where the time goes: in page A from the click to the
 * mutation leaving its socket, from there to the update reaching page B's socket (the backend: the
 * mutation, its commit, re-running page B's queries), and in page B from the socket to the changed
 * DOM (the Convex client and React). Page A is the seller's dashboard pausing and resuming a live
 * stream; page B the home page's live board, whose card shows the status.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Page } from "playwright-core";
import { launchChromium } from "../../tests/support/chromium";
import { demoSellerWithStream } from "../../tests/support/demo-seller";
import { startAppProcess } from "./app-process";
import { ms, printFigures, recordMsFigure, summarize } from "./stats";
import { buildApp } from "../build/build-app";

const CHANGES = 60;
const WARM_UP = 4;
const GROUP = "Issue 18: fast for real people (production build, npm start)";

/**
 * In every page: the moments a mutation leaves a socket and a query update arrives (text frames of
 * the sync protocol), on the page's clock (`performance.timeOrigin + now()`, shared by its pages).
 */
const SOCKET_TIMES = `
  window.__name = (f) => f;
  window.__sockets = { sent: [], received: [] };
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (event) => {
        if (typeof event.data === "string" && event.data.startsWith('{"type":"Transition"'))
          window.__sockets.received.push(performance.timeOrigin + performance.now());
      });
    }
    send(data) {
      if (typeof data === "string" && data.includes('"type":"Mutation"'))
        window.__sockets.sent.push(performance.timeOrigin + performance.now());
      return super.send(data);
    }
  };`;

type Times = { sent: number[]; received: number[] };

const socketTimes = (page: Page) =>
  page.evaluate(() => (window as unknown as { __sockets: Times }).__sockets);

/** Records, in page B, the moment the target card's status badge changes text. */
async function watchBadge(page: Page, title: string) {
  await page.evaluate((streamTitle) => {
    const changes: number[] = [];
    (window as unknown as { __badgeChanges: number[] }).__badgeChanges = changes;
    const badgeText = () => {
      const heading = [...document.querySelectorAll("h3")].find((h) => h.textContent === streamTitle);
      return heading?.closest("article")?.querySelector("span span, span")?.textContent ?? "";
    };
    let last = badgeText();
    new MutationObserver(() => {
      const now = badgeText();
      if (now !== last) {
        last = now;
        changes.push(performance.timeOrigin + performance.now());
      }
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  }, title);
}

export async function browserPropagation(options: { build: boolean }): Promise<void> {
  if (options.build) await buildApp();
  const dataDir = mkdtempSync(path.join(tmpdir(), "livelocal-bench-browser-"));
  const app = await startAppProcess(dataDir);
  const browser = await launchChromium();
  try {
    const live = demoSellerWithStream("LIVE");
    const seller = { sub: live.user.clerkId, email: live.user.email, name: live.user.name };
    const sellerContext = await browser.newContext();
    const viewerContext = await browser.newContext();
    for (const context of [sellerContext, viewerContext])
      await context.addInitScript({ content: SOCKET_TIMES });
    await sellerContext.addInitScript((identity) => {
      localStorage.setItem("livelocal:local-session", JSON.stringify(identity));
    }, seller);
    const pageA = await sellerContext.newPage();
    const pageB = await viewerContext.newPage();
    await pageA.goto(`${app.url}/dashboard`);
    await pageB.goto(`${app.url}/`);
    const controls = pageA.getByRole("group", { name: `Status of ${live.streamTitle}` });
    await controls.waitFor();
    await pageB.getByRole("heading", { name: live.streamTitle }).waitFor();
    await watchBadge(pageB, live.streamTitle);
    const samples = {
      total: [] as number[],
      pageA: [] as number[],
      backend: [] as number[],
      pageB: [] as number[],
    };
    for (let change = 0; change < WARM_UP + CHANGES; change++) {
      const label = change % 2 === 0 ? "Pause" : "Resume";
      const button = controls.getByRole("button", { name: label, exact: true });
      await button.waitFor();
      const receivedBefore = (await socketTimes(pageB)).received.length;
      const clickedAt = await button.evaluate((element: HTMLElement) => {
        const at = performance.timeOrigin + performance.now();
        element.click();
        return at;
      });
      const changedAt = await pageB.evaluate(
        (count) =>
          new Promise<number>((resolve) => {
            const poll = () => {
              const changes = (window as unknown as { __badgeChanges: number[] }).__badgeChanges;
              if (changes.length >= count) resolve(changes[count - 1] ?? NaN);
              else requestAnimationFrame(poll);
            };
            poll();
          }),
        change + 1,
      );
      if (change < WARM_UP) continue;
      const sentAt = (await socketTimes(pageA)).sent.at(-1) ?? NaN;
      // The update that changed the badge: the last to arrive before the change.
      const receivedAt =
        (await socketTimes(pageB)).received
          .slice(receivedBefore)
          .filter((at) => at <= changedAt)
          .at(-1) ?? NaN;
      samples.total.push(changedAt - clickedAt);
      samples.pageA.push(sentAt - clickedAt);
      samples.backend.push(receivedAt - sentAt);
      samples.pageB.push(changedAt - receivedAt);
    }
    const total = summarize(samples.total);
    console.log(
      `Browser, click in page A → changed DOM in page B (${CHANGES} changes, Chromium, npm start):`,
    );
    const parts: [string, number[]][] = [
      ["page A: click → mutation sent", samples.pageA],
      ["backend: sent → update at page B", samples.backend],
      ["page B: update → DOM changed", samples.pageB],
      ["total", samples.total],
    ];
    for (const [name, values] of parts) {
      const summary = summarize(values);
      console.log(`  ${name.padEnd(34)} median ${ms(summary.median)}, p95 ${ms(summary.p95)}`);
    }
    for (const [label, value, budget] of [
      ["p50", total.median, 20],
      ["p95", total.p95, 50],
    ] as const) {
      const verdict = recordMsFigure(
        GROUP,
        `browser, click in page A → changed DOM in page B, ${label}`,
        value,
        budget,
      );
      console.log(`  budget ${label} ≤ ${budget} ms: ${verdict}`);
    }
    console.log("");
  } finally {
    await browser.close();
    await app.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// `npm run bench:browser [-- --no-build]`: this figure alone.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await browserPropagation({ build: !process.argv.includes("--no-build") });
  printFigures();
}
