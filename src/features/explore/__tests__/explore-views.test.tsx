import { act, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { MenuStateProvider } from "@/components/layout/menu-state";
import { useMockConvexAuth } from "@/test/convex-auth-mock";
import { convexReactMock, resetConvexMock, setQueryResult } from "@/test/convex-mock";
import { renderInRouter } from "@/test/render-in-router";
import { WatchListProviders } from "@/components/watch-list/__tests__/watch-list-providers";
import { ViewerTimeZoneProvider } from "@/lib/viewer-time-zone";
import { api } from "@convex/_generated/api";
import { ExploreStreamsPage } from "../explore-streams-page";

vi.mock("convex/react", () => ({ ...convexReactMock, useConvexAuth: useMockConvexAuth }));
vi.mock("convex-helpers/react", () => ({ usePaginatedQuery: convexReactMock.usePaginatedQuery }));

/** Friday 20 November 2026, 23:30 in Los Angeles: already Saturday the 21st in Berlin. */
const NOW = Date.UTC(2026, 10, 21, 7, 30);

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(NOW);
  resetConvexMock();
});
afterEach(() => vi.useRealTimers());

const card = (id: string, title: string, status = "SCHEDULED") => ({
  _id: id,
  streamTitle: title,
  streamStatus: status,
  liveShopName: "Windy City Card Breaks",
  liveShopSlug: "windy-city-card-breaks",
  timezone: "America/Chicago",
  streamStartUTC: NOW + 3_600_000,
});

function renderStreams(at: string, timeZone = "America/Los_Angeles") {
  setQueryResult(api.explore.listExploreStreams, []);
  const router = renderInRouter(
    <ViewerTimeZoneProvider timeZone={timeZone}>
      <WatchListProviders>
        <MenuStateProvider>
          <ExploreStreamsPage />
        </MenuStateProvider>
      </WatchListProviders>
    </ViewerTimeZoneProvider>,
    { path: "/explore/streams", at },
  );
  const params = () => new URLSearchParams(router.state.location.search);
  const lastListArgs = () => convexReactMock.usePaginatedQuery.mock.lastCall?.[1];
  return { router, params, lastListArgs };
}

describe("when: live now, today, this weekend, the next 7 days, replays", () => {
  test("each view is a link that keeps the filter; the current one is marked and titles the page", async () => {
    const { params } = renderStreams("/explore/streams?category=collectibles");
    const when = screen.getByRole("navigation", { name: "When" });
    expect(within(when).getByRole("link", { name: "Live & upcoming" })).toHaveAttribute(
      "aria-current",
      "page",
    );
    expect(screen.getByRole("heading", { level: 1, name: "Explore streams" })).toBeInTheDocument();
    await userEvent.click(within(when).getByRole("link", { name: "Live now" }));
    expect(params().get("when")).toBe("live");
    expect(params().getAll("category")).toEqual(["collectibles"]);
    expect(within(when).getByRole("link", { name: "Live now" })).toHaveAttribute("aria-current", "page");
    expect(screen.getByRole("heading", { level: 1, name: "Live now" })).toBeInTheDocument();
    expect(document.title).toBe("Live now · LiveLocal");
    await userEvent.click(within(when).getByRole("link", { name: "Replays" }));
    expect(params().get("when")).toBe("replays");
    await userEvent.click(within(when).getByRole("link", { name: "Live & upcoming" }));
    expect(params().has("when")).toBe(false);
  });

  test("a filter change keeps the view", async () => {
    const { params } = renderStreams("/explore/streams?when=weekend");
    await userEvent.click(screen.getByRole("checkbox", { name: "Collectibles" }));
    expect(params().get("when")).toBe("weekend");
  });

  test("the day windows ask for the viewer's own day and zone", () => {
    const { lastListArgs } = renderStreams("/explore/streams?when=today");
    expect(lastListArgs()).toMatchObject({
      view: { when: "today", day: "2026-11-20", timeZone: "America/Los_Angeles" },
    });
    expect(screen.getByText("On now and starting today, in your time zone.")).toBeInTheDocument();
  });

  test("in Berlin the same moment is already Saturday", () => {
    const { lastListArgs } = renderStreams("/explore/streams?when=weekend", "Europe/Berlin");
    expect(lastListArgs()).toMatchObject({
      view: { when: "weekend", day: "2026-11-21", timeZone: "Europe/Berlin" },
    });
  });

  test("live now and replays need no day", () => {
    const { lastListArgs } = renderStreams("/explore/streams?when=replays");
    expect(lastListArgs()).toEqual({
      filter: { categories: [], subcategories: [], states: [], msas: [] },
      view: { when: "replays", sort: "soonest" },
    });
  });
});

