import { screen, within } from "@testing-library/react";
import { beforeEach, expect, test, vi } from "vitest";
import { MenuStateProvider } from "@/components/layout/menu-state";
import { useMockConvexAuth } from "@/test/convex-auth-mock";
import { convexReactMock, resetConvexMock, setQueryResult } from "@/test/convex-mock";
import { renderInRouter } from "@/test/render-in-router";
import { WatchListProviders } from "@/components/watch-list/__tests__/watch-list-providers";
import { api } from "@convex/_generated/api";
import { ExploreShopsPage } from "../explore-shops-page";

vi.mock("convex/react", () => ({ ...convexReactMock, useConvexAuth: useMockConvexAuth }));
vi.mock("convex-helpers/react", () => ({ usePaginatedQuery: convexReactMock.usePaginatedQuery }));

beforeEach(resetConvexMock);

test("live shops show as cards linking to their pages, with a badge while live", () => {
  setQueryResult(api.explore.listExploreShops, [
    {
      _id: "shop1",
      liveShopName: "Windy City Card Breaks",
      slug: "windy-city-card-breaks",
      headline: "Live Pokémon and sports card breaks",
      status: "active",
      categories: ["collectibles"],
      areas: ["16980"],
      liveStatus: "LIVE",
    },
    {
      _id: "shop2",
      liveShopName: "Triangle Retro Games",
      slug: "triangle-retro-games",
      status: "maintenance",
      categories: [],
      areas: [],
    },
  ]);
  renderInRouter(
    <WatchListProviders>
      <MenuStateProvider>
        <ExploreShopsPage />
      </MenuStateProvider>
    </WatchListProviders>,
    { path: "/explore/live-shops", at: "/explore/live-shops?category=collectibles" },
  );
  const shops = screen.getByRole("list", { name: "Live shops" });
  const [windy, triangle] = within(shops).getAllByRole("listitem");
  expect(within(windy).getByRole("link", { name: "Windy City Card Breaks" })).toHaveAttribute(
    "href",
    "/live-shop/windy-city-card-breaks",
  );
  expect(within(windy).getByText("Live now")).toBeInTheDocument();
  expect(within(windy).getByText("Collectibles — Chicago-Naperville-Elgin, IL-IN")).toBeInTheDocument();
  expect(within(triangle).getByText("Temporarily closed")).toBeInTheDocument();
  expect(screen.getByRole("link", { name: "Streams" })).toHaveAttribute(
    "href",
    "/explore/streams?category=collectibles&subcategory=coins_currency&subcategory=figures_models&subcategory=sports_memorabilia&subcategory=trading_cards",
  );
  expect(document.title).toBe("Explore live shops · LiveLocal");
});
