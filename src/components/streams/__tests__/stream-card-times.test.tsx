import { screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { convexBackend } from "@/test/convex-backend";
import { renderInRouter } from "@/test/render-in-router";
import { WatchListProviders } from "@/components/watch-list/__tests__/watch-list-providers";
import { ViewerTimeZoneProvider } from "@/lib/viewer-time-zone";
import type { Id } from "@convex/_generated/dataModel";
import { StreamCard, type StreamCardData } from "../stream-card";

// Signed out: the card's save button asks nothing of the backend.
const convex = convexBackend();

/** Sat, Nov 21 2026, 12:00 PM in New York. */
const NOW = Date.UTC(2026, 10, 21, 17);
const HOUR = 3_600_000;

function renderCard(overrides: Partial<StreamCardData>, viewerZone = "America/New_York") {
  const stream: StreamCardData = {
    _id: "stream1" as Id<"streams">,
    streamTitle: "Denim drop",
    streamStatus: "SCHEDULED",
    liveShopName: "Sarah's Vintage",
    liveShopSlug: "sarahs-vintage",
    timezone: "America/New_York",
    ...overrides,
  };
  renderInRouter(
    <convex.wrapper>
      <ViewerTimeZoneProvider timeZone={viewerZone}>
        <WatchListProviders>
          <StreamCard stream={stream} />
        </WatchListProviders>
      </ViewerTimeZoneProvider>
    </convex.wrapper>,
  );
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(NOW);
});

afterEach(() => {
  vi.useRealTimers();
});

// Issue 16 item 9: a live card said "Planned for", and an ended show showed no stop time.
describe("a stream card's time", () => {
  test("a show taken live before its planned start, before starts were recorded, reads as live", () => {
    renderCard({ streamStatus: "LIVE", streamStartUTC: NOW + HOUR });
    expect(screen.getByText(/^Live now, planned for Sat, Nov 21, 1:00 PM/)).toBeInTheDocument();
  });

  test("a live show that started on time reads Started", () => {
    renderCard({ streamStatus: "LIVE", streamStartUTC: NOW - HOUR });
    expect(screen.getByText(/^Started Sat, Nov 21, 11:00 AM/)).toBeInTheDocument();
  });

  test("an ended show says when it ended", () => {
    renderCard({ streamStatus: "ENDED", streamStartUTC: NOW - 3 * HOUR, streamStopUTC: NOW - HOUR });
    expect(
      screen.getByText(/^Started Sat, Nov 21, 9:00 AM.* · Ended Sat, Nov 21, 11:00 AM/),
    ).toBeInTheDocument();
  });

  // Issue 41: planned for Dec 3, live and ended on Nov 21: the card says what happened.
  test("a show taken live early and ended says when it really started and ended", () => {
    const planned = Date.UTC(2026, 11, 4, 0);
    renderCard({
      streamStatus: "ENDED",
      streamStartUTC: planned,
      streamStopUTC: planned + 90 * 60_000,
      streamStartedUTC: NOW - 2 * HOUR,
      streamEndedUTC: NOW - HOUR,
    });
    expect(
      screen.getByText(/^Started Sat, Nov 21, 10:00 AM.* · Ended Sat, Nov 21, 11:00 AM/),
    ).toBeInTheDocument();
    expect(screen.queryByText(/Dec 3/)).not.toBeInTheDocument();
  });

  test("a show live ahead of its plan reads Started, at the time it went live", () => {
    renderCard({ streamStatus: "LIVE", streamStartUTC: NOW + HOUR, streamStartedUTC: NOW - 5 * 60_000 });
    expect(screen.getByText(/^Started Sat, Nov 21, 11:55 AM/)).toBeInTheDocument();
  });

  test("a scheduled show shows only its start, not its planned end", () => {
    renderCard({ streamStatus: "SCHEDULED", streamStartUTC: NOW + HOUR, streamStopUTC: NOW + 3 * HOUR });
    expect(screen.getByText(/^Starts Sat, Nov 21, 1:00 PM/)).not.toHaveTextContent("Ended");
  });
});

// Issue 17 item 3: with the browser in Los Angeles or Berlin, cards said "8:59 AM EST".
describe("a card's time is the viewer's", () => {
  test("in Los Angeles, a New York shop's noon show reads 9:00 AM PST, the shop's time on hover", () => {
    renderCard({ streamStatus: "SCHEDULED", streamStartUTC: NOW }, "America/Los_Angeles");
    const time = screen.getByText(/^Planned for Sat, Nov 21, 9:00 AM PST$/);
    expect(time).toHaveAttribute("title", "Shop time: Planned for Sat, Nov 21, 12:00 PM EST");
  });

  test("in Berlin, the evening show is already Sunday", () => {
    renderCard({ streamStatus: "SCHEDULED", streamStartUTC: NOW + 7 * HOUR }, "Europe/Berlin");
    expect(screen.getByText(/^Starts Sun, Nov 22, 1:00 AM GMT\+1$/)).toBeInTheDocument();
  });

  test("in the shop's own zone, one time and no hint", () => {
    renderCard({ streamStatus: "SCHEDULED", streamStartUTC: NOW + HOUR });
    expect(screen.getByText(/^Starts Sat, Nov 21, 1:00 PM EST$/)).not.toHaveAttribute("title");
  });
});
