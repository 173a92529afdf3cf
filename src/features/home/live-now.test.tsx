import { render, screen } from "@testing-library/react";
import type { ReactNode } from "react";
import { MemoryRouter } from "react-router-dom";
import { beforeEach, expect, test, vi } from "vitest";
import { api } from "@convex/_generated/api";
import { useMockConvexAuth } from "@/test/convex-auth-mock";
import { convexReactMock, resetConvexMock, setQueryResult } from "@/test/convex-mock";
import { WatchListProviders } from "@/components/watch-list/__tests__/watch-list-providers";
import { LiveNow } from "./live-now";

vi.mock("convex/react", () => ({ ...convexReactMock, useConvexAuth: useMockConvexAuth }));

beforeEach(resetConvexMock);

// Stream cards link to their pages and have a save button, so they need a router and the watch list.
const wrapper = ({ children }: { children: ReactNode }) => (
  <MemoryRouter>
    <WatchListProviders>{children}</WatchListProviders>
  </MemoryRouter>
);

test("shows a loading state, then the live streams with their badges", () => {
  const { rerender } = render(<LiveNow />, { wrapper });
  expect(screen.getByLabelText("Loading live shows")).toBeInTheDocument();
  setQueryResult(api.streams.listLiveNow, [
    {
      _id: "a",
      streamTitle: "Pokémon card breaks",
      streamStatus: "LIVE",
      liveShopName: "Logan Square Toy Exchange",
      liveShopSlug: "logan-square-toy-exchange",
      timezone: "America/Chicago",
      locationLabel: "Logan Square",
      streamStartUTC: Date.UTC(2026, 10, 21, 18, 0),
    },
  ]);
  rerender(<LiveNow />);
  expect(screen.getByRole("heading", { name: "Pokémon card breaks" })).toBeInTheDocument();
  expect(screen.getByText("Live")).toBeInTheDocument();
  expect(screen.getByText(/Logan Square Toy Exchange · Logan Square/)).toBeInTheDocument();
});

test("says so when nobody is live", () => {
  setQueryResult(api.streams.listLiveNow, []);
  render(<LiveNow />, { wrapper });
  expect(screen.getByText("Nobody is live right now. Check back soon.")).toBeInTheDocument();
});
