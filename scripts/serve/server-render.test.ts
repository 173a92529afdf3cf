import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { ConvexHttpClient } from "convex/browser";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { api } from "../../convex/_generated/api";
import { inlineScriptHashes } from "./headers.ts";
import {
  createPageRenderer,
  deferredAppStart,
  isServerRendered,
  withRenderedPage,
  type ServerEntry,
} from "./server-render.ts";
import { startAppServer, type StartedAppServer } from "./server.ts";
import { writeTestDist } from "./test-dist.ts";

/**
 * The app's own server entry, as the build bundles it (imported by path: it is the browser project's
 * code, type-checked there).
 */
const ENTRY = path.resolve(import.meta.dirname, "../../src/entry-server.tsx");
const entry = (await import(ENTRY)) as ServerEntry;

/** index.html as the build writes it: the module script and its preloads in the head. */
const INDEX = readFileSync(path.resolve(import.meta.dirname, "../../index.html"), "utf8")
  .replace('<script type="module" src="/src/main.tsx"></script>', "")
  .replace(
    "</head>",
    `<script type="module" crossorigin src="/assets/index-abc.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/react-def.js">
  </head>`,
  );

/** The JSON the server embeds for the browser to hydrate with. */
function pageDataOf(html: string): { now: number; origin: string; queries: Record<string, unknown> } {
  const json = /<script type="application\/json" id="livelocal-page-data">([\s\S]*?)<\/script>/.exec(
    html,
  )?.[1];
  if (!json) throw new Error("The page has no embedded data.");
  return JSON.parse(json) as { now: number; origin: string; queries: Record<string, unknown> };
}

/** What is inside `<div id="root">` (the app's HTML), up to the embedded data. */
function rootOf(html: string): string {
  return /<div id="root">([\s\S]*?)<\/div>\s*<script type="application\/json"/.exec(html)?.[1] ?? "";
}

describe("which pages the server renders", () => {
  test.each([
    "/",
    "/explore/streams",
    "/explore/live-shops/",
    "/live-shop/east-austin-denim-co",
    "/stream/k17",
  ])("%s", (pathname) => expect(isServerRendered(pathname)).toBe(true));
  test.each(["/sign-in", "/dashboard", "/watch-list", "/explore/other", "/live-shop/a/b", "/nope"])(
    "not %s",
    (pathname) => expect(isServerRendered(pathname)).toBe(false),
  );
});

describe("a rendered page in index.html", () => {
  const page = {
    html: "<main><h1>Live now</h1></main>",
    dataJson: '{"now":1,"origin":"http://x","queries":{}}',
    dataElementId: "livelocal-page-data",
  };

  test("its HTML replaces the loading line, its data follows, and the app starts after the first paint", () => {
    const html = withRenderedPage(INDEX, page);
    expect(html).toContain('<div id="root"><main><h1>Live now</h1></main></div>');
    expect(html).not.toContain("Loading LiveLocal…");
    // Readable without JavaScript: the note says what is missing, not that nothing works.
    expect(html).toContain("Turn on JavaScript to see this page change live.");
    expect(html).not.toContain("LiveLocal needs JavaScript");
    expect(pageDataOf(html)).toEqual({ now: 1, origin: "http://x", queries: {} });
    // The module script and its preloads leave the head; the inline start asks for them.
    expect(html).not.toMatch(/<script type="module"|<link rel="modulepreload"/);
    const start = deferredAppStart(INDEX);
    expect(html).toContain(start.script);
    expect(start.script).toContain('["/assets/index-abc.js"]');
    expect(start.script).toContain('["/assets/react-def.js"]');
    expect(start.script).toContain("requestAnimationFrame");
  });

  test("the start script is the only new inline script: its hash is what the CSP must allow", () => {
    const html = withRenderedPage(INDEX, page);
    const start = deferredAppStart(INDEX);
    expect(inlineScriptHashes(html)).toEqual([
      ...inlineScriptHashes(INDEX),
      ...inlineScriptHashes(start.script),
    ]);
  });

  test("page text cannot end the data block", () => {
    const data = { now: 1, origin: "http://x", queries: { q: "</script><script>alert(1)</script>" } };
    const html = withRenderedPage(INDEX, { ...page, dataJson: entry.serializePageData(data) });
    expect(html).not.toContain("</script><script>alert(1)");
    expect(pageDataOf(html)).toEqual(data);
  });
});

