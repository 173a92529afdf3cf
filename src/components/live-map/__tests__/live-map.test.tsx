import { act, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { afterEach, expect, test, vi } from "vitest";
import type { Id } from "@convex/_generated/dataModel";
import { convexBackend } from "@/test/convex-backend";
import { seedShop, seedStream } from "@/test/convex-seed";
import { ViewerTimeZoneProvider } from "@/lib/viewer-time-zone";
import { MSAS } from "@convex/lib/data/msas";
import { cardPlace, FIRST_AREAS } from "../live-map";
import { areaExploreHref, LiveMapSection } from "../live-map-section";
import { MAP_HEIGHT } from "../us-map-geometry";

const convex = convexBackend();

/** Sat, Nov 21 2026, noon in Chicago and Austin. */
const NOW = Date.UTC(2026, 10, 21, 18, 0, 0);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const AUSTIN = "12420";
const CHICAGO = "16980";

afterEach(() => vi.useRealTimers());

async function eastsideDenim(): Promise<Id<"liveShops">> {
  const seller = await convex.addUser("seller");
  return await seedShop(convex, seller, { liveShopName: "Eastside Denim Co.", timezone: "America/Chicago" });
}

/** Austin: one show on now, one more today, two later this week. */
async function austinShows(shop: Id<"liveShops">) {
  const inAustin = { cbsaCodes: [AUSTIN] };
  await seedStream(convex, shop, {
    ...inAustin,
    streamTitle: "501 night",
    streamStatus: "LIVE",
    streamStartUTC: NOW - 600_000,
  });
  await seedStream(convex, shop, {
    ...inAustin,
    streamTitle: "Western wear",
    streamStartUTC: NOW + 2 * HOUR,
  });
  await seedStream(convex, shop, { ...inAustin, streamTitle: "Boot fitting", streamStartUTC: NOW + 2 * DAY });
  await seedStream(convex, shop, { ...inAustin, streamTitle: "Denim repair", streamStartUTC: NOW + 3 * DAY });
}

/** Chicago: one show this week, none today. */
async function chicagoShow(shop: Id<"liveShops">) {
  await seedStream(convex, shop, {
    cbsaCodes: [CHICAGO],
    streamTitle: "Card breaks",
    streamStartUTC: NOW + DAY,
  });
}

/** The page's clock (and the backend's, in this process) at NOW; timers run. */
function atNow() {
  vi.useFakeTimers({ now: NOW, toFake: ["Date"] });
}

function renderMap(timeZone = "America/Chicago") {
  const router = createMemoryRouter(
    [
      {
        path: "/",
        element: (
          <convex.wrapper>
            <ViewerTimeZoneProvider timeZone={timeZone}>
              <LiveMapSection hrefFor={(code) => areaExploreHref(code)} />
            </ViewerTimeZoneProvider>
          </convex.wrapper>
        ),
      },
      { path: "/explore/streams", element: <p>Explore page</p> },
    ],
    { initialEntries: ["/"] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

test("lists each area with its counts and next shows, the same as the map draws", async () => {
  const shop = await eastsideDenim();
  await austinShows(shop);
  await chicagoShow(shop);
  atNow();
  renderMap();
  const list = await screen.findByRole("list", { name: "Metro areas with shows" });
  const [austin, chicago] = within(list).getAllByRole("link");
  expect(austin).toHaveAccessibleName(/Austin-Round Rock-San Marcos, TX.*1 live now · 2 today · 4 this week/);
  expect(austin).toHaveTextContent("Live: 501 night (Eastside Denim Co.)");
  expect(austin).toHaveAttribute("href", `/explore/streams?msa=${AUSTIN}`);
  expect(chicago).toHaveTextContent("1 this week");
  expect(screen.getByText("1 area is live now; 2 areas have shows this week.")).toBeInTheDocument();
  const map = screen.getByTestId("live-map");
  expect(map.querySelectorAll("[data-area]")).toHaveLength(2);
  expect(map.querySelectorAll("[data-live]")).toHaveLength(1);
});

test("focusing an area in the list shows its next shows on the map", async () => {
  const shop = await eastsideDenim();
  await austinShows(shop);
  await chicagoShow(shop);
  atNow();
  renderMap();
  const list = await screen.findByRole("list", { name: "Metro areas with shows" });
  const user = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
  await user.tab();
  expect(within(list).getAllByRole("link")[0]).toHaveFocus();
  // The card over the map is for the eye; the focused link already says the same.
  const card = screen.getAllByText("Austin-Round Rock-San Marcos, TX").find((node) => !list.contains(node));
  expect(card).toBeDefined();
  expect(card?.parentElement).toHaveTextContent("Western wear");
});

test("clicking an area on the map opens explore filtered to it", async () => {
  const shop = await eastsideDenim();
  await austinShows(shop);
  await chicagoShow(shop);
  atNow();
  const router = renderMap();
  await screen.findByRole("list", { name: "Metro areas with shows" });
  const dot = screen.getByTestId("live-map").querySelector(`[data-area="${CHICAGO}"]`);
  await act(async () => {
    dot?.dispatchEvent(new MouseEvent("click", { bubbles: true }));
    await Promise.resolve();
  });
  expect(router.state.location.pathname + router.state.location.search).toBe(
    `/explore/streams?msa=${CHICAGO}`,
  );
});

test("changes as the subscription answers anew, without reload", async () => {
  const shop = await eastsideDenim();
  await chicagoShow(shop);
  atNow();
  renderMap();
  await screen.findByText("0 areas are live now; 1 area has shows this week.");
  await austinShows(shop);
  expect(await screen.findByText("1 area is live now; 2 areas have shows this week.")).toBeInTheDocument();
  expect(screen.getByTestId("live-map").querySelectorAll("[data-live]")).toHaveLength(1);
});

test("says when no area has shows", async () => {
  atNow();
  renderMap();
  expect(await screen.findByText("No shows on now or this week yet. Check back soon.")).toBeInTheDocument();
});

test("a query the server refuses is said in its words, the page goes on", async () => {
  vi.spyOn(console, "error").mockImplementation(() => undefined);
  // A zone the browser cannot read gives no calendar day, which the server refuses.
  renderMap("Mars/Olympus_Mons");
  expect(await screen.findByRole("alert")).toHaveTextContent(
    "Today, this weekend and the next 7 days need your calendar day (yyyy-mm-dd).",
  );
});

test("keeps explore's categories and view when an area is chosen there", () => {
  const href = areaExploreHref(AUSTIN, {
    filter: { categories: ["collectibles"], subcategories: [], states: ["IL"], msas: [CHICAGO], q: "cards" },
    view: { when: "today" },
  });
  const url = new URL(href, "https://example.test");
  expect(url.pathname).toBe("/explore/streams");
  expect(url.searchParams.getAll("msa")).toEqual([AUSTIN]);
  expect(url.searchParams.getAll("state")).toEqual([]);
  expect(url.searchParams.get("category")).toBe("collectibles");
  expect(url.searchParams.get("q")).toBe("cards");
  expect(url.searchParams.get("when")).toBe("today");
});

test("lists the busiest areas first and the rest behind “Show all”, so a phone's page goes on below", async () => {
  const shop = await eastsideDenim();
  await austinShows(shop);
  // One show linked to nine more areas (a show may name up to 10): ten areas in all.
  const others = MSAS.filter((msa) => msa.cbsaCode !== AUSTIN)
    .slice(0, 9)
    .map((msa) => msa.cbsaCode);
  await seedStream(convex, shop, { cbsaCodes: others, streamTitle: "Road trip", streamStartUTC: NOW + DAY });
  atNow();
  renderMap();
  const list = await screen.findByRole("list", { name: "Metro areas with shows" });
  expect(within(list).getAllByRole("link")).toHaveLength(FIRST_AREAS);
  expect(within(list).getAllByRole("link")[0]).toHaveAccessibleName(/Austin/);
  const more = screen.getByRole("button", { name: "Show all 10 areas" });
  expect(more).toHaveAttribute("aria-expanded", "false");
  const user = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
  await user.click(more);
  expect(within(list).getAllByRole("link")).toHaveLength(10);
  expect(more).toHaveAttribute("aria-expanded", "true");
  expect(more).toHaveTextContent(`Show the first ${FIRST_AREAS} areas`);
  // The map draws every area whatever the list shows.
  expect(screen.getByTestId("live-map").querySelectorAll("[data-area]")).toHaveLength(10);
});

test("an area's card stays on the map: moved in from the edges, and over a dot in the lower half", () => {
  const west = cardPlace(20, 100, 5);
  expect(west.left).toBe("clamp(min(8rem, 50%), 2.05%, calc(100% - min(8rem, 50%)))");
  expect(west.top).toBe(`${(((100 + 5 + 6) / MAP_HEIGHT) * 100).toFixed(2)}%`);
  expect(west.bottom).toBeUndefined();
  const south = cardPlace(500, MAP_HEIGHT - 60, 8);
  expect(south.top).toBeUndefined();
  expect(south.bottom).toBe(`${(((60 + 8 + 6) / MAP_HEIGHT) * 100).toFixed(2)}%`);
});

test("a map not to be drawn yet (explore on a phone) keeps its place and asks nothing until it is", async () => {
  const shop = await eastsideDenim();
  await austinShows(shop);
  atNow();
  function Two({ load }: { load: boolean }) {
    return (
      <convex.wrapper>
        <ViewerTimeZoneProvider timeZone="America/Chicago">
          <section aria-label="drawn">
            <LiveMapSection hrefFor={(code) => areaExploreHref(code)} />
          </section>
          <section aria-label="waiting">
            <LiveMapSection hrefFor={(code) => areaExploreHref(code)} load={load} />
          </section>
        </ViewerTimeZoneProvider>
      </convex.wrapper>
    );
  }
  const router = createMemoryRouter([{ path: "/", element: <Two load={false} /> }], {
    initialEntries: ["/"],
  });
  const { rerender } = render(<RouterProvider router={router} />);
  // Both painted in the same frame: the drawn one has its list, the waiting one only its place, which
  // says nothing is loading (nothing is).
  await within(screen.getByRole("region", { name: "drawn" })).findByRole("list", {
    name: "Metro areas with shows",
  });
  const waiting = screen.getByRole("region", { name: "waiting" });
  expect(within(waiting).queryByLabelText("Loading the map of shows")).not.toBeInTheDocument();
  expect(waiting.querySelector('[aria-busy="true"]')).toBeNull();
  expect(within(waiting).queryByRole("list")).not.toBeInTheDocument();

  const shown = createMemoryRouter([{ path: "/", element: <Two load /> }], { initialEntries: ["/"] });
  rerender(<RouterProvider router={shown} />);
  expect(
    await within(screen.getByRole("region", { name: "waiting" })).findByRole("list", {
      name: "Metro areas with shows",
    }),
  ).toBeInTheDocument();
});
