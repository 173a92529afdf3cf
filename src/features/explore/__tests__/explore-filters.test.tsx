import { act, fireEvent, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, test, vi } from "vitest";
import { MenuStateProvider } from "@/components/layout/menu-state";
import { useMockConvexAuth } from "@/test/convex-auth-mock";
import { convexReactMock, resetConvexMock, setQueryResult } from "@/test/convex-mock";
import { renderInRouter } from "@/test/render-in-router";
import { WatchListProviders } from "@/components/watch-list/__tests__/watch-list-providers";
import { api } from "@convex/_generated/api";
import { TOO_MANY_MSAS_MESSAGE } from "@convex/lib/explore";
import { ExploreStreamsPage } from "../explore-streams-page";

vi.mock("convex/react", () => ({ ...convexReactMock, useConvexAuth: useMockConvexAuth }));
vi.mock("convex-helpers/react", () => ({ usePaginatedQuery: convexReactMock.usePaginatedQuery }));

beforeEach(resetConvexMock);

// Six Texas metro areas: Abilene, Amarillo, Austin, Beaumont, Brownsville, College Station.
const SIX_TEXAS_MSAS = ["10180", "11100", "12420", "13140", "15180", "17780"];

function renderExplore(at = "/explore/streams") {
  setQueryResult(api.explore.listExploreStreams, []);
  const router = renderInRouter(
    <WatchListProviders>
      <MenuStateProvider>
        <ExploreStreamsPage />
      </MenuStateProvider>
    </WatchListProviders>,
    { path: "/explore/streams", at },
  );
  const params = () => new URLSearchParams(router.state.location.search);
  return { router, params };
}

