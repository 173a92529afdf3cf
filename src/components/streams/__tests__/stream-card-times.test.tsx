import { screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { setConvexAuth, useMockConvexAuth } from "@/test/convex-auth-mock";
import { convexReactMock, resetConvexMock } from "@/test/convex-mock";
import { renderInRouter } from "@/test/render-in-router";
import { WatchListProviders } from "@/components/watch-list/__tests__/watch-list-providers";
import type { Id } from "@convex/_generated/dataModel";
import { StreamCard, type StreamCardData } from "../stream-card";

vi.mock("convex/react", () => ({ ...convexReactMock, useConvexAuth: useMockConvexAuth }));

/** Sat, Nov 21 2026, 12:00 PM in New York. */
const NOW = Date.UTC(2026, 10, 21, 17);
const HOUR = 3_600_000;

function renderCard(overrides: Partial<StreamCardData>) {
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
    <WatchListProviders>
      <StreamCard stream={stream} />
    </WatchListProviders>,
  );
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(NOW);
  resetConvexMock();
  setConvexAuth("signedOut");
});

afterEach(() => {
  vi.useRealTimers();
});

// Issue 16 item 9: a live card said "Planned for", and an ended show showed no stop time.
describe("a stream card's time", () => {
  test("a show taken live before its planned start reads as live, not as planned", () => {
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

  test("a scheduled show shows only its start, not its planned end", () => {
    renderCard({ streamStatus: "SCHEDULED", streamStartUTC: NOW + HOUR, streamStopUTC: NOW + 3 * HOUR });
    expect(screen.getByText(/^Starts Sat, Nov 21, 1:00 PM/)).not.toHaveTextContent("Ended");
  });
});
