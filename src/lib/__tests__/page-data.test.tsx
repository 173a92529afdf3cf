import { act, renderHook } from "@testing-library/react";
import { convexToJson } from "convex/values";
import type { ReactNode } from "react";
import { hydrateRoot } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { MemoryRouter } from "react-router-dom";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { api } from "@convex/_generated/api";
import { useMockConvexAuth } from "@/test/convex-auth-mock";
import { convexReactMock, resetConvexMock, setQueryResult } from "@/test/convex-mock";
import { formatCountdown } from "@convex/lib/time";
import { viewerTimeZone } from "@convex/lib/timeZone";
import { WatchListProviders } from "@/components/watch-list/__tests__/watch-list-providers";
import { streamCardTime } from "@/components/streams/stream-card";
import { LiveNow } from "@/features/home/live-now";
import { StartingSoon } from "@/features/home/starting-soon";
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

vi.mock("convex/react", () => ({ ...convexReactMock, useConvexAuth: useMockConvexAuth }));

const FIVE_MINUTES = 5 * 60_000;
/** When the server drew the page, and the browser's clock when it hydrates: a countdown later. */
const SERVER_NOW = Date.UTC(2026, 10, 21, 12, 0, 0);
const BROWSER_NOW = SERVER_NOW + 3 * 60_000 + 7_000;

const card = (id: string, streamTitle: string, status: "LIVE" | "SCHEDULED", streamStartUTC: number) => ({
  _id: id,
  streamTitle,
  streamStatus: status,
  liveShopName: "Logan Square Toy Exchange",
  liveShopSlug: "logan-square-toy-exchange",
  timezone: "America/Chicago",
  streamStartUTC,
});

const LIVE = [card("a", "Pokémon card breaks", "LIVE", SERVER_NOW - 30 * 60_000)];
const SOON = [card("b", "Vintage denim drop", "SCHEDULED", SERVER_NOW + 65 * 60_000)];

/** What `npm start` embeds for the home page's two boards. */
function homeData(): PageData {
  const since = Math.floor(SERVER_NOW / FIVE_MINUTES) * FIVE_MINUTES;
  return {
    now: SERVER_NOW,
    origin: "http://localhost:4173",
    queries: {
      [pageQueryKey("streams:listLiveNow", {})]: convexToJson(LIVE),
      [pageQueryKey("streams:listStartingSoon", { since })]: convexToJson(SOON),
    },
  };
}

function Boards({ data }: { data: PageData | null }) {
  return (
    <PageDataProvider state={data && pageDataState(data)}>
      <MemoryRouter>
        <WatchListProviders>
          <LiveNow />
          <StartingSoon />
        </WatchListProviders>
      </MemoryRouter>
    </PageDataProvider>
  );
}

beforeEach(() => {
  resetConvexMock();
  vi.useFakeTimers({ now: BROWSER_NOW, toFake: ["Date", "setInterval", "clearInterval"] });
});
afterEach(() => {
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
    const data = homeData();
    const container = serverHtml(data);
    // The server's countdown, from its own clock, and the show's time in the shop's zone (named).
    const serverCountdown = `Starts ${formatCountdown(SOON[0].streamStartUTC - SERVER_NOW)}`;
    expect(container).toHaveTextContent(serverCountdown);
    expect(container).toHaveTextContent(streamCardTime(LIVE[0], SERVER_NOW, "America/Chicago")!);
    const title = container.querySelector("h3");
    expect(title).toHaveTextContent("Pokémon card breaks");

    const errors: unknown[] = [];
    await act(async () => {
      hydrateRoot(container, <Boards data={data} />, { onRecoverableError: (error) => errors.push(error) });
      await Promise.resolve();
    });
    expect(errors).toEqual([]);
    // Hydrated, not drawn again: the server's elements are the page's.
    expect(container.querySelector("h3")).toBe(title);
    // Then the browser's clock and zone.
    expect(container).toHaveTextContent(`Starts ${formatCountdown(SOON[0].streamStartUTC - BROWSER_NOW)}`);
    expect(container).toHaveTextContent(streamCardTime(LIVE[0], BROWSER_NOW, viewerTimeZone())!);

    // The subscription answers with something new: the page follows it.
    act(() => setQueryResult(api.streams.listLiveNow, [{ ...LIVE[0], streamTitle: "Booster box night" }]));
    expect(container.querySelector("h3")).toHaveTextContent("Booster box night");
  });

  test("without the server's data the first render differs, and React reports it (the check can fail)", async () => {
    const container = serverHtml(homeData());
    const consoleError = vi.spyOn(console, "error").mockImplementation(() => {});
    const errors: unknown[] = [];
    await act(async () => {
      hydrateRoot(container, <Boards data={null} />, { onRecoverableError: (error) => errors.push(error) });
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
    ({ children }: { children: ReactNode }) => <PageDataProvider state={state}>{children}</PageDataProvider>;

  test("answers from the embedded data until the subscription does; the same answer keeps the same object", () => {
    const state = pageDataState({
      now: 0,
      origin: "",
      queries: { [key]: convexToJson(LIVE) },
    });
    const { result } = renderHook(() => usePageQuery(api.streams.listLiveNow, {}), {
      wrapper: wrapper(state),
    });
    const embedded = result.current;
    expect(embedded).toEqual(LIVE);
    act(() => setQueryResult(api.streams.listLiveNow, structuredClone(LIVE)));
    expect(result.current).toBe(embedded);
    const changed = [{ ...LIVE[0], streamTitle: "Changed" }];
    act(() => setQueryResult(api.streams.listLiveNow, changed));
    expect(result.current).toBe(changed);
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

  test("once spent (after the first navigation), the embedded answers are not used", () => {
    const state = pageDataState({
      now: 0,
      origin: "",
      queries: { [key]: convexToJson(LIVE) },
    });
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
