import { act, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { ConvexError } from "convex/values";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { afterEach, beforeEach, expect, test, vi } from "vitest";
import { api } from "@convex/_generated/api";
import { convexReactMock, resetConvexMock, setQueryResult } from "@/test/convex-mock";
import { ViewerTimeZoneProvider } from "@/lib/viewer-time-zone";
import { areaExploreHref, LiveMapSection } from "../live-map-section";

vi.mock("convex/react", () => convexReactMock);

const NOW = Date.UTC(2026, 10, 21, 18, 0, 0);
const AUSTIN = "12420";
const CHICAGO = "16980";

const show = (id: string, streamTitle: string, streamStatus: "LIVE" | "SCHEDULED", start: number) => ({
  _id: id,
  streamTitle,
  streamStatus,
  liveShopName: "Eastside Denim Co.",
  streamStartUTC: start,
  timezone: "America/Chicago" as const,
});

const AREAS = [
  {
    cbsaCode: AUSTIN,
    onNow: 1,
    today: 2,
    week: 4,
    next: [
      show("a", "501 night", "LIVE", NOW - 600_000),
      show("b", "Western wear", "SCHEDULED", NOW + 2 * 3_600_000),
    ],
  },
  {
    cbsaCode: CHICAGO,
    onNow: 0,
    today: 0,
    week: 1,
    next: [show("c", "Card breaks", "SCHEDULED", NOW + 86_400_000)],
  },
];

beforeEach(() => {
  resetConvexMock();
  vi.useFakeTimers({ now: NOW, toFake: ["Date"] });
});
afterEach(() => {
  vi.useRealTimers();
  convexReactMock.useQuery.mockRestore?.();
});

function renderMap() {
  const router = createMemoryRouter(
    [
      {
        path: "/",
        element: (
          <ViewerTimeZoneProvider timeZone="America/Chicago">
            <LiveMapSection hrefFor={(code) => areaExploreHref(code)} />
          </ViewerTimeZoneProvider>
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
  setQueryResult(api.liveMap.listAreas, AREAS);
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
  setQueryResult(api.liveMap.listAreas, AREAS);
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
  setQueryResult(api.liveMap.listAreas, AREAS);
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
  setQueryResult(api.liveMap.listAreas, [AREAS[1]]);
  renderMap();
  await screen.findByText("0 areas are live now; 1 area has shows this week.");
  act(() => setQueryResult(api.liveMap.listAreas, AREAS));
  expect(screen.getByText("1 area is live now; 2 areas have shows this week.")).toBeInTheDocument();
  expect(screen.getByTestId("live-map").querySelectorAll("[data-live]")).toHaveLength(1);
});

test("says when no area has shows, and says a failure in words", async () => {
  setQueryResult(api.liveMap.listAreas, []);
  renderMap();
  expect(await screen.findByText("No shows on now or this week yet. Check back soon.")).toBeInTheDocument();
});

test("a query the server refuses is said in its words, the page goes on", async () => {
  vi.spyOn(console, "error").mockImplementation(() => undefined);
  convexReactMock.useQuery.mockImplementation(() => {
    throw new ConvexError({
      code: "INVALID_ARGUMENT",
      message: "Today, this weekend and the next 7 days need your time zone.",
    });
  });
  renderMap();
  expect(await screen.findByRole("alert")).toHaveTextContent("need your time zone");
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
