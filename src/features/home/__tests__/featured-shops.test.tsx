import { render, screen } from "@testing-library/react";
import type { ReactNode } from "react";
import { MemoryRouter } from "react-router-dom";
import { beforeEach, expect, test, vi } from "vitest";
import { api } from "@convex/_generated/api";
import { useMockConvexAuth } from "@/test/convex-auth-mock";
import { convexReactMock, resetConvexMock, setQueryResult } from "@/test/convex-mock";
import { WatchListProviders } from "@/components/watch-list/__tests__/watch-list-providers";
import { FeaturedShops } from "../featured-shops";

vi.mock("convex/react", () => ({ ...convexReactMock, useConvexAuth: useMockConvexAuth }));

beforeEach(resetConvexMock);

const wrapper = ({ children }: { children: ReactNode }) => (
  <MemoryRouter>
    <WatchListProviders>{children}</WatchListProviders>
  </MemoryRouter>
);

test("each featured shop links to its page by slug and names its main metro area", () => {
  setQueryResult(api.liveShops.listFeaturedShops, [
    {
      _id: "s1",
      liveShopName: "Windy City Card Breaks",
      slug: "windy-city-card-breaks",
      headline: "Live Pokémon and sports card breaks",
      status: "active",
      categories: ["collectibles"],
      areas: ["16980"],
    },
  ]);
  render(<FeaturedShops />, { wrapper });
  expect(screen.getByRole("link", { name: "Windy City Card Breaks" })).toHaveAttribute(
    "href",
    "/live-shop/windy-city-card-breaks",
  );
  expect(screen.getByText(/^Chicago-Naperville-Elgin/)).toBeInTheDocument();
});

test("shows a designed loading state, then an empty message", () => {
  const { rerender } = render(<FeaturedShops />, { wrapper });
  expect(screen.getByLabelText("Loading featured shops")).toBeInTheDocument();
  setQueryResult(api.liveShops.listFeaturedShops, []);
  rerender(<FeaturedShops />);
  expect(screen.getByText("No shops to feature yet.")).toBeInTheDocument();
});
