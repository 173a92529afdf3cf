import { cleanup, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { api } from "@convex/_generated/api";
import { insertStreamPlatform, patchStream, type PlatformLink } from "@convex/model/streams";
import { convexBackend } from "@/test/convex-backend";
import { seedShop, seedStream } from "@/test/convex-seed";
import { sentCalls } from "@/test/convex-calls";
import { renderInRouter } from "@/test/render-in-router";
import { WatchListProviders } from "@/components/watch-list/__tests__/watch-list-providers";
import { StreamPage } from "../stream-page";

const convex = convexBackend();

const START = Date.UTC(2026, 10, 21, 19, 30); // 2:30 PM in New York, 11:30 AM in Los Angeles

type StreamSeed = Parameters<typeof seedStream>[2] & { platforms?: PlatformLink[] };

const WHATNOT: PlatformLink = {
  platformType: "whatnot",
  platformStreamUrl: "https://www.whatnot.com/live/denim",
};

/**
 * Sarah's show (her shop in Los Angeles), as `overrides` change it, on its page: seen signed out, or
 * by its owner (a draft's page is hers alone), once the page has its answer.
 */
async function renderPage(
  { platforms = [WHATNOT], ...overrides }: StreamSeed = {},
  { asOwner = false } = {},
) {
  const seller = await convex.addUser("seller");
  const shop = await seedShop(convex, seller, {
    liveShopName: "Sarah's Vintage",
    slug: "sarahs-vintage",
    schemaType: "Store",
    timezone: "America/Los_Angeles",
  });
  const streamId = await seedStream(convex, shop, {
    streamTitle: "Denim drop, part 2",
    streamDescription: "Jeans; jackets",
    streamVideoUrl: "https://www.whatnot.com/live/denim",
    streamStartUTC: START,
    streamStopUTC: START + 3_600_000,
    streamStatus: "SCHEDULED",
    products: [{ id: "p1", name: "Selvedge jeans", price: "89.5", description: "Raw indigo." }],
    ...overrides,
  });
  await convex.run(async (ctx) => {
    for (const link of platforms) await insertStreamPlatform(ctx, streamId, link);
  });
  if (asOwner) await convex.signInAs(seller);
  renderStreamAt(streamId);
  await screen.findByRole("heading", { level: 1, name: "Denim drop, part 2" });
  return { streamId, liveShopId: shop, seller };
}

function renderStreamAt(streamId: string) {
  renderInRouter(
    <convex.wrapper>
      <WatchListProviders>
        <StreamPage />
      </WatchListProviders>
    </convex.wrapper>,
    { path: "/stream/:streamId", at: `/stream/${streamId}` },
  );
}

beforeEach(() => {
  vi.spyOn(Intl.DateTimeFormat.prototype, "resolvedOptions").mockReturnValue({
    timeZone: "America/New_York",
  } as Intl.ResolvedDateTimeFormatOptions);
});
afterEach(() => vi.restoreAllMocks());

describe("StreamPage", () => {
  test("counts its view after rendering, and each click-through with its platform (seller insights)", async () => {
    const sent = sentCalls(convex.client);
    const { streamId, liveShopId, seller } = await renderPage();
    const counts = () => sent.filter((call) => call.name === "insights:record").map((call) => call.args);
    await waitFor(() =>
      expect(counts()).toEqual([
        { streamId, metric: "view", visitor: expect.stringMatching(/^[0-9a-f]{32}$/) as unknown },
      ]),
    );
    const links = screen.getByRole("list", { name: "Platform links" });
    await userEvent.click(within(links).getByRole("link", { name: /Watch on Whatnot/ }));
    expect(counts()[1]).toEqual({
      streamId,
      metric: "click",
      platform: "whatnot",
      visitor: (counts()[0] as { visitor: string }).visitor,
    });
    // The backend counted both, as the shop's owner reads them.
    await waitFor(async () => {
      const insights = await convex.call(api.insights.forShop, { liveShopId, streamId }, seller);
      expect(insights?.totals).toMatchObject({ view: 1, click: 1 });
      expect(insights?.platforms).toEqual([{ platform: "whatnot", clicks: 1 }]);
    });
  });

  test("shows the title, shop link, products and a link out for a platform-hosted video", async () => {
    await renderPage();
    expect(screen.getByRole("heading", { level: 1, name: "Denim drop, part 2" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Sarah's Vintage" })).toHaveAttribute(
      "href",
      "/live-shop/sarahs-vintage",
    );
    expect(screen.getByText("Selvedge jeans")).toBeInTheDocument();
    expect(screen.getByText("$89.50")).toBeInTheDocument();
    const watch = screen.getAllByRole("link", { name: /Watch on Whatnot/ })[0];
    expect(watch).toHaveAttribute("rel", "noopener noreferrer");
    expect(document.title).toBe("Denim drop, part 2 · LiveLocal");
  });

  test("times are shown in the viewer's zone, and in the shop's as a second line", async () => {
    await renderPage();
    const when = screen.getByRole("region", { name: "When" });
    const starts = within(when).getByText("Starts").nextElementSibling;
    expect(starts?.firstChild).toHaveTextContent("Sat, Nov 21, 2:30 PM EST");
    expect(starts).toHaveTextContent("Shop time: Sat, Nov 21, 11:30 AM PST");
    expect(within(when).getByText(/the shop is on Pacific \(Los Angeles\) time/)).toBeInTheDocument();
  });

  test.each([
    ["SCHEDULED", "Starts", "Ends"],
    ["LIVE", "Started", "Ends"],
    ["ENDED", "Started", "Ended"],
    ["CANCELLED", "Was to start", "Was to end"],
  ] as const)("a %s show's times are labelled %s and %s", async (streamStatus, start, stop) => {
    await renderPage({ streamStatus });
    const when = within(screen.getByRole("region", { name: "When" }));
    expect(when.getAllByRole("term").map((term) => term.textContent)).toEqual([start, stop]);
  });

  // Issue 41: a show planned for later that went live and ended early kept its planned times.
  test("a show taken live early and ended shows when it really started and ended, here and in its Event", async () => {
    const wentLive = START - 2 * 86_400_000; // Thu, Nov 19, 2:30 PM in New York
    await renderPage({
      streamStatus: "ENDED",
      streamStartedUTC: wentLive,
      streamEndedUTC: wentLive + 40 * 60_000,
    });
    const when = within(screen.getByRole("region", { name: "When" }));
    expect(when.getByText("Started").nextElementSibling?.firstChild).toHaveTextContent(
      "Thu, Nov 19, 2:30 PM EST",
    );
    expect(when.getByText("Ended").nextElementSibling?.firstChild).toHaveTextContent(
      "Thu, Nov 19, 3:10 PM EST",
    );
    expect(when.queryByText(/Sat, Nov 21/)).not.toBeInTheDocument();
    const script = document.body.querySelector('script[type="application/ld+json"]');
    expect(JSON.parse(script?.textContent ?? "{}")).toMatchObject({
      startDate: new Date(wentLive).toISOString(),
      endDate: new Date(wentLive + 40 * 60_000).toISOString(),
    });
  });

  test("live early: its real start, and the planned end still to come", async () => {
    const wentLive = START - 3_600_000;
    await renderPage({ streamStatus: "LIVE", streamStartedUTC: wentLive });
    const when = within(screen.getByRole("region", { name: "When" }));
    expect(when.getByText("Started").nextElementSibling?.firstChild).toHaveTextContent(
      "Sat, Nov 21, 1:30 PM EST",
    );
    expect(when.getByText("Ends").nextElementSibling?.firstChild).toHaveTextContent(
      "Sat, Nov 21, 3:30 PM EST",
    );
  });

  test("a stored time no date can show reads as unavailable, and is not offered to a calendar", async () => {
    await renderPage({ streamStartUTC: Number.MAX_SAFE_INTEGER, streamStopUTC: 8.64e15 + 10 });
    expect(screen.getByRole("heading", { level: 1, name: "Denim drop, part 2" })).toBeInTheDocument();
    expect(screen.getAllByText("Time unavailable")).toHaveLength(2);
    expect(document.querySelector("time[datetime]")).toBeNull();
    expect(screen.queryByRole("button", { name: "Add to calendar" })).not.toBeInTheDocument();
  });

  test("a direct video file plays in an HTML5 player; an ended show plays its replay", async () => {
    await renderPage({ streamStatus: "ENDED", replayVideoUrl: "https://cdn.example/replay.webm" });
    expect(document.querySelector("video")).toHaveAttribute("src", "https://cdn.example/replay.webm");
  });

  test("a cancelled show keeps its page, with a notice", async () => {
    await renderPage({ streamStatus: "CANCELLED" });
    expect(screen.getByText("This show was cancelled by the seller.")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Add to calendar" })).not.toBeInTheDocument();
  });

  test("add to calendar downloads an .ics of the show", async () => {
    const blobs: Blob[] = [];
    const createObjectURL = vi.fn((blob: Blob) => {
      blobs.push(blob);
      return "blob:ics";
    });
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    const click = vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(() => {});
    const { streamId } = await renderPage();
    await userEvent.click(screen.getByRole("button", { name: "Add to calendar" }));
    expect(click).toHaveBeenCalled();
    const anchor = click.mock.contexts[0] as HTMLAnchorElement;
    expect(anchor.download).toBe("denim-drop-part-2.ics");
    const text = await blobs[0].text();
    expect(text).toContain("SUMMARY:Denim drop\\, part 2\r\n");
    expect(text).toContain("DTSTART:20261121T193000Z\r\n");
    // A real id makes the line longer than 75 octets: iCalendar folds it (RFC 5545 3.1).
    expect(text.replaceAll("\r\n ", "")).toContain(`URL:${window.location.origin}/stream/${streamId}\r\n`);
  });

  test("share copies the link when there is no share sheet, and says so", async () => {
    const user = userEvent.setup();
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    const { streamId } = await renderPage();
    await user.click(screen.getByRole("button", { name: "Share" }));
    expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/stream/${streamId}`);
    expect(await screen.findByText("Copied")).toBeInTheDocument();
  });

  test("share uses the native sheet when there is one", async () => {
    const share = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, "share", { value: share, configurable: true });
    const { streamId } = await renderPage();
    await userEvent.click(screen.getByRole("button", { name: "Share" }));
    expect(share).toHaveBeenCalledWith(
      expect.objectContaining({ url: `${window.location.origin}/stream/${streamId}` }),
    );
    Reflect.deleteProperty(navigator, "share");
  });

  // Issue 17 item 5: stream pages carried no structured data.
  describe("schema.org Event", () => {
    const eventOf = () => {
      const script = document.body.querySelector('script[type="application/ld+json"]');
      return script ? (JSON.parse(script.textContent ?? "{}") as Record<string, unknown>) : null;
    };

    test("a scheduled show: EventScheduled, online, at the platform's address, by its shop", async () => {
      const { streamId } = await renderPage();
      expect(eventOf()).toEqual({
        "@context": "https://schema.org",
        "@type": "Event",
        name: "Denim drop, part 2",
        description: "Jeans; jackets",
        startDate: new Date(START).toISOString(),
        endDate: new Date(START + 3_600_000).toISOString(),
        eventStatus: "https://schema.org/EventScheduled",
        eventAttendanceMode: "https://schema.org/OnlineEventAttendanceMode",
        location: { "@type": "VirtualLocation", url: "https://www.whatnot.com/live/denim" },
        url: `${window.location.origin}/stream/${streamId}`,
        organizer: {
          "@type": "Store",
          name: "Sarah's Vintage",
          url: `${window.location.origin}/live-shop/sarahs-vintage`,
        },
      });
    });

    test.each([
      ["LIVE", "https://schema.org/EventScheduled"],
      ["PAUSED", "https://schema.org/EventScheduled"],
      ["ENDED", "https://schema.org/EventScheduled"],
      ["CANCELLED", "https://schema.org/EventCancelled"],
    ] as const)("%s reads %s", async (streamStatus, eventStatus) => {
      await renderPage({ streamStatus });
      expect(eventOf()).toMatchObject({ eventStatus });
    });

    test("without a platform the show's page is its location", async () => {
      const { streamId } = await renderPage({ platforms: [] });
      expect(eventOf()).toMatchObject({
        location: { "@type": "VirtualLocation", url: `${window.location.origin}/stream/${streamId}` },
      });
    });

    test("a draft (its owner's view) is no event", async () => {
      await renderPage({ streamStatus: "CREATED" }, { asOwner: true });
      expect(eventOf()).toBeNull();
    });
  });

  test("the status badge follows the live query", async () => {
    const { streamId } = await renderPage();
    expect(screen.getByText("Upcoming")).toBeInTheDocument();
    await convex.run((ctx) => patchStream(ctx, streamId, { streamStatus: "LIVE" }));
    expect(await screen.findByText("Live")).toBeInTheDocument();
  });

  test("an unknown or private stream is the not-found page", async () => {
    const seller = await convex.addUser("seller");
    const draft = await seedStream(convex, await seedShop(convex, seller), { streamStatus: "CREATED" });
    for (const streamId of ["stream1", draft]) {
      renderStreamAt(streamId);
      expect(await screen.findByText(`Page not found: /stream/${streamId}`)).toBeInTheDocument();
      cleanup();
    }
  });
});
