import { act, render, screen } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { afterEach, beforeEach, expect, test, vi } from "vitest";
import { api } from "@convex/_generated/api";
import { useMockConvexAuth } from "@/test/convex-auth-mock";
import { convexReactMock, resetConvexMock, setQueryResult } from "@/test/convex-mock";
import { WatchListProviders } from "@/components/watch-list/__tests__/watch-list-providers";
import { StartingSoon } from "../starting-soon";

vi.mock("convex/react", () => ({ ...convexReactMock, useConvexAuth: useMockConvexAuth }));

const NOW = Date.UTC(2026, 10, 21, 12, 2, 0);

beforeEach(() => {
  resetConvexMock();
  vi.useFakeTimers({ now: NOW, toFake: ["Date", "setInterval", "clearInterval"] });
});
afterEach(() => vi.useRealTimers());

const card = (id: string, streamTitle: string, streamStartUTC: number) => ({
  _id: id,
  streamTitle,
  streamStatus: "SCHEDULED" as const,
  liveShopName: "Logan Square Toy Exchange",
  liveShopSlug: "logan-square-toy-exchange",
  timezone: "America/Chicago",
  streamStartUTC,
});

function renderSoon() {
  const router = createMemoryRouter([
    {
      path: "/",
      element: (
        <WatchListProviders>
          <StartingSoon />
        </WatchListProviders>
      ),
    },
  ]);
  render(<RouterProvider router={router} />);
}

test("shows upcoming shows with a countdown that ticks, and drops one once it has started", () => {
  setQueryResult(api.streams.listStartingSoon, [
    card("a", "Card breaks", NOW + 65_000),
    card("b", "Vintage denim", NOW + 2 * 3_600_000),
  ]);
  renderSoon();
  expect(screen.getByRole("heading", { name: "Card breaks" })).toBeInTheDocument();
  expect(screen.getByText("Starts in 1 min")).toBeInTheDocument();
  expect(screen.getByText("Starts in 2 h")).toBeInTheDocument();
  act(() => {
    vi.advanceTimersByTime(66_000);
  });
  expect(screen.queryByRole("heading", { name: "Card breaks" })).not.toBeInTheDocument();
  expect(screen.getByText("Starts in 1 h 58 min")).toBeInTheDocument();
});

test("says so when nothing is scheduled", () => {
  setQueryResult(api.streams.listStartingSoon, []);
  renderSoon();
  expect(screen.getByText("No shows are scheduled for the next two days yet.")).toBeInTheDocument();
});
