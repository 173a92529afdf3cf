import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { FunctionReference } from "convex/server";
import { getFunctionName } from "convex/server";
import { ConvexError } from "convex/values";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { NoticesProvider } from "@/components/notices/notices";
import { WatchListProvider } from "@/components/watch-list/watch-list-state";
import { downloadIcs } from "@/lib/ics-download";
import { ViewerTimeZoneProvider } from "@/lib/viewer-time-zone";
import { convexBackend } from "@/test/convex-backend";
import { seedShop, seedStream } from "@/test/convex-seed";
import { sendThrough, sentCalls } from "@/test/convex-calls";
import { renderInRouter } from "@/test/render-in-router";
import { api } from "@convex/_generated/api";
import { icsFileName } from "@convex/lib/ics";
import { insertStream, patchStream } from "@convex/model/streams";
import { WatchListPage } from "../watch-list-page";
import { HOUR, MINUTE, NOW, saveAndFollow, seedWatchList, type StreamSeed } from "./fixtures";

vi.mock("@/lib/ics-download", () => ({ downloadIcs: vi.fn() }));
vi.mock("@/lib/convex-site", () => ({ convexSiteUrl: () => "https://site.example" }));

const convex = convexBackend();

/** The viewer is in Los Angeles; the fixture's shops are elsewhere. */
function renderPage() {
  return renderInRouter(
    <convex.wrapper>
      <ViewerTimeZoneProvider timeZone="America/Los_Angeles">
        <NoticesProvider>
          <WatchListProvider>
            <WatchListPage />
          </WatchListProvider>
        </NoticesProvider>
      </ViewerTimeZoneProvider>
    </convex.wrapper>,
    { path: "/watch-list" },
  );
}

/** Jordan, signed in, with the list `seedWatchList` makes; the page shown once the list has come. */
async function renderList(options?: Parameters<typeof seedWatchList>[2]) {
  const viewer = await convex.signInAs("viewer");
  const seeded = await seedWatchList(convex, viewer, options);
  renderPage();
  await screen.findByRole("heading", { level: 1, name: "Your watch list" });
  await screen.findByRole("region", { name: "Live now" });
  return { viewer, ...seeded };
}

/** An .ics file's lines unfolded: a real id makes some longer than 75 octets (RFC 5545 3.1). */
const unfold = (ics: string) => ics.replaceAll("\r\n ", "");
const region = (name: string) => screen.getByRole("region", { name });
/** The section's cards, each with what is said around it. */
const items = (name: string) => Array.from(within(region(name)).getAllByRole("list")[0].children);
const cardTitles = (name: string) =>
  within(region(name))
    .queryAllByRole("heading", { level: 3 })
    .map((heading) => heading.textContent);

beforeEach(() => {
  vi.mocked(downloadIcs).mockClear();
  // The page's clock only (not its timeouts): the backend's answers come as usual.
  vi.useFakeTimers({ now: NOW, toFake: ["Date", "setInterval", "clearInterval"] });
});

afterEach(() => {
  vi.useRealTimers();
});

