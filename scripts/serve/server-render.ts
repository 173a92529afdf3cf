/**
 * Public pages as HTML (decision 040): `npm start` renders `/`, the explore lists and shop and stream
 * pages with the server's entry (src/entry-server.tsx, built into dist/.ssr/ by `npm run build`), as
 * an anonymous visitor whose queries are read from the backend (the in-process one, over HTTP as any
 * client's), and puts the HTML and the answers it was drawn with into index.html. The browser hydrates
 * from them and subscribes from there. A page that cannot be rendered in time, or whose render fails,
 * is served as before: index.html, rendered by the browser.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { makeFunctionReference } from "convex/server";
import { convexToJson, jsonToConvex, type JSONValue, type Value } from "convex/values";
import { httpClientFor } from "./convex-client.ts";

/** What dist/.ssr/entry-server.js exports (src/entry-server.tsx). */
export type ServerEntry = {
  PAGE_DATA_ELEMENT_ID: string;
  serializePageData: (data: RenderedPage["data"]) => string;
  renderPage: (
    url: string,
    options: {
      now: number;
      origin: string;
      readQuery: (name: string, argsJson: unknown) => Promise<unknown>;
      maxPasses?: number;
    },
  ) => Promise<RenderedPage>;
};

export type RenderedPage = {
  html: string;
  data: { now: number; origin: string; queries: Record<string, unknown> };
  missing: string[];
};

/** A page as the server rendered it, ready to go into index.html. */
export type ServerRenderedPage = { html: string; dataJson: string; dataElementId: string };

export type PageRenderer = (url: string, origin: string) => Promise<ServerRenderedPage | null>;

export const SERVER_ENTRY = path.join(".ssr", "entry-server.js");

/** The server's entry of the build in `distDir`, or null when the build has none (an older build). */
export async function loadServerEntry(distDir: string): Promise<ServerEntry | null> {
  const file = path.join(distDir, SERVER_ENTRY);
  if (!existsSync(file)) return null;
  return (await import(pathToFileURL(file).href)) as ServerEntry;
}

/** Which pages the server renders: the public ones an anonymous visitor sees first. */
const SERVER_RENDERED = [
  /^\/$/,
  /^\/explore\/(?:streams|live-shops)\/?$/,
  /^\/live-shop\/[^/]+\/?$/,
  /^\/stream\/[^/]+\/?$/,
];

export function isServerRendered(pathname: string): boolean {
  return SERVER_RENDERED.some((pattern) => pattern.test(pathname));
}

/** A `<script>` that would run (data blocks, JSON and JSON-LD, do not). */
const RUNNABLE_SCRIPT = /<script(?![^>]*\btype="application\/(?:ld\+)?json")[^>]*>/i;

export type RendererOptions = {
  entry: ServerEntry;
  /** The Convex URL to read from (this server's own origin in local mode). */
  convexUrl: () => string;
  /** A render that takes longer is abandoned for the browser-rendered page (default 2 s). */
  timeoutMs?: number;
  /** The clock, for tests. */
  now?: () => number;
  /** The reads, for tests; by default the public queries over HTTP, without an identity. */
  readQuery?: (name: string, argsJson: unknown) => Promise<unknown>;
};

