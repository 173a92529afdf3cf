import { act, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { ConvexError } from "convex/values";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
// The mocks first: the components below import "convex/react", whose mock factory reads them.
import { setConvexAuth, useMockConvexAuth } from "@/test/convex-auth-mock";
import {
  convexReactMock,
  mutationCalls,
  mutationImpl,
  resetConvexMock,
  setQueryResult,
} from "@/test/convex-mock";
import { NoticesProvider } from "@/components/notices/notices";
import { WatchListProvider } from "@/components/watch-list/watch-list-state";
import { downloadIcs } from "@/lib/ics-download";
import { ViewerTimeZoneProvider } from "@/lib/viewer-time-zone";
import { renderInRouter } from "@/test/render-in-router";
import { api } from "@convex/_generated/api";
import { icsFileName } from "@convex/lib/ics";
import { WatchListPage } from "../watch-list-page";
import { emptyWatchList, fullWatchList, HOUR, MINUTE, NOW, watchStream } from "./fixtures";

vi.mock("convex/react", () => ({ ...convexReactMock, useConvexAuth: useMockConvexAuth }));
vi.mock("@/lib/ics-download", () => ({ downloadIcs: vi.fn() }));
vi.mock("@/lib/convex-site", () => ({ convexSiteUrl: () => "https://site.example" }));

/** The viewer is in Los Angeles; the fixture's shops are elsewhere. */
function renderPage() {
  return renderInRouter(
    <ViewerTimeZoneProvider timeZone="America/Los_Angeles">
      <NoticesProvider>
        <WatchListProvider>
          <WatchListPage />
        </WatchListProvider>
      </NoticesProvider>
    </ViewerTimeZoneProvider>,
    { path: "/watch-list" },
  );
}

const region = (name: string) => screen.getByRole("region", { name });
/** The section's cards, each with what is said around it. */
const items = (name: string) => Array.from(within(region(name)).getAllByRole("list")[0].children);
const cardTitles = (name: string) =>
  within(region(name))
    .queryAllByRole("heading", { level: 3 })
    .map((heading) => heading.textContent);

beforeEach(() => {
  resetConvexMock();
  vi.mocked(downloadIcs).mockClear();
  setConvexAuth("signedIn");
  setQueryResult(api.watchList.mySaved, { streamIds: [], liveShopIds: [] });
  setQueryResult(api.calendarFeed.myFeed, { token: null, createdAt: null });
  vi.useFakeTimers({ now: NOW, toFake: ["Date", "setInterval", "clearInterval"] });
});

afterEach(() => {
  vi.useRealTimers();
});

describe("the watch list page", () => {
  test("shows its sections in order, each from the list, with the counts against the limits", () => {
    setQueryResult(api.watchList.myWatchList, fullWatchList());
    renderPage();
    expect(document.title).toBe("Watch list · LiveLocal");
    expect(screen.getByRole("heading", { level: 1, name: "Your watch list" })).toBeInTheDocument();
    expect(screen.getByText("6 of 100 shows saved · 3 of 100 shops followed")).toBeInTheDocument();
    // The page's regions (the notices' corner has no id), in reading order.
    const regions = screen.getAllByRole("region").filter((section) => section.id);
    expect(regions.map((section) => section.id)).toEqual([
      "live",
      "upcoming",
      "shops",
      "ended",
      "calendar-feed",
    ]);

    expect(cardTitles("Live now")).toEqual(["Card breaks", "Denim drop"]);
    const live = items("Live now");
    expect(live[0]).toHaveTextContent("A show you saved");
    expect(live[1]).toHaveTextContent("From a shop you follow");

    expect(cardTitles("Coming up")).toEqual(["Lego, sets & minifigs", "Rare plants"]);
    expect(cardTitles("Shops you follow")).toEqual(["Green Corner", "Pilsen Vintage", "Quiet Books"]);
    expect(cardTitles("Ended")).toEqual(["Comic haul", "Quilt show", "Rained out market"]);
    expect(screen.queryByText(/no longer public/)).not.toBeInTheDocument();
  });

  test("each followed shop says what its next show is, linking to it", () => {
    setQueryResult(api.watchList.myWatchList, fullWatchList());
    renderPage();
    const [green, pilsen, quiet] = items("Shops you follow") as HTMLElement[];
    // In the viewer's zone (issue 17 item 3): the Chicago shop's 8:00 AM is 6:00 AM in Los Angeles.
    expect(green).toHaveTextContent("Next: Rare plants, Sun, Nov 22, 6:00 AM PST");
    expect(within(green).getByRole("link", { name: "Rare plants" })).toHaveAttribute(
      "href",
      "/stream/s-plants",
    );
    expect(pilsen).toHaveTextContent("Live now: Denim drop");
    expect(within(pilsen).getByRole("link", { name: "Denim drop" })).toHaveAttribute(
      "href",
      "/stream/s-denim",
    );
    expect(quiet).toHaveTextContent("No show planned");
  });

  test("counts down to each upcoming show, then says it is starting, then that it runs late", () => {
    setQueryResult(
      api.watchList.myWatchList,
      fullWatchList({
        upcoming: [
          watchStream("s-soon", { streamTitle: "Soon", streamStartUTC: NOW + 45_000 }),
          watchStream("s-later", { streamTitle: "Later", streamStartUTC: NOW + 2 * HOUR + 5 * MINUTE }),
          watchStream("s-days", { streamTitle: "Days", streamStartUTC: NOW + 2 * 24 * HOUR + 3 * HOUR }),
        ],
      }),
    );
    renderPage();
    const upcoming = () => items("Coming up");
    expect(upcoming()[0]).toHaveTextContent("Starts in under a minute");
    expect(upcoming()[1]).toHaveTextContent("Starts in 2 h 5 min");
    expect(upcoming()[2]).toHaveTextContent("Starts in 2 d 3 h");

    act(() => {
      vi.advanceTimersByTime(60_000);
    });
    expect(upcoming()[0]).toHaveTextContent("Starting now");
    expect(upcoming()[1]).toHaveTextContent("Starts in 2 h 4 min");

    act(() => {
      vi.advanceTimersByTime(16 * MINUTE);
    });
    expect(upcoming()[0]).toHaveTextContent("Running late");
  });

  test("a saved show whose stored time no date can show has no countdown and no calendar button", () => {
    setQueryResult(
      api.watchList.myWatchList,
      fullWatchList({
        upcoming: [
          watchStream("s-bad", { streamTitle: "Far future", streamStartUTC: 8.64e15 + 10 }),
          watchStream("s-soon", { streamTitle: "Soon", streamStartUTC: NOW + 2 * HOUR }),
        ],
      }),
    );
    renderPage();
    expect(items("Coming up")[0]).toHaveTextContent("Start time to be announced");
    expect(items("Coming up")[1]).toHaveTextContent("Starts in 2 h");
    expect(screen.queryByRole("button", { name: "Add to calendar: Far future" })).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Add to calendar: Soon" })).toBeInTheDocument();
  });

  test("adds one show, or every upcoming show in one file, to a calendar", async () => {
    vi.useRealTimers();
    setQueryResult(api.watchList.myWatchList, fullWatchList());
    renderPage();
    const user = userEvent.setup();

    await user.click(screen.getByRole("button", { name: "Add to calendar: Lego, sets & minifigs" }));
    expect(downloadIcs).toHaveBeenCalledTimes(1);
    const [oneName, one] = vi.mocked(downloadIcs).mock.calls[0];
    expect(oneName).toBe(icsFileName("Lego, sets & minifigs"));
    expect(one.match(/BEGIN:VEVENT/g)).toHaveLength(1);
    expect(one).toContain("SUMMARY:Lego\\, sets & minifigs");
    expect(one).toContain(`URL:${window.location.origin}/stream/s-lego`);

    await user.click(screen.getByRole("button", { name: "Add all to calendar" }));
    expect(downloadIcs).toHaveBeenCalledTimes(2);
    const [allName, all] = vi.mocked(downloadIcs).mock.calls[1];
    expect(allName).toBe("livelocal-watch-list.ics");
    expect(all.match(/BEGIN:VCALENDAR/g)).toHaveLength(1);
    expect(all.match(/BEGIN:VEVENT/g)).toHaveLength(2);
    expect(all).toContain("UID:s-lego@livelocal");
    expect(all).toContain("UID:s-plants@livelocal");
    expect(all).toContain("X-WR-CALNAME:LiveLocal watch list");
    // Live and ended shows are not "coming up".
    expect(all).not.toContain("Card breaks");
    expect(all).not.toContain("Comic haul");
  });

  test("ended shows link to their replay, or say there is none yet or that they were cancelled", () => {
    setQueryResult(api.watchList.myWatchList, fullWatchList());
    renderPage();
    const [comics, quilts, rain] = items("Ended") as HTMLElement[];
    const replay = within(comics).getByRole("link", { name: "Watch the replay: Comic haul" });
    expect(replay).toHaveAttribute("href", "https://video.example/replays/comic-haul");
    expect(replay).toHaveAttribute("target", "_blank");
    expect(quilts).toHaveTextContent("No replay yet");
    expect(within(quilts).queryByRole("link", { name: /replay/ })).not.toBeInTheDocument();
    expect(rain).toHaveTextContent("Cancelled");
    expect(rain).not.toHaveTextContent("No replay yet");
  });

  test("empty sections say what would be there and where to find some", () => {
    setQueryResult(api.watchList.myWatchList, emptyWatchList());
    renderPage();
    expect(screen.getByText("0 of 100 shows saved · 0 of 100 shops followed")).toBeInTheDocument();
    expect(within(region("Live now")).getByRole("link", { name: "See who is live" })).toHaveAttribute(
      "href",
      "/explore/streams?when=live",
    );
    expect(within(region("Coming up")).getByText(/No upcoming shows saved yet/)).toBeInTheDocument();
    expect(within(region("Coming up")).queryByRole("button", { name: "Add all to calendar" })).toBeNull();
    expect(
      within(region("Shops you follow")).getByRole("link", { name: "Browse live shops" }),
    ).toHaveAttribute("href", "/explore/live-shops");
    expect(within(region("Ended")).getByText(/after they end/)).toBeInTheDocument();
  });

  test("says when a limit is reached", () => {
    setQueryResult(
      api.watchList.myWatchList,
      fullWatchList({ counts: { savedStreams: 100, followedShops: 3 } }),
    );
    renderPage();
    expect(screen.getByText("100 of 100 shows saved · 3 of 100 shops followed")).toBeInTheDocument();
    expect(screen.getByText(/Your watch list is full/)).toBeInTheDocument();
    expect(screen.queryByText(/You follow the most shops you can/)).not.toBeInTheDocument();
  });

  test("updates live: a show that goes live moves from Coming up to Live now", () => {
    const list = fullWatchList();
    setQueryResult(api.watchList.myWatchList, list);
    renderPage();
    expect(cardTitles("Coming up")).toContain("Lego, sets & minifigs");
    const [lego, plants] = list.upcoming;
    act(() =>
      setQueryResult(api.watchList.myWatchList, {
        ...list,
        live: [{ ...lego, streamStatus: "LIVE" }, ...list.live],
        upcoming: [plants],
      }),
    );
    expect(cardTitles("Live now")).toEqual(["Lego, sets & minifigs", "Card breaks", "Denim drop"]);
    expect(cardTitles("Coming up")).toEqual(["Rare plants"]);
  });
});

describe("saved items no longer public", () => {
  const unavailable = {
    streamIds: ["s-gone"] as never[],
    liveShopIds: ["l-gone"] as never[],
    shops: [],
  };

  test("are counted, and removed with one button", async () => {
    vi.useRealTimers();
    setQueryResult(api.watchList.myWatchList, fullWatchList({ unavailable }));
    renderPage();
    expect(screen.getByText("2 saved items are no longer public")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Remove them" }));
    expect(mutationCalls).toEqual([
      { name: "watchList:setStreamSaved", args: { streamId: "s-gone", saved: false } },
      { name: "watchList:setShopFollowed", args: { liveShopId: "l-gone", followed: false } },
    ]);
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });

  test("a failure is said in words", async () => {
    vi.useRealTimers();
    mutationImpl.current = (name) =>
      name === "watchList:setShopFollowed"
        ? Promise.reject(new ConvexError({ code: "UNAUTHENTICATED", message: "Sign in again to continue." }))
        : Promise.resolve(null);
    setQueryResult(api.watchList.myWatchList, fullWatchList({ unavailable }));
    renderPage();
    await userEvent.click(screen.getByRole("button", { name: "Remove them" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Sign in again to continue.");
    expect(screen.getByRole("button", { name: "Remove them" })).toBeEnabled();
  });

  test("one item reads in the singular; none shows no notice", () => {
    setQueryResult(
      api.watchList.myWatchList,
      fullWatchList({ unavailable: { streamIds: ["s-gone"] as never[], liveShopIds: [], shops: [] } }),
    );
    renderPage();
    expect(screen.getByText("1 saved item is no longer public")).toBeInTheDocument();
  });

  test("a shop that closed or was taken off is named, with what of yours went with it", () => {
    setQueryResult(
      api.watchList.myWatchList,
      fullWatchList({
        unavailable: {
          streamIds: ["s-knits", "s-knits2", "s-pots"] as never[],
          liveShopIds: ["l-knits"] as never[],
          shops: [
            {
              liveShopId: "l-knits" as never,
              liveShopName: "Nora's Neon Knits",
              closed: true,
              followed: true,
              savedShows: 2,
            },
            {
              liveShopId: "l-pots" as never,
              liveShopName: "Pot Luck",
              closed: false,
              followed: false,
              savedShows: 1,
            },
          ],
        },
      }),
    );
    renderPage();
    expect(screen.getByText("4 saved items are no longer public")).toBeInTheDocument();
    const shops = within(screen.getByRole("list", { name: "Shops that left" }));
    expect(shops.getAllByRole("listitem").map((item) => item.textContent)).toEqual([
      "Nora's Neon Knits closed its shop: your follow and 2 saved shows went with it.",
      "Pot Luck is off LiveLocal for now: 1 saved show went with it.",
    ]);
  });
});

describe("signed out and loading", () => {
  test("signed out, it asks to sign in and come back here", () => {
    setConvexAuth("signedOut");
    setQueryResult(api.watchList.myWatchList, null);
    renderPage();
    expect(screen.getByRole("heading", { level: 1, name: "Your watch list" })).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "Sign in to keep a watch list" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Sign in" })).toHaveAttribute(
      "href",
      "/sign-in?redirect=%2Fwatch-list",
    );
    expect(screen.queryByRole("region", { name: "Live now" })).not.toBeInTheDocument();
    expect(screen.queryByRole("region", { name: "Calendar feed" })).not.toBeInTheDocument();
  });

  test("while the list loads, it shows placeholders", () => {
    renderPage();
    expect(screen.getByRole("status", { name: "Loading your watch list" })).toBeInTheDocument();
    expect(screen.queryByRole("heading", { name: "Sign in to keep a watch list" })).not.toBeInTheDocument();
  });

  test("while the session loads, it neither asks to sign in nor shows a list", () => {
    setConvexAuth("loading");
    setQueryResult(api.watchList.myWatchList, null);
    renderPage();
    expect(screen.getByRole("status", { name: "Loading your watch list" })).toBeInTheDocument();
  });
});
