import { render, screen } from "@testing-library/react";
import { describe, expect, test } from "vitest";
import { ViewerTimeZoneProvider } from "@/lib/viewer-time-zone";
import { convexBackend } from "@/test/convex-backend";
import type { Id } from "@convex/_generated/dataModel";
import { StreamRow, type StreamRowData } from "../stream-row";
import { StreamStatusProvider } from "../stream-status-provider";

// The row's actions are mutations; none is pressed here.
const convex = convexBackend();

/** Sat, Nov 21 2026, 7:30 PM in Chicago. */
const START = Date.UTC(2026, 10, 22, 1, 30);

const row = (overrides: Partial<StreamRowData> = {}): StreamRowData => ({
  _id: "s1" as Id<"streams">,
  streamTitle: "Denim drop",
  streamStatus: "SCHEDULED",
  streamStartUTC: START,
  streamStopUTC: START + 90 * 60_000,
  liveShopName: "East Austin Denim Co.",
  timezone: "America/Chicago",
  ...overrides,
});

function renderRow(stream: StreamRowData, timeZone: string) {
  render(
    <convex.wrapper>
      <ViewerTimeZoneProvider timeZone={timeZone}>
        <StreamStatusProvider>
          <ul>
            <StreamRow stream={stream} actor={{ isOwner: true, isAdmin: false }} shopStatus="active" />
          </ul>
        </StreamStatusProvider>
      </ViewerTimeZoneProvider>
    </convex.wrapper>,
  );
}

// Issue 17 item 3: the dashboard's streams in the seller's own zone, the shop's beside it.
describe("a seller's stream row", () => {
  test("in Berlin: the time there, and the shop's", () => {
    renderRow(row(), "Europe/Berlin");
    expect(screen.getByText(/Sun, Nov 22, 2:30 – 4:00 AM GMT\+1/)).toBeInTheDocument();
    expect(screen.getByText("Shop time: Sat, Nov 21, 7:30 – 9:00 PM CST")).toBeInTheDocument();
  });

  test("in the shop's own zone: one time", () => {
    renderRow(row(), "America/Chicago");
    expect(screen.getByText(/Sat, Nov 21, 7:30 – 9:00 PM CST/)).toBeInTheDocument();
    expect(screen.queryByText(/Shop time/)).not.toBeInTheDocument();
  });

  test("without a start time it says so", () => {
    renderRow(row({ streamStartUTC: undefined, streamStopUTC: undefined }), "Europe/Berlin");
    expect(screen.getByText(/No start time yet/)).toBeInTheDocument();
  });
});
