import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, test, vi } from "vitest";
import { MenuStateProvider } from "@/components/layout/menu-state";
import { convexBackend } from "@/test/convex-backend";
import { seedShop, seedStream } from "@/test/convex-seed";
import { renderInRouter } from "@/test/render-in-router";
import { WatchListProviders } from "@/components/watch-list/__tests__/watch-list-providers";
import { TOO_MANY_MSAS_MESSAGE } from "@convex/lib/explore";
import { ExploreStreamsPage } from "../explore-streams-page";

// Nobody signed in: explore is public. No shows unless a test seeds them.
const convex = convexBackend();

// Six Texas metro areas: Abilene, Amarillo, Austin, Beaumont, Brownsville, College Station.
const SIX_TEXAS_MSAS = ["10180", "11100", "12420", "13140", "15180", "17780"];

function renderExplore(at = "/explore/streams") {
  const router = renderInRouter(
    <convex.wrapper>
      <WatchListProviders>
        <MenuStateProvider>
          <ExploreStreamsPage />
        </MenuStateProvider>
      </WatchListProviders>
    </convex.wrapper>,
    { path: "/explore/streams", at },
  );
  const params = () => new URLSearchParams(router.state.location.search);
  return { router, params };
}

/** The shows' titles the list shows (throws while it has none). */
function listedShows(): string[] {
  return within(screen.getByRole("list", { name: "Shows" }))
    .getAllByRole("heading")
    .map((heading) => heading.textContent ?? "");
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

  test("search text reaches the URL once typing has paused for 300 ms", async () => {
    const { params } = renderExplore();
    // The page has its first answer before the clock is faked: the fake covers the typing alone.
    expect(await screen.findByText(/No live or upcoming shows/)).toBeInTheDocument();
    // Fake timers, with fireEvent: user-event's waits are real timeouts, which fake timers never fire.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
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
      // Whatever the client set going meanwhile runs now, before the real clock is back.
      act(() => {
        vi.runOnlyPendingTimers();
      });
    } finally {
      vi.useRealTimers();
    }
  });

  test("the list asks the server with the URL's filter; tabs keep the filter", async () => {
    const seller = await convex.addUser("seller");
    const austin = await seedShop(convex, seller, {
      liveShopName: "East Austin Denim Co.",
      cbsaCodes: ["12420"],
    });
    const other = await convex.addUser("seller", { key: "seller2" });
    const chicago = await seedShop(convex, other, { liveShopName: "Windy City Cards", cbsaCodes: ["16980"] });
    await seedStream(convex, chicago, {
      streamTitle: "Illinois cards",
      streamStartUTC: Date.now() + 3_600_000,
      cbsaCodes: ["16980"],
    });
    await seedStream(convex, austin, {
      streamTitle: "Austin boots",
      streamStartUTC: Date.now() + 7_200_000,
      cbsaCodes: ["12420"],
    });
    renderExplore("/explore/streams?state=TX");
    // Only Texas' shows: the server answered the filter in the address.
    await waitFor(() => expect(listedShows()).toEqual(["Austin boots"]));
    expect(screen.getByRole("link", { name: "Live shops" })).toHaveAttribute(
      "href",
      "/explore/live-shops?state=TX",
    );
  });
});

describe("explore results", () => {
  test("loading shows skeletons, then the cards with their badges", async () => {
    const seller = await convex.addUser("seller");
    const shop = await seedShop(convex, seller, {
      liveShopName: "East Austin Denim Co.",
      timezone: "America/Chicago",
      cbsaCodes: ["12420"],
    });
    await seedStream(convex, shop, {
      streamTitle: "Vintage 501 denim drop",
      streamStatus: "LIVE",
      streamStartUTC: Date.now(),
      cbsaCodes: ["12420"],
    });
    renderExplore();
    expect(screen.getByRole("status", { name: "Loading shows" })).toBeInTheDocument();
    const shows = await screen.findByRole("list", { name: "Shows" });
    expect(within(shows).getByRole("heading", { name: "Vintage 501 denim drop" })).toBeInTheDocument();
    expect(within(shows).getByText("Live")).toBeInTheDocument();
  });

  test("nothing matching says so and offers to clear the filters, keeping the view", async () => {
    const { params } = renderExplore("/explore/streams?category=toys_kids&q=zebra&when=live");
    expect(
      await screen.findByText("No shows are live right now that match “zebra” and your filters."),
    ).toBeInTheDocument();
    expect(screen.getByText("0 shows")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Clear filters" }));
    expect(params().toString()).toBe("when=live");
  });
});
