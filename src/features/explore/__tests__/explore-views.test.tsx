import { act, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { FunctionReference } from "convex/server";
import { getFunctionName } from "convex/server";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import type { Id } from "@convex/_generated/dataModel";
import { insertStream } from "@convex/model/streams";
import { MenuStateProvider } from "@/components/layout/menu-state";
import { convexBackend } from "@/test/convex-backend";
import { seedShop } from "@/test/convex-seed";
import { renderInRouter } from "@/test/render-in-router";
import { WatchListProviders } from "@/components/watch-list/__tests__/watch-list-providers";
import { ViewerTimeZoneProvider } from "@/lib/viewer-time-zone";
import { ExploreStreamsPage } from "../explore-streams-page";

// Nobody signed in: explore is public.
const convex = convexBackend();

/** Friday 20 November 2026, 23:30 in Los Angeles: already Saturday the 21st in Berlin. */
const NOW = Date.UTC(2026, 10, 21, 7, 30);

let shop: Id<"liveShops"> | undefined;

/** The arguments of every query the page subscribes to (pagination left out), by function name. */
let watched: { name: string; args: Record<string, unknown> }[];

beforeEach(() => {
  // Only Date: the page and the functions (in this process) read the same "now".
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(NOW);
  watched = [];
  shop = undefined;
  const watch = convex.client.watchQuery.bind(convex.client);
  vi.spyOn(convex.client, "watchQuery").mockImplementation(((
    ref: FunctionReference<"query">,
    ...rest: [Record<string, unknown>?, ...unknown[]]
  ) => {
    const { paginationOpts: _pages, ...args } = rest[0] ?? {};
    watched.push({ name: getFunctionName(ref), args });
    return watch(ref, ...(rest as []));
  }) as never);
});
afterEach(() => vi.useRealTimers());

/** The latest arguments the page subscribed to `name` with. */
function lastArgs(name: string) {
  return watched.filter((query) => query.name === name).at(-1)?.args;
}

/** Shows of Windy City Card Breaks, an hour after NOW unless told. */
async function seedShows(titles: string[], streamStartUTC = NOW + 3_600_000) {
  shop ??= await seedShop(convex, await convex.addUser("seller"), {
    liveShopName: "Windy City Card Breaks",
    timezone: "America/Chicago",
    cbsaCodes: ["16980"],
  });
  const liveShopId = shop;
  await convex.run(async (ctx) => {
    for (const streamTitle of titles) {
      await insertStream(ctx, { liveShopId, streamTitle, streamStatus: "SCHEDULED", streamStartUTC });
    }
  });
}

function renderStreams(at: string, timeZone = "America/Los_Angeles") {
  const router = renderInRouter(
    <convex.wrapper>
      <ViewerTimeZoneProvider timeZone={timeZone}>
        <WatchListProviders>
          <MenuStateProvider>
            <ExploreStreamsPage />
          </MenuStateProvider>
        </WatchListProviders>
      </ViewerTimeZoneProvider>
    </convex.wrapper>,
    { path: "/explore/streams", at },
  );
  const params = () => new URLSearchParams(router.state.location.search);
  const lastListArgs = () => lastArgs("explore:listExploreStreams");
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
  test("the number of results shows above them; past the count's limit with a plus", async () => {
    await seedShows(["Card night"]);
    renderStreams("/explore/streams");
    expect(await screen.findByText("1 show")).toBeInTheDocument();
    await seedShows(["Box break"]);
    expect(await screen.findByText("2 shows")).toBeInTheDocument();
    await seedShows(Array.from({ length: 99 }, (_, index) => `Break ${index}`));
    expect(await screen.findByText("100+ shows")).toBeInTheDocument();
    // Seeding 101 shows through the write triggers is most of its time.
  }, 60_000);

  test("the full list offers soonest or newest; the windows and replays do not", async () => {
    await seedShows(["Card night"]);
    const { params, router, lastListArgs } = renderStreams("/explore/streams");
    const sort = await screen.findByRole("combobox", { name: "Sort by" });
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
    await seedShows(Array.from({ length: 14 }, (_, index) => `Pokemon break ${index}`));
    renderStreams("/explore/streams?q=pokemon");
    expect(screen.getByRole("status", { name: "Searching shows" })).toBeInTheDocument();
    expect(await screen.findByText("14 shows")).toBeInTheDocument();
    expect(within(screen.getByRole("list", { name: "Shows" })).getAllByRole("listitem")).toHaveLength(12);
    // Search ranks by relevance: no sort to choose.
    expect(screen.queryByRole("combobox", { name: "Sort by" })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Show more" }));
    expect(within(screen.getByRole("list", { name: "Shows" })).getAllByRole("listitem")).toHaveLength(14);
    expect(screen.getByText("That’s every show.")).toBeInTheDocument();
    expect(lastArgs("explore:searchExploreStreams")).toEqual({
      filter: { categories: [], subcategories: [], states: [], msas: [], q: "pokemon" },
      view: { when: "upcoming", sort: "soonest" },
    });
  });

  test("more matches than the search answers says so", async () => {
    // One more than a search reads of upcoming shows (SEARCH_CANDIDATES): it says there may be more.
    await seedShows(Array.from({ length: 41 }, (_, index) => `Sale ${index}`));
    renderStreams("/explore/streams?q=sale");
    expect(await screen.findByText("40+ shows")).toBeInTheDocument();
    // Said below the last of them.
    for (let more = screen.queryByRole("button", { name: "Show more" }); more;) {
      await userEvent.click(more);
      more = screen.queryByRole("button", { name: "Show more" });
    }
    expect(screen.getByText("These are the best matches. Add a word to narrow them.")).toBeInTheDocument();
    // Seeding 41 shows through the write triggers is most of its time.
  }, 60_000);
});
