import { act, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { api } from "@convex/_generated/api";
import { useMockConvexAuth } from "@/test/convex-auth-mock";
import { convexReactMock, mutationCalls, resetConvexMock, setQueryResult } from "@/test/convex-mock";
import { renderInRouter } from "@/test/render-in-router";
import { WatchListProviders } from "@/components/watch-list/__tests__/watch-list-providers";
import { StreamPage } from "../stream-page";
import type { PublicStream } from "../stream-types";

vi.mock("convex/react", () => ({ ...convexReactMock, useConvexAuth: useMockConvexAuth }));

const START = Date.UTC(2026, 10, 21, 19, 30); // 2:30 PM in New York, 11:30 AM in Los Angeles

function stream(overrides: Partial<PublicStream> = {}): PublicStream {
  return {
    _id: "stream1" as PublicStream["_id"],
    streamTitle: "Denim drop, part 2",
    streamDescription: "Jeans; jackets",
    streamImageUrls: [],
    streamVideoUrl: "https://www.whatnot.com/live/denim",
    streamStartUTC: START,
    streamStopUTC: START + 3_600_000,
    timezone: "America/Los_Angeles",
    streamStatus: "SCHEDULED",
    products: [{ id: "p1", name: "Selvedge jeans", price: "89.5", description: "Raw indigo." }],
    shop: {
      _id: "shop1" as PublicStream["shop"]["_id"],
      liveShopName: "Sarah's Vintage",
      slug: "sarahs-vintage",
      status: "active",
      schemaType: "Store",
    },
    platforms: [{ platformType: "whatnot", platformStreamUrl: "https://www.whatnot.com/live/denim" }],
    categories: [],
    areas: [],
    ...overrides,
  };
}

function renderPage(value: PublicStream | null) {
  setQueryResult(api.streams.getPublicStream, value);
  return renderInRouter(
    <WatchListProviders>
      <StreamPage />
    </WatchListProviders>,
    { path: "/stream/:streamId", at: "/stream/stream1" },
  );
}

beforeEach(() => {
  resetConvexMock();
  vi.spyOn(Intl.DateTimeFormat.prototype, "resolvedOptions").mockReturnValue({
    timeZone: "America/New_York",
  } as Intl.ResolvedDateTimeFormatOptions);
});
afterEach(() => vi.restoreAllMocks());

describe("StreamPage", () => {
  test("counts its view after rendering, and each click-through with its platform (seller insights)", async () => {
    renderPage(stream());
    const counts = () =>
      mutationCalls.filter((call) => call.name === "insights:record").map((call) => call.args);
    expect(counts()).toEqual([
      { streamId: "stream1", metric: "view", visitor: expect.stringMatching(/^[0-9a-f]{32}$/) as unknown },
    ]);
    const links = screen.getByRole("list", { name: "Platform links" });
    await userEvent.click(within(links).getByRole("link", { name: /Watch on Whatnot/ }));
    expect(counts()[1]).toEqual({
      streamId: "stream1",
      metric: "click",
      platform: "whatnot",
      visitor: (counts()[0] as { visitor: string }).visitor,
    });
  });

  test("shows the title, shop link, products and a link out for a platform-hosted video", () => {
    renderPage(stream());
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

  test("times are shown in the viewer's zone, and in the shop's as a second line", () => {
    renderPage(stream());
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
  ] as const)("a %s show's times are labelled %s and %s", (streamStatus, start, stop) => {
    renderPage(stream({ streamStatus }));
    const when = within(screen.getByRole("region", { name: "When" }));
    expect(when.getAllByRole("term").map((term) => term.textContent)).toEqual([start, stop]);
  });

  // Issue 41: a show planned for later that went live and ended early kept its planned times.
  test("a show taken live early and ended shows when it really started and ended, here and in its Event", () => {
    const wentLive = START - 2 * 86_400_000; // Thu, Nov 19, 2:30 PM in New York
    renderPage(
      stream({
        streamStatus: "ENDED",
        streamStartedUTC: wentLive,
        streamEndedUTC: wentLive + 40 * 60_000,
      }),
    );
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

  test("live early: its real start, and the planned end still to come", () => {
    const wentLive = START - 3_600_000;
    renderPage(stream({ streamStatus: "LIVE", streamStartedUTC: wentLive }));
    const when = within(screen.getByRole("region", { name: "When" }));
    expect(when.getByText("Started").nextElementSibling?.firstChild).toHaveTextContent(
      "Sat, Nov 21, 1:30 PM EST",
    );
    expect(when.getByText("Ends").nextElementSibling?.firstChild).toHaveTextContent(
      "Sat, Nov 21, 3:30 PM EST",
    );
  });

  test("a stored time no date can show reads as unavailable, and is not offered to a calendar", () => {
    renderPage(stream({ streamStartUTC: Number.MAX_SAFE_INTEGER, streamStopUTC: 8.64e15 + 10 }));
    expect(screen.getByRole("heading", { level: 1, name: "Denim drop, part 2" })).toBeInTheDocument();
    expect(screen.getAllByText("Time unavailable")).toHaveLength(2);
    expect(document.querySelector("time[datetime]")).toBeNull();
    expect(screen.queryByRole("button", { name: "Add to calendar" })).not.toBeInTheDocument();
  });

  test("a direct video file plays in an HTML5 player; an ended show plays its replay", () => {
    renderPage(stream({ streamStatus: "ENDED", replayVideoUrl: "https://cdn.example/replay.webm" }));
    expect(document.querySelector("video")).toHaveAttribute("src", "https://cdn.example/replay.webm");
  });

  test("a cancelled show keeps its page, with a notice", () => {
    renderPage(stream({ streamStatus: "CANCELLED" }));
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
    renderPage(stream());
    await userEvent.click(screen.getByRole("button", { name: "Add to calendar" }));
    expect(click).toHaveBeenCalled();
    const anchor = click.mock.contexts[0] as HTMLAnchorElement;
    expect(anchor.download).toBe("denim-drop-part-2.ics");
    const text = await blobs[0].text();
    expect(text).toContain("SUMMARY:Denim drop\\, part 2\r\n");
    expect(text).toContain("DTSTART:20261121T193000Z\r\n");
    expect(text).toContain(`URL:${window.location.origin}/stream/stream1\r\n`);
  });

  test("share copies the link when there is no share sheet, and says so", async () => {
    const user = userEvent.setup();
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    renderPage(stream());
    await user.click(screen.getByRole("button", { name: "Share" }));
    expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/stream/stream1`);
    expect(await screen.findByText("Copied")).toBeInTheDocument();
  });

  test("share uses the native sheet when there is one", async () => {
    const share = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, "share", { value: share, configurable: true });
    renderPage(stream());
    await userEvent.click(screen.getByRole("button", { name: "Share" }));
    expect(share).toHaveBeenCalledWith(
      expect.objectContaining({ url: `${window.location.origin}/stream/stream1` }),
    );
    Reflect.deleteProperty(navigator, "share");
  });

  // Issue 17 item 5: stream pages carried no structured data.
  describe("schema.org Event", () => {
    const eventOf = () => {
      const script = document.body.querySelector('script[type="application/ld+json"]');
      return script ? (JSON.parse(script.textContent ?? "{}") as Record<string, unknown>) : null;
    };

    test("a scheduled show: EventScheduled, online, at the platform's address, by its shop", () => {
      renderPage(stream());
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
        url: `${window.location.origin}/stream/stream1`,
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
    ] as const)("%s reads %s", (streamStatus, eventStatus) => {
      renderPage(stream({ streamStatus }));
      expect(eventOf()).toMatchObject({ eventStatus });
    });

    test("without a platform the show's page is its location", () => {
      renderPage(stream({ platforms: [] }));
      expect(eventOf()).toMatchObject({
        location: { "@type": "VirtualLocation", url: `${window.location.origin}/stream/stream1` },
      });
    });

    test("a draft is no event", () => {
      renderPage(stream({ streamStatus: "CREATED" }));
      expect(eventOf()).toBeNull();
    });
  });

  test("the status badge follows the live query", () => {
    renderPage(stream());
    expect(screen.getByText("Upcoming")).toBeInTheDocument();
    act(() => setQueryResult(api.streams.getPublicStream, stream({ streamStatus: "LIVE" })));
    expect(screen.getByText("Live")).toBeInTheDocument();
  });

  test("an unknown or private stream is the not-found page", () => {
    renderPage(null);
    expect(screen.getByText("Page not found: /stream/stream1")).toBeInTheDocument();
  });
});
