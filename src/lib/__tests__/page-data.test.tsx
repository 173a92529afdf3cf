import { act, renderHook, waitFor } from "@testing-library/react";
import { ConvexProviderWithAuth } from "convex/react";
import { convexToJson } from "convex/values";
import type { ReactNode } from "react";
import { hydrateRoot, type Root } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { MemoryRouter } from "react-router-dom";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { formatCountdown } from "@convex/lib/time";
import { viewerTimeZone } from "@convex/lib/timeZone";
import { patchStream } from "@convex/model/streams";
import { WatchListProviders } from "@/components/watch-list/__tests__/watch-list-providers";
import { streamCardTime } from "@/components/streams/stream-card";
import { LiveNow } from "@/features/home/live-now";
import { StartingSoon } from "@/features/home/starting-soon";
import { convexBackend } from "@/test/convex-backend";
import { seedShop, seedStream } from "@/test/convex-seed";
import {
  PageDataProvider,
  pageDataState,
  pageQueryKey,
  readEmbeddedPageData,
  serializePageData,
  spendPageData,
  type PageData,
} from "../page-data";
import { usePageQuery } from "../page-query";

const convex = convexBackend();

const FIVE_MINUTES = 5 * 60_000;
/** When the server drew the page, and the browser's clock when it hydrates: a countdown later. */
const SERVER_NOW = Date.UTC(2026, 10, 21, 12, 0, 0);
const BROWSER_NOW = SERVER_NOW + 3 * 60_000 + 7_000;
const SINCE = Math.floor(SERVER_NOW / FIVE_MINUTES) * FIVE_MINUTES;

/** The home page's two boards' shows: one live, one starting in 65 minutes. */
async function seedBoards(): Promise<{ live: Id<"streams"> }> {
  const seller = await convex.addUser("seller");
  const shop = await seedShop(convex, seller, {
    liveShopName: "Logan Square Toy Exchange",
    timezone: "America/Chicago",
  });
  const live = await seedStream(convex, shop, {
    streamTitle: "Pokémon card breaks",
    streamStatus: "LIVE",
    streamStartUTC: SERVER_NOW - 30 * 60_000,
  });
  await seedStream(convex, shop, {
    streamTitle: "Vintage denim drop",
    streamStartUTC: SERVER_NOW + 65 * 60_000,
  });
  return { live };
}

/** What `npm start` embeds for the home page's two boards: the backend's answers, as it read them. */
async function homeData() {
  const live = await convex.call(api.streams.listLiveNow, {});
  const soon = await convex.call(api.streams.listStartingSoon, { since: SINCE });
  const data: PageData = {
    now: SERVER_NOW,
    origin: "http://localhost:4173",
    queries: {
      [pageQueryKey("streams:listLiveNow", {})]: convexToJson(live),
      [pageQueryKey("streams:listStartingSoon", { since: SINCE })]: convexToJson(soon),
    },
  };
  return { data, live, soon };
}

/** An anonymous visitor's session, the same on the server and in the browser (the server has no session). */
const SIGNED_OUT = {
  isLoading: false,
  isAuthenticated: false,
  fetchAccessToken: () => Promise.resolve(null),
};
const useSignedOut = () => SIGNED_OUT;

function Boards({ data }: { data: PageData | null }) {
  return (
    <PageDataProvider state={data && pageDataState(data)}>
      <MemoryRouter>
        <ConvexProviderWithAuth client={convex.client} useAuth={useSignedOut}>
          <WatchListProviders>
            <LiveNow />
            <StartingSoon />
          </WatchListProviders>
        </ConvexProviderWithAuth>
      </MemoryRouter>
    </PageDataProvider>
  );
}

beforeEach(() => {
  vi.useFakeTimers({ now: BROWSER_NOW, toFake: ["Date", "setInterval", "clearInterval"] });
});
/** The roots a test hydrated, unmounted before its client closes. */
const roots: Root[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) root.unmount();
  vi.useRealTimers();
  document.body.innerHTML = "";
});

/** The server's HTML in a container, as the browser receives it before any script runs. */
function serverHtml(data: PageData): HTMLElement {
  const container = document.createElement("div");
  container.innerHTML = renderToString(<Boards data={data} />);
  document.body.append(container);
  return container;
}