export function createPageRenderer(options: RendererOptions): PageRenderer {
  const timeoutMs = options.timeoutMs ?? 2_000;
  const now = options.now ?? Date.now;
  const client = httpClientFor(options.convexUrl);
  const readQuery =
    options.readQuery ??
    (async (name: string, argsJson: unknown) => {
      const args = jsonToConvex(argsJson as JSONValue) as Record<string, Value>;
      return convexToJson((await client().query(makeFunctionReference<"query">(name), args)) as Value);
    });

  return async function render(url: string, origin: string): Promise<ServerRenderedPage | null> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<null>((resolve) => {
      timer = setTimeout(() => {
        console.warn(`Server render of ${url} took over ${timeoutMs} ms; the browser renders it.`);
        resolve(null);
      }, timeoutMs);
    });
    const rendered = options.entry.renderPage(url, { now: now(), origin, readQuery }).then(
      (page): ServerRenderedPage | null => {
        // React writes inline scripts when it streams a Suspense boundary apart from the page; the
        // Content-Security-Policy would block them and the page would not hydrate (decision 040).
        if (RUNNABLE_SCRIPT.test(page.html)) {
          console.warn(`Server render of ${url} has inline scripts; the browser renders it.`);
          return null;
        }
        return {
          html: page.html,
          dataJson: options.entry.serializePageData(page.data),
          dataElementId: options.entry.PAGE_DATA_ELEMENT_ID,
        };
      },
      (error: unknown) => {
        console.warn(`Server render of ${url} failed; the browser renders it: ${String(error)}`);
        return null;
      },
    );
    try {
      return await Promise.race([rendered, timeout]);
    } finally {
      clearTimeout(timer);
    }
  };
}

const MODULE_SCRIPT = /\s*<script type="module" crossorigin src="([^"]+)"><\/script>/g;
const MODULE_PRELOAD = /\s*<link rel="modulepreload" crossorigin href="([^"]+)"\s*\/?>/g;

/**
 * How a server-rendered page starts the app: after its first paint (decision 040). Its content is in
 * the HTML, so the stylesheet, the HTML and the first pictures get the connection to themselves, and
 * the app's scripts (index.html's module script and its preloads, taken out of the head) are asked for
 * from the first frame on; at once in a tab that is not shown, which paints nothing. `script` is an
 * inline classic script: `hash` goes into the Content-Security-Policy.
 */
export function deferredAppStart(indexHtml: string): { strip: (html: string) => string; script: string } {
  const entries = [...indexHtml.matchAll(MODULE_SCRIPT)].map((match) => match[1] ?? "");
  const preloads = [...indexHtml.matchAll(MODULE_PRELOAD)].map((match) => match[1] ?? "");
  const code =
    "(function(){" +
    "function start(){" +
    `${JSON.stringify(preloads)}.forEach(function(href){var link=document.createElement("link");link.rel="modulepreload";link.crossOrigin="";link.href=href;document.head.appendChild(link)});` +
    `${JSON.stringify(entries)}.forEach(function(src){var script=document.createElement("script");script.type="module";script.crossOrigin="";script.src=src;document.head.appendChild(script)})` +
    "}" +
    'if(document.visibilityState!=="visible")start();else requestAnimationFrame(function(){setTimeout(start)})' +
    "})()";
  return {
    strip: (html) => html.replace(MODULE_SCRIPT, "").replace(MODULE_PRELOAD, ""),
    script: `<script>${code}</script>`,
  };
}

/**
 * index.html with a rendered page: its HTML in `#root` instead of the loading line, the data it was
 * drawn with beside it (JSON, which the Content-Security-Policy lets through as it runs nothing). React
 * puts a preload of each picture marked `fetchpriority="high"` (the first cards') at the start of the
 * HTML, so the largest paint's picture is asked for as soon as the page is.
 */
export function withRenderedPage(
  indexHtml: string,
  page: ServerRenderedPage,
  start: ReturnType<typeof deferredAppStart> = deferredAppStart(indexHtml),
): string {
  const root = /<div id="root">[\s\S]*?<\/div>/;
  if (!root.test(indexHtml)) throw new Error("index.html has no #root element to render into.");
  return (
    start
      .strip(indexHtml)
      // The page is readable without JavaScript; what it misses is being live.
      .replace(
        /<noscript>[\s\S]*?<\/noscript>/,
        () =>
          '<noscript>\n      <p class="p-4 text-center">Turn on JavaScript to see this page change live.</p>\n    </noscript>',
      )
      .replace(
        root,
        () =>
          `<div id="root">${page.html}</div>\n    <script type="application/json" id="${page.dataElementId}">${page.dataJson}</script>\n    ${start.script}`,
      )
  );
}