describe("the renderer", () => {
  test("a render that fails or takes too long gives null, so the browser renders the page", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const failing: ServerEntry = { ...entry, renderPage: () => Promise.reject(new Error("boom")) };
    const render = createPageRenderer({ entry: failing, convexUrl: () => "unused" });
    expect(await render("/", "http://x")).toBeNull();
    const never: ServerEntry = { ...entry, renderPage: () => new Promise(() => {}) };
    const slow = createPageRenderer({ entry: never, convexUrl: () => "unused", timeoutMs: 10 });
    expect(await slow("/", "http://x")).toBeNull();
    expect(warn).toHaveBeenCalledTimes(2);
    warn.mockRestore();
  });

  test("HTML with a script that would run (which the CSP blocks) is not sent; JSON-LD data is", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const page = (html: string): ServerEntry => ({
      ...entry,
      renderPage: () => Promise.resolve({ html, data: { now: 0, origin: "", queries: {} }, missing: [] }),
    });
    const streamed = createPageRenderer({
      entry: page('<div></div><script>$RC("B:0","S:0")</script>'),
      convexUrl: () => "",
    });
    expect(await streamed("/", "http://x")).toBeNull();
    const jsonLd = createPageRenderer({
      entry: page('<script type="application/ld+json">{}</script><h1>Shop</h1>'),
      convexUrl: () => "",
    });
    expect((await jsonLd("/", "http://x"))?.html).toContain("<h1>Shop</h1>");
    expect(warn).toHaveBeenCalledOnce();
    warn.mockRestore();
  });

  test("a query that fails is drawn loading, as the browser would draw it, and is not embedded", async () => {
    const render = createPageRenderer({
      entry,
      convexUrl: () => "unused",
      now: () => Date.UTC(2026, 10, 21, 18),
      readQuery: (name) =>
        name === "streams:listLiveNow" ? Promise.reject(new Error("backend down")) : Promise.resolve([]),
    });
    const page = await render("/", "http://x");
    expect(page).not.toBeNull();
    expect(page!.html).toContain('aria-label="Loading live shows"');
    expect(page!.html).toContain("No shows are scheduled for the next two days yet.");
    const data = JSON.parse(page!.dataJson) as { now: number; queries: Record<string, unknown> };
    expect(data.now).toBe(Date.UTC(2026, 10, 21, 18));
    expect(Object.keys(data.queries).some((key) => key.startsWith("streams:listLiveNow"))).toBe(false);
    expect(Object.keys(data.queries).some((key) => key.startsWith("streams:listStartingSoon"))).toBe(true);
  });
});

// Through `npm start` with the local backend and the demo data, rendering with the app's own entry.
describe("npm start renders public pages", () => {
  let app: StartedAppServer;
  let dist: string;
  let client: ConvexHttpClient;

  beforeAll(async () => {
    dist = writeTestDist(INDEX, "livelocal-ssr-");
    app = await startAppServer({
      distDir: dist,
      port: 0,
      sitePort: 0,
      dataDir: null,
      quiet: true,
      demoData: true,
      serverEntry: entry,
      // A busy 2-core host can take longer than the 2 s a visitor waits for the first render (which
      // starts the functions' isolates); what these tests check is what a render holds.
      renderTimeoutMs: 60_000,
    });
    client = new ConvexHttpClient(app.url);
  });
  afterAll(async () => {
    await app?.stop();
    rmSync(dist, { recursive: true, force: true });
  });

  test("the home page's HTML has the live shows' cards, and the answers it was drawn with", async () => {
    const live = await client.query(api.streams.listLiveNow, {});
    expect(live.length).toBeGreaterThan(0);
    const response = await fetch(`${app.url}/`);
    expect(response.status).toBe(200);
    const html = await response.text();
    const root = rootOf(html);
    expect(root).toContain("Find the live shopping shows happening near you.");
    for (const stream of live) expect(root).toContain(`href="/stream/${stream._id}"`);
    const data = pageDataOf(html);
    expect(data.origin).toBe(app.url);
    const answer = Object.entries(data.queries).find(([key]) => key.startsWith("streams:listLiveNow:"))?.[1];
    expect((answer as { _id: string }[]).map((stream) => stream._id)).toEqual(live.map((s) => s._id));
    // The first card's picture is asked for at once.
    expect(root).toMatch(/<link rel="preload" as="image" href="[^"]+" fetchPriority="high"\/>/);
  });

  test("a stream's page has its title in the HTML, under the head its preview already had", async () => {
    const shop = await client.query(api.liveShops.getPublicShop, { idOrSlug: "east-austin-denim-co" });
    const stream = shop!.streams.live[0];
    const response = await fetch(`${app.url}/stream/${stream._id}`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(rootOf(html)).toContain(`>${stream.streamTitle.replace(/'/g, "&#x27;")}</h1>`);
    expect(html).toContain('<meta data-page-meta property="og:title"');
  });

  test("an explore list's HTML has its first page of results", async () => {
    const html = await (await fetch(`${app.url}/explore/live-shops`)).text();
    expect(rootOf(html)).toContain("East Austin Denim Co.");
    expect(
      Object.keys(pageDataOf(html).queries).some((key) => key.startsWith("explore:listExploreShops")),
    ).toBe(true);
  });

  test("an unknown path, a missing shop and a missing stream answer 404 with the not-found page in the HTML", async () => {
    // Without JavaScript (a crawler, a visitor with it off) the page says so and links home.
    for (const pathname of ["/nope", "/live-shop/nope-shop", "/stream/bogus"]) {
      const response = await fetch(`${app.url}${pathname}`);
      expect(response.status).toBe(404);
      const root = rootOf(await response.text());
      expect(root).toContain(`Page not found: ${pathname}`);
      expect(root).toMatch(/<a [^>]*href="\/"[^>]*>Back to home<\/a>/);
      expect(root).not.toContain("Loading LiveLocal…");
    }
  });

  test("pages that are not server-rendered are index.html as before", async () => {
    const response = await fetch(`${app.url}/sign-in`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(INDEX);
  });

  test("the Content-Security-Policy lets the start script run", async () => {
    const response = await fetch(`${app.url}/`);
    const [hash] = inlineScriptHashes(deferredAppStart(INDEX).script);
    expect(response.headers.get("content-security-policy")).toContain(hash);
  });
});