describe("hydrating a server-rendered page", () => {
  test("draws exactly the server's HTML (its answers, clock and zone), then the browser's, and stays live", async () => {
    const { live: liveId } = await seedBoards();
    const { data, live, soon } = await homeData();
    const container = serverHtml(data);
    // The server's countdown, from its own clock, and the show's time in the shop's zone (named).
    const serverCountdown = `Starts ${formatCountdown(soon[0].streamStartUTC! - SERVER_NOW)}`;
    expect(container).toHaveTextContent(serverCountdown);
    expect(container).toHaveTextContent(streamCardTime(live[0], SERVER_NOW, "America/Chicago")!);
    const title = container.querySelector("h3");
    expect(title).toHaveTextContent("Pokémon card breaks");

    const errors: unknown[] = [];
    await act(async () => {
      roots.push(
        hydrateRoot(container, <Boards data={data} />, { onRecoverableError: (error) => errors.push(error) }),
      );
      await Promise.resolve();
    });
    expect(errors).toEqual([]);
    // Hydrated, not drawn again: the server's elements are the page's.
    expect(container.querySelector("h3")).toBe(title);
    // Then the browser's clock and zone.
    expect(container).toHaveTextContent(`Starts ${formatCountdown(soon[0].streamStartUTC! - BROWSER_NOW)}`);
    expect(container).toHaveTextContent(streamCardTime(live[0], BROWSER_NOW, viewerTimeZone())!);

    // The subscription answers, then with something new: the page follows it. (Waiting polls on an
    // interval, which the page's fake clock would stop.)
    vi.useRealTimers();
    await convex.answered(api.streams.listLiveNow, {});
    expect(container.querySelector("h3")).toBe(title);
    await convex.run((ctx) => patchStream(ctx, liveId, { streamTitle: "Booster box night" }));
    await waitFor(() => expect(container.querySelector("h3")).toHaveTextContent("Booster box night"));
  });

  test("without the server's data the first render differs, and React reports it (the check can fail)", async () => {
    await seedBoards();
    const container = serverHtml((await homeData()).data);
    const consoleError = vi.spyOn(console, "error").mockImplementation(() => {});
    const errors: unknown[] = [];
    await act(async () => {
      roots.push(
        hydrateRoot(container, <Boards data={null} />, { onRecoverableError: (error) => errors.push(error) }),
      );
      await Promise.resolve();
    });
    expect(errors.length).toBeGreaterThan(0);
    consoleError.mockRestore();
  });
});

describe("usePageQuery", () => {
  const key = pageQueryKey("streams:listLiveNow", {});
  const wrapper =
    (state: ReturnType<typeof pageDataState> | null) =>
    ({ children }: { children: ReactNode }) => (
      <convex.wrapper>
        <PageDataProvider state={state}>{children}</PageDataProvider>
      </convex.wrapper>
    );

  test("answers from the embedded data until the subscription does; the same answer keeps the same object", async () => {
    vi.useRealTimers();
    const { live: liveId } = await seedBoards();
    const { live } = await homeData();
    const state = pageDataState({ now: 0, origin: "", queries: { [key]: convexToJson(live) } });
    const { result } = renderHook(() => usePageQuery(api.streams.listLiveNow, {}), {
      wrapper: wrapper(state),
    });
    const embedded = result.current;
    expect(embedded).toEqual(live);
    await convex.answered(api.streams.listLiveNow, {});
    expect(result.current).toBe(embedded);
    await convex.run((ctx) => patchStream(ctx, liveId, { streamTitle: "Changed" }));
    await waitFor(() => expect(result.current?.[0]?.streamTitle).toBe("Changed"));
    expect(result.current).not.toBe(embedded);
  });

  test("on the server, records what a render asks for", () => {
    const record = vi.fn();
    renderHook(() => usePageQuery(api.streams.listStartingSoon, { since: 5 }), {
      wrapper: wrapper(pageDataState({ now: 0, origin: "", queries: {} }, record)),
    });
    expect(record).toHaveBeenCalledWith(
      pageQueryKey("streams:listStartingSoon", { since: 5 }),
      "streams:listStartingSoon",
      { since: 5 },
    );
  });

  test("once spent (after the first navigation), the embedded answers are not used", async () => {
    await seedBoards();
    const { live } = await homeData();
    const state = pageDataState({ now: 0, origin: "", queries: { [key]: convexToJson(live) } });
    spendPageData(state);
    const { result } = renderHook(() => usePageQuery(api.streams.listLiveNow, {}), {
      wrapper: wrapper(state),
    });
    expect(result.current).toBeUndefined();
  });
});

describe("the embedded data", () => {
  test("is keyed by query and arguments, whatever the order of their keys", () => {
    expect(pageQueryKey("q", { b: 1, a: { d: 2, c: 3 } })).toBe(
      pageQueryKey("q", { a: { c: 3, d: 2 }, b: 1 }),
    );
    expect(pageQueryKey("q", { a: 1 })).not.toBe(pageQueryKey("q", { a: 2 }));
  });

  test("reads back from the page what the server serialised, and ignores anything else", () => {
    const data = { now: 1, origin: "http://x", queries: { k: "</script> & <!--" } };
    document.body.innerHTML = `<script type="application/json" id="livelocal-page-data">${serializePageData(data)}</script>`;
    expect(document.body.innerHTML).not.toContain("</script> &");
    expect(readEmbeddedPageData()).toEqual(data);
    document.body.innerHTML = `<script type="application/json" id="livelocal-page-data">{"now":"x"}</script>`;
    expect(readEmbeddedPageData()).toBeNull();
    document.body.innerHTML = "";
    expect(readEmbeddedPageData()).toBeNull();
  });
});
