/**
 * The server's entry (decision 040): `npm run build` builds it for Node (dist/.ssr/), and `npm start`
 * renders public pages with it (scripts/serve/server-render.ts). It draws the same tree the browser
 * does (the app around a router with the same routes; a memory router at the page's URL), as an
 * anonymous visitor, with the page's first query answers: a first pass records the queries the page
 * asks for, they are read, and the page is drawn again with their answers, until it asks for nothing
 * new. The HTML and those answers go into the page; the browser hydrates from the same answers.
 */
import { StrictMode } from "react";
import { prerender } from "react-dom/static";
import { createMemoryRouter } from "react-router-dom";
import { App } from "@/app/app";
import { routerReady, sessionRoutes, type AppRouter } from "@/app/router";
import { PageDataProvider, pageDataState, type PageData, type QueryRecorder } from "@/lib/page-data";

export { PAGE_DATA_ELEMENT_ID, serializePageData, type PageData } from "@/lib/page-data";

/** Reads a public query as an anonymous visitor: Convex JSON in, Convex JSON out. */
export type ReadQuery = (name: string, argsJson: unknown) => Promise<unknown>;

export type RenderPageOptions = {
  /** The time the page is drawn at ("live", "starts in …"), which the browser hydrates with too. */
  now: number;
  /** The origin the page is for (its links and schema.org data). */
  origin: string;
  readQuery: ReadQuery;
  /** At most this many renders (default 3): a page whose queries depend on others' answers needs two. */
  maxPasses?: number;
};

export type RenderedPage = {
  /** The app's HTML, for inside `#root`. */
  html: string;
  /** What it was drawn with, for the browser to hydrate with. */
  data: PageData;
  /** Queries the page asked for whose answers it has not got (they render as loading, as in the browser). */
  missing: string[];
};

async function renderOnce(router: AppRouter, data: PageData, record: QueryRecorder): Promise<string> {
  const errors: unknown[] = [];
  const { prelude } = await prerender(
    <StrictMode>
      <PageDataProvider state={pageDataState(data, record)}>
        <App router={router} />
      </PageDataProvider>
    </StrictMode>,
    { onError: (error) => void errors.push(error) },
  );
  const html = await new Response(prelude).text();
  // The browser's error boundaries do not run on the server: any error fails the render, and the
  // server answers with the page the browser renders itself.
  if (errors.length > 0) throw errors[0] instanceof Error ? errors[0] : new Error(String(errors[0]));
  return html;
}

/** The page at `url` (path and search) as HTML, with the query answers it was drawn with. */
export async function renderPage(url: string, options: RenderPageOptions): Promise<RenderedPage> {
  const router = createMemoryRouter(sessionRoutes(), { initialEntries: [url] });
  try {
    await routerReady(router);
    const data: PageData = { now: options.now, origin: options.origin, queries: {} };
    const failed = new Set<string>();
    const maxPasses = options.maxPasses ?? 3;
    for (let pass = 1; ; pass++) {
      const wanted = new Map<string, { name: string; argsJson: unknown }>();
      const html = await renderOnce(router, data, (key, name, argsJson) => {
        if (!(key in data.queries) && !failed.has(key)) wanted.set(key, { name, argsJson });
      });
      if (wanted.size === 0 || pass >= maxPasses) return { html, data, missing: [...wanted.keys()] };
      await Promise.all(
        [...wanted].map(async ([key, { name, argsJson }]) => {
          try {
            data.queries[key] = await options.readQuery(name, argsJson);
          } catch {
            // Drawn loading, as the browser draws it until its subscription answers (or fails).
            failed.add(key);
          }
        }),
      );
    }
  } finally {
    router.dispose();
  }
}
