/**
 * What `npm start` read and rendered a page with (decision 040): the page's first query results, the
 * time and the origin it was drawn for. The server renders public pages to HTML with these and embeds
 * them in the page as JSON; the browser hydrates from the same values, so its first render draws what
 * the server drew, and then moves to its own clock, zone and live subscriptions.
 *
 * This module is in the main chunk: it holds no Convex code (page-query.ts, loaded with the pages, does).
 */
import { createContext, startTransition, useContext, useEffect, useState, type ReactNode } from "react";
import { stringify } from "safe-stable-stringify";
import { scriptJson } from "./script-json";

/** The id of the `<script type="application/json">` element the server embeds the page's data in. */
export const PAGE_DATA_ELEMENT_ID = "livelocal-page-data";

export type PageData = {
  /** When the server rendered the page (ms since the epoch): every "now" while the page hydrates. */
  now: number;
  /** The origin the page was rendered for (links and schema.org data while hydrating). */
  origin: string;
  /** Query results by `pageQueryKey`, as Convex JSON (`convexToJson`). */
  queries: Record<string, unknown>;
};

/** On the server: asked for each query a render reads, so the next pass can have its result. */
export type QueryRecorder = (key: string, name: string, argsJson: unknown) => void;

type PageDataState = { data: PageData; record?: QueryRecorder; spent: boolean };

const PageDataContext = createContext<PageDataState | null>(null);
const HydratingContext = createContext(false);

/**
 * Provides the page's data below it. `record` is the server's; in the browser the data serves the first
 * location only (`spendPageData` after the first navigation), so a page opened later never starts from
 * an old answer.
 */
export function PageDataProvider({ state, children }: { state: PageDataState | null; children: ReactNode }) {
  // With data, the tree starts as the server drew it (the server, or the browser hydrating its HTML).
  const [hydrating, setHydrating] = useState(state !== null);
  useEffect(() => {
    // Once hydrated, the browser's own values, in a transition: the cards that show times render again
    // in slices that yield to the browser, not in one long task.
    if (hydrating) startTransition(() => setHydrating(false));
  }, [hydrating]);
  return (
    <PageDataContext value={state}>
      <HydratingContext value={hydrating}>{children}</HydratingContext>
    </PageDataContext>
  );
}

export function pageDataState(data: PageData, record?: QueryRecorder): PageDataState {
  return { data, record, spent: false };
}

/** After the first navigation: the embedded answers are no longer the page's. */
export function spendPageData(state: PageDataState | null): void {
  if (state) state.spent = true;
}

/** The page's data, or null (a page the browser rendered itself, or one navigated to since). */
export function usePageData(): PageDataState | null {
  const state = useContext(PageDataContext);
  return state && !state.spent ? state : null;
}

/** The embedded page data, or null when the page was not rendered by the server (or it is unreadable). */
export function readEmbeddedPageData(doc: Document = document): PageData | null {
  const element = doc.getElementById(PAGE_DATA_ELEMENT_ID);
  if (!element?.textContent) return null;
  try {
    const data = JSON.parse(element.textContent) as Partial<PageData>;
    if (typeof data.now !== "number" || typeof data.origin !== "string") return null;
    if (typeof data.queries !== "object" || data.queries === null) return null;
    return data as PageData;
  } catch {
    return null;
  }
}

/** The page data as JSON for its `<script>` element (`scriptJson`: no `</script>` can end it). */
export function serializePageData(data: PageData): string {
  return scriptJson(data);
}

/**
 * The key of a query's answer in the page data: its name and its arguments (Convex JSON, keys sorted
 * so equal arguments make equal keys whatever order they were built in).
 */
export function pageQueryKey(name: string, argsJson: unknown): string {
  return `${name}:${stringify(argsJson) ?? "null"}`;
}

/**
 * True on the server and while the browser hydrates the server's HTML, until the render right after;
 * false in a page the browser rendered on its own. What the server cannot know (the viewer's clock and
 * zone, the origin it is reached at) reads the server's value while this is true, so hydration draws
 * exactly the server's HTML.
 */
export function useHydrating(): boolean {
  return useContext(HydratingContext);
}

/** The site's origin: the browser's, or the one the server rendered the page for while hydrating. */
export function useSiteOrigin(): string {
  const page = useContext(PageDataContext);
  return useHydrating() && page ? page.data.origin : window.location.origin;
}