describe("explore filter panel", () => {
  test("adding a category selects all its subcategories and writes them to the URL", async () => {
    const { params } = renderExplore();
    await userEvent.click(screen.getByRole("checkbox", { name: "Fashion & Apparel" }));
    expect(params().getAll("category")).toEqual(["fashion_apparel"]);
    expect(params().getAll("subcategory")).toEqual([
      "clothing",
      "handbags_accessories",
      "jewelry_watches",
      "shoes",
    ]);
    await userEvent.click(screen.getByRole("button", { name: "Fashion & Apparel subcategories" }));
    expect(screen.getByRole("checkbox", { name: "Shoes" })).toBeChecked();
    expect(
      within(screen.getByRole("list", { name: "Applied filters" })).getByText("Fashion & Apparel"),
    ).toBeVisible();
  });

  test("deselecting one subcategory leaves the category partly selected and keeps the others", async () => {
    const { params } = renderExplore("/explore/streams?category=fashion_apparel");
    await userEvent.click(screen.getByRole("button", { name: "Fashion & Apparel subcategories" }));
    await userEvent.click(screen.getByRole("checkbox", { name: "Shoes" }));
    expect(params().getAll("category")).toEqual([]);
    expect(params().getAll("subcategory")).toEqual(["clothing", "handbags_accessories", "jewelry_watches"]);
    expect(screen.getByRole("checkbox", { name: "Fashion & Apparel" })).toBePartiallyChecked();
  });

  test("choosing a state lists its metro areas; removing the state drops them", async () => {
    const { params } = renderExplore();
    await userEvent.selectOptions(screen.getByRole("combobox", { name: "Add a state" }), "TX");
    expect(params().getAll("state")).toEqual(["TX"]);
    const texas = screen.getByRole("list", { name: "Metro areas in Texas" });
    await userEvent.click(within(texas).getByRole("checkbox", { name: "Austin-Round Rock-San Marcos, TX" }));
    expect(params().getAll("msa")).toEqual(["12420"]);
    await userEvent.click(screen.getByRole("button", { name: "Remove state Texas" }));
    expect(params().getAll("state")).toEqual([]);
    expect(params().getAll("msa")).toEqual([]);
  });

  test("a seventh metro area is refused with the limit message", async () => {
    const query = SIX_TEXAS_MSAS.map((code) => `msa=${code}`).join("&");
    const { params } = renderExplore(`/explore/streams?state=TX&${query}`);
    await userEvent.type(screen.getByRole("combobox", { name: "Find a metro area" }), "Dallas");
    await userEvent.click(screen.getByRole("option", { name: /Dallas/ }));
    expect(screen.getByRole("alert")).toHaveTextContent(TOO_MANY_MSAS_MESSAGE);
    expect(params().getAll("msa")).toEqual(SIX_TEXAS_MSAS);
    // Making room clears the message.
    await userEvent.click(screen.getByRole("button", { name: "Remove Abilene, TX" }));
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
    expect(params().getAll("msa")).toHaveLength(5);
  });

  test("chips remove one choice each, and Clear all removes every choice but the search text", async () => {
    const { params } = renderExplore("/explore/streams?category=collectibles&msa=12420&state=IL&q=cards");
    const chips = screen.getByRole("list", { name: "Applied filters" });
    expect(
      within(chips)
        .getAllByRole("listitem")
        .map((chip) => chip.textContent),
    ).toEqual(["Collectibles", "Illinois", "Austin-Round Rock-San Marcos, TX"]);
    await userEvent.click(screen.getByRole("button", { name: "Remove Collectibles" }));
    expect(params().getAll("category")).toEqual([]);
    expect(params().getAll("subcategory")).toEqual([]);
    await userEvent.click(screen.getByRole("button", { name: "Clear all" }));
    expect(params().toString()).toBe("q=cards");
    expect(screen.queryByRole("list", { name: "Applied filters" })).not.toBeInTheDocument();
  });

  test("search text reaches the URL once typing has paused for 300 ms", () => {
    // Fake timers, with fireEvent: user-event's waits are real timeouts, which fake timers never fire.
    vi.useFakeTimers();
    try {
      const { params } = renderExplore();
      const box = screen.getByRole("searchbox", { name: "Search shows" });
      fireEvent.change(box, { target: { value: "den" } });
      act(() => {
        vi.advanceTimersByTime(299);
      });
      fireEvent.change(box, { target: { value: "denim" } });
      act(() => {
        vi.advanceTimersByTime(299);
      });
      expect(params().get("q")).toBeNull();
      act(() => {
        vi.advanceTimersByTime(1);
      });
      expect(params().get("q")).toBe("denim");
    } finally {
      vi.useRealTimers();
    }
  });

  test("the list asks the server with the URL's filter; tabs keep the filter", () => {
    renderExplore("/explore/streams?state=TX");
    const [, args] = convexReactMock.usePaginatedQuery.mock.lastCall ?? [];
    expect(args).toEqual({
      filter: { categories: [], subcategories: [], states: ["TX"], msas: [] },
      view: { when: "upcoming", sort: "soonest" },
    });
    expect(screen.getByRole("link", { name: "Live shops" })).toHaveAttribute(
      "href",
      "/explore/live-shops?state=TX",
    );
  });
});

describe("explore results", () => {
  test("loading shows skeletons, then the cards with their badges", () => {
    renderInRouter(
      <WatchListProviders>
        <MenuStateProvider>
          <ExploreStreamsPage />
        </MenuStateProvider>
      </WatchListProviders>,
      { path: "/explore/streams" },
    );
    expect(screen.getByRole("status", { name: "Loading shows" })).toBeInTheDocument();
    act(() =>
      setQueryResult(api.explore.listExploreStreams, [
        {
          _id: "s1",
          streamTitle: "Vintage 501 denim drop",
          streamStatus: "LIVE",
          liveShopName: "East Austin Denim Co.",
          liveShopSlug: "east-austin-denim-co",
          timezone: "America/Chicago",
        },
      ]),
    );
    const shows = screen.getByRole("list", { name: "Shows" });
    expect(within(shows).getByRole("heading", { name: "Vintage 501 denim drop" })).toBeInTheDocument();
    expect(within(shows).getByText("Live")).toBeInTheDocument();
  });

  test("nothing matching says so and offers to clear the filters, keeping the view", async () => {
    setQueryResult(api.explore.searchExploreStreams, { results: [], count: 0, more: false });
    const { params } = renderExplore("/explore/streams?category=toys_kids&q=zebra&when=live");
    expect(
      screen.getByText("No shows are live right now that match “zebra” and your filters."),
    ).toBeInTheDocument();
    expect(screen.getByText("0 shows")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Clear filters" }));
    expect(params().toString()).toBe("when=live");
  });
});