describe("count and sort", () => {
  test("the number of results shows above them; past the count's limit with a plus", () => {
    renderStreams("/explore/streams");
    act(() => {
      setQueryResult(api.explore.listExploreStreams, [card("s1", "Card night"), card("s2", "Box break")]);
      setQueryResult(api.explore.countExploreStreams, { count: 2, more: false });
    });
    expect(screen.getByText("2 shows")).toBeInTheDocument();
    act(() => setQueryResult(api.explore.countExploreStreams, { count: 100, more: true }));
    expect(screen.getByText("100+ shows")).toBeInTheDocument();
    act(() => setQueryResult(api.explore.countExploreStreams, { count: 1, more: false }));
    expect(screen.getByText("1 show")).toBeInTheDocument();
  });

  test("the full list offers soonest or newest; the windows and replays do not", async () => {
    const { params, router, lastListArgs } = renderStreams("/explore/streams");
    act(() => setQueryResult(api.explore.listExploreStreams, [card("s1", "Card night")]));
    const sort = screen.getByRole("combobox", { name: "Sort by" });
    expect(sort).toHaveValue("soonest");
    // Said as what it is: by when shows were added, not by date (issue 41).
    expect(within(sort).getByRole("option", { name: "Recently added" })).toHaveValue("newest");
    await userEvent.selectOptions(sort, "Recently added");
    expect(params().get("sort")).toBe("newest");
    expect(lastListArgs()).toMatchObject({ view: { when: "upcoming", sort: "newest" } });
    expect(
      screen.getByText(
        "Shows on now first, then upcoming shows by when they were added, the latest first (not by date).",
      ),
    ).toBeInTheDocument();
    await act(() => router.navigate("/explore/streams?when=week&sort=newest"));
    expect(screen.queryByRole("combobox", { name: "Sort by" })).not.toBeInTheDocument();
    expect(lastListArgs()).toMatchObject({ view: { when: "week", sort: "soonest" } });
  });
});

describe("search results", () => {
  test("come from the search, with their count, a page at a time", async () => {
    renderStreams("/explore/streams?q=pokemon");
    expect(screen.getByRole("status", { name: "Searching shows" })).toBeInTheDocument();
    const results = Array.from({ length: 14 }, (_, index) => card(`s${index}`, `Break ${index}`));
    act(() => setQueryResult(api.explore.searchExploreStreams, { results, count: 14, more: false }));
    expect(screen.getByText("14 shows")).toBeInTheDocument();
    expect(within(screen.getByRole("list", { name: "Shows" })).getAllByRole("listitem")).toHaveLength(12);
    // Search ranks by relevance: no sort to choose.
    expect(screen.queryByRole("combobox", { name: "Sort by" })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Show more" }));
    expect(within(screen.getByRole("list", { name: "Shows" })).getAllByRole("listitem")).toHaveLength(14);
    expect(screen.getByText("That’s every show.")).toBeInTheDocument();
    expect(convexReactMock.useQuery).toHaveBeenCalledWith(api.explore.searchExploreStreams, {
      filter: { categories: [], subcategories: [], states: [], msas: [], q: "pokemon" },
      view: { when: "upcoming", sort: "soonest" },
    });
  });

  test("more matches than the search answers says so", () => {
    renderStreams("/explore/streams?q=s");
    const results = Array.from({ length: 5 }, (_, index) => card(`s${index}`, `Sale ${index}`));
    act(() => setQueryResult(api.explore.searchExploreStreams, { results, count: 50, more: true }));
    expect(screen.getByText("50+ shows")).toBeInTheDocument();
    expect(screen.getByText("These are the best matches. Add a word to narrow them.")).toBeInTheDocument();
  });
});