describe("the watch list page", () => {
  test("shows its sections in order, each from the list, with the counts against the limits", async () => {
    await renderList();
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

  test("each followed shop says what its next show is, linking to it", async () => {
    const { streams } = await renderList();
    const [green, pilsen, quiet] = items("Shops you follow") as HTMLElement[];
    // In the viewer's zone (issue 17 item 3): the Chicago shop's 8:00 AM is 6:00 AM in Los Angeles.
    expect(green).toHaveTextContent("Next: Rare plants, Sun, Nov 22, 6:00 AM PST");
    expect(within(green).getByRole("link", { name: "Rare plants" })).toHaveAttribute(
      "href",
      `/stream/${streams.plants}`,
    );
    expect(pilsen).toHaveTextContent("Live now: Denim drop");
    expect(within(pilsen).getByRole("link", { name: "Denim drop" })).toHaveAttribute(
      "href",
      `/stream/${streams.denim}`,
    );
    expect(quiet).toHaveTextContent("No show planned");
  });

  test("counts down to each upcoming show, then says it is starting, then that it runs late", async () => {
    await renderList({
      upcoming: [
        { streamTitle: "Soon", streamStartUTC: NOW + 45_000 },
        { streamTitle: "Later", streamStartUTC: NOW + 2 * HOUR + 5 * MINUTE },
        { streamTitle: "Days", streamStartUTC: NOW + 2 * 24 * HOUR + 3 * HOUR },
      ],
    });
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

  test("a saved show whose stored time no date can show has no countdown and no calendar button", async () => {
    await renderList({
      upcoming: [
        { streamTitle: "Far future", streamStartUTC: 8.64e15 + 10 },
        { streamTitle: "Soon", streamStartUTC: NOW + 2 * HOUR },
      ],
    });
    // The server lists the soonest first: a time no date can show sorts last.
    expect(cardTitles("Coming up")).toEqual(["Soon", "Far future"]);
    expect(items("Coming up")[1]).toHaveTextContent("Start time to be announced");
    expect(items("Coming up")[0]).toHaveTextContent("Starts in 2 h");
    expect(screen.queryByRole("button", { name: "Add to calendar: Far future" })).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Add to calendar: Soon" })).toBeInTheDocument();
  });

  test("adds one show, or every upcoming show in one file, to a calendar", async () => {
    vi.useRealTimers();
    const { streams } = await renderList();
    const user = userEvent.setup();

    await user.click(screen.getByRole("button", { name: "Add to calendar: Lego, sets & minifigs" }));
    expect(downloadIcs).toHaveBeenCalledTimes(1);
    const [oneName, oneFile] = vi.mocked(downloadIcs).mock.calls[0];
    const one = unfold(oneFile);
    expect(oneName).toBe(icsFileName("Lego, sets & minifigs"));
    expect(one.match(/BEGIN:VEVENT/g)).toHaveLength(1);
    expect(one).toContain("SUMMARY:Lego\\, sets & minifigs");
    expect(one).toContain(`URL:${window.location.origin}/stream/${streams.lego}`);

    await user.click(screen.getByRole("button", { name: "Add all to calendar" }));
    expect(downloadIcs).toHaveBeenCalledTimes(2);
    const [allName, allFile] = vi.mocked(downloadIcs).mock.calls[1];
    const all = unfold(allFile);
    expect(allName).toBe("livelocal-watch-list.ics");
    expect(all.match(/BEGIN:VCALENDAR/g)).toHaveLength(1);
    expect(all.match(/BEGIN:VEVENT/g)).toHaveLength(2);
    expect(all).toContain(`UID:${streams.lego}@livelocal`);
    expect(all).toContain(`UID:${streams.plants}@livelocal`);
    expect(all).toContain("X-WR-CALNAME:LiveLocal watch list");
    // Live and ended shows are not "coming up".
    expect(all).not.toContain("Card breaks");
    expect(all).not.toContain("Comic haul");
  });

  test("ended shows link to their replay, or say there is none yet or that they were cancelled", async () => {
    await renderList();
    const [comics, quilts, rain] = items("Ended") as HTMLElement[];
    const replay = within(comics).getByRole("link", { name: "Watch the replay: Comic haul" });
    expect(replay).toHaveAttribute("href", "https://video.example/replays/comic-haul");
    expect(replay).toHaveAttribute("target", "_blank");
    expect(quilts).toHaveTextContent("No replay yet");
    expect(within(quilts).queryByRole("link", { name: /replay/ })).not.toBeInTheDocument();
    expect(rain).toHaveTextContent("Cancelled");
    expect(rain).not.toHaveTextContent("No replay yet");
  });

  test("empty sections say what would be there and where to find some", async () => {
    await convex.signInAs("viewer");
    renderPage();
    await screen.findByRole("region", { name: "Live now" });
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

  test("says when a limit is reached", async () => {
    const viewer = await convex.signInAs("viewer");
    const { shops } = await seedWatchList(convex, viewer);
    // Six saved: 94 more shows that ended fill the list.
    const more = await convex.run(async (ctx) => {
      const ids = [];
      for (let index = 0; index < 94; index++)
        ids.push(
          await insertStream(ctx, {
            liveShopId: shops.logan,
            streamTitle: `Old show ${index}`,
            streamStatus: "ENDED",
          }),
        );
      return ids;
    });
    await saveAndFollow(convex, viewer, { streams: more });
    renderPage();
    expect(await screen.findByText("100 of 100 shows saved · 3 of 100 shops followed")).toBeInTheDocument();
    expect(screen.getByText(/Your watch list is full/)).toBeInTheDocument();
    expect(screen.queryByText(/You follow the most shops you can/)).not.toBeInTheDocument();
  });

  test("updates live: a show that goes live moves from Coming up to Live now", async () => {
    const { streams } = await renderList();
    expect(cardTitles("Coming up")).toContain("Lego, sets & minifigs");
    await convex.run((ctx) =>
      patchStream(ctx, streams.lego, { streamStatus: "LIVE", streamStartedUTC: NOW }),
    );
    await waitFor(() => expect(cardTitles("Coming up")).toEqual(["Rare plants"]));
    // Saved shows first, the earliest start first; then the followed shops' shows.
    expect(cardTitles("Live now")).toEqual(["Card breaks", "Lego, sets & minifigs", "Denim drop"]);
  });
});

describe("saved items no longer public", () => {
  /**
   * Jordan's list, and on it a saved show its shop took back to a draft and, unless `shopToo` is
   * false, a followed shop since deleted: two items no shop's notice explains.
   */
  async function renderWithGone({ shopToo = true } = {}) {
    const viewer = await convex.signInAs("viewer");
    const { seller, shops } = await seedWatchList(convex, viewer);
    const gone = { streamId: await seedStream(convex, shops.logan, { streamTitle: "Gone back to draft" }) };
    const goneShop = await seedShop(convex, seller, { liveShopName: "Gone Goods" });
    await saveAndFollow(convex, viewer, { streams: [gone.streamId], shops: shopToo ? [goneShop] : [] });
    await convex.run(async (ctx) => {
      await patchStream(ctx, gone.streamId, { streamStatus: "CREATED" });
      if (shopToo) await ctx.db.delete(goneShop);
    });
    renderPage();
    await screen.findByRole("region", { name: "Live now" });
    return { viewer, streamId: gone.streamId, liveShopId: goneShop };
  }

  test("are counted, and removed with one button", async () => {
    vi.useRealTimers();
    const sent = sentCalls(convex.client);
    const { viewer, streamId, liveShopId } = await renderWithGone();
    expect(screen.getByText("2 saved items are no longer public")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Remove them" }));
    expect(sent.filter((call) => call.name.startsWith("watchList:"))).toEqual([
      { name: "watchList:setStreamSaved", args: { streamId, saved: false } },
      { name: "watchList:setShopFollowed", args: { liveShopId, followed: false } },
    ]);
    // The list's answer no longer has them: the notice goes, and nothing went wrong.
    await waitFor(() => expect(screen.queryByText(/no longer public/)).not.toBeInTheDocument());
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
    const saved = await convex.call(api.watchList.mySaved, {}, viewer);
    expect(saved?.streamIds).not.toContain(streamId);
    expect(saved?.liveShopIds).not.toContain(liveShopId);
  });

  test("a failure is said in words", async () => {
    vi.useRealTimers();
    // The backend refuses an unfollow only to someone signed out, whose page shows no list: this one
    // answer is the server's refusal as the client would give it; the other calls go to the backend.
    const client = convex.client;
    const send = sendThrough(client, "mutation");
    vi.spyOn(client, "mutation").mockImplementation(((
      ref: FunctionReference<"mutation">,
      ...rest: unknown[]
    ) =>
      getFunctionName(ref) === "watchList:setShopFollowed"
        ? Promise.reject(new ConvexError({ code: "UNAUTHENTICATED", message: "Sign in again to continue." }))
        : send(ref, ...rest)) as never);
    await renderWithGone();
    await userEvent.click(screen.getByRole("button", { name: "Remove them" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Sign in again to continue.");
    expect(screen.getByRole("button", { name: "Remove them" })).toBeEnabled();
  });

  test("one item reads in the singular; none shows no notice", async () => {
    await renderWithGone({ shopToo: false });
    expect(screen.getByText("1 saved item is no longer public")).toBeInTheDocument();
  });

  test("a shop that closed or was taken off is named, with what of yours went with it", async () => {
    const viewer = await convex.signInAs("viewer");
    await seedWatchList(convex, viewer);
    const nora = await convex.addUser("seller", { key: "nora", name: "Nora" });
    const knits = await seedShop(convex, nora, { liveShopName: "Nora's Neon Knits" });
    const pots = await seedShop(convex, nora, { liveShopName: "Pot Luck" });
    const shows: StreamSeed = { streamStartUTC: NOW + 5 * HOUR };
    await saveAndFollow(convex, viewer, {
      streams: [
        await seedStream(convex, knits, shows),
        await seedStream(convex, knits, shows),
        await seedStream(convex, pots, shows),
      ],
      shops: [knits],
    });
    // Nora closes one shop; an admin suspends the other.
    await convex.run(async (ctx) => {
      await ctx.db.patch(knits, { status: "inactive" });
      await ctx.db.patch(pots, { status: "suspended" });
    });
    renderPage();
    expect(await screen.findByText("4 saved items are no longer public")).toBeInTheDocument();
    const shops = within(screen.getByRole("list", { name: "Shops that left" }));
    expect(shops.getAllByRole("listitem").map((item) => item.textContent)).toEqual([
      "Nora's Neon Knits closed its shop: your follow and 2 saved shows went with it.",
      "Pot Luck is off LiveLocal for now: 1 saved show went with it.",
    ]);
  });
});

describe("signed out and loading", () => {
  test("signed out, it asks to sign in and come back here", async () => {
    // Waiting for an answer polls on an interval, which the page's fake clock would stop.
    vi.useRealTimers();
    renderPage();
    expect(screen.getByRole("heading", { level: 1, name: "Your watch list" })).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "Sign in to keep a watch list" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Sign in" })).toHaveAttribute(
      "href",
      "/sign-in?redirect=%2Fwatch-list",
    );
    // Its answer (none, signed out) has come, and still no list.
    await convex.answered(api.watchList.myWatchList, {});
    expect(screen.queryByRole("region", { name: "Live now" })).not.toBeInTheDocument();
    expect(screen.queryByRole("region", { name: "Calendar feed" })).not.toBeInTheDocument();
  });

  test("while the list loads, it shows placeholders", async () => {
    await convex.signInAs("viewer");
    renderPage();
    expect(screen.getByRole("status", { name: "Loading your watch list" })).toBeInTheDocument();
    expect(screen.queryByRole("heading", { name: "Sign in to keep a watch list" })).not.toBeInTheDocument();
  });

  test("while the session loads, it neither asks to sign in nor shows a list", async () => {
    await convex.signInAs("viewer");
    convex.sessionLoading();
    renderPage();
    expect(screen.getByRole("status", { name: "Loading your watch list" })).toBeInTheDocument();
  });
});
