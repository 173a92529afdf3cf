import { screen, within } from "@testing-library/react";
import { expect, test } from "vitest";
import { MenuStateProvider } from "@/components/layout/menu-state";
import { convexBackend } from "@/test/convex-backend";
import { seedShop, seedStream } from "@/test/convex-seed";
import { renderInRouter } from "@/test/render-in-router";
import { WatchListProviders } from "@/components/watch-list/__tests__/watch-list-providers";
import { ExploreShopsPage } from "../explore-shops-page";

const convex = convexBackend();

test("live shops show as cards linking to their pages, with a badge while live", async () => {
  const seller = await convex.addUser("seller");
  const windy = await seedShop(convex, seller, {
    liveShopName: "Windy City Card Breaks",
    slug: "windy-city-card-breaks",
    headline: "Live Pokémon and sports card breaks",
    categories: [{ categoryId: "collectibles", priority: 0 }],
    cbsaCodes: ["16980"],
  });
  await seedStream(convex, windy, { streamTitle: "Breaks", streamStatus: "LIVE" });
  const other = await convex.addUser("seller", { key: "seller2" });
  await seedShop(convex, other, {
    liveShopName: "Triangle Retro Games",
    slug: "triangle-retro-games",
    status: "maintenance",
    categories: [{ categoryId: "collectibles", subcategoryId: "trading_cards", priority: 0 }],
  });
  // Not in the category asked for.
  await seedShop(convex, other, {
    liveShopName: "Denim Only",
    categories: [{ categoryId: "fashion_apparel", priority: 0 }],
  });
  renderInRouter(
    <convex.wrapper>
      <WatchListProviders>
        <MenuStateProvider>
          <ExploreShopsPage />
        </MenuStateProvider>
      </WatchListProviders>
    </convex.wrapper>,
    { path: "/explore/live-shops", at: "/explore/live-shops?category=collectibles" },
  );
  // Cards appear when the first page arrives; "Denim Only" is in another category.
  await screen.findByText("Windy City Card Breaks");
  const items = within(screen.getByRole("list", { name: "Live shops" })).getAllByRole("listitem");
  expect(items).toHaveLength(2);
  const windyCard = items.find((item) => item.textContent?.includes("Windy City"))!;
  const triangle = items.find((item) => item.textContent?.includes("Triangle Retro"))!;
  expect(within(windyCard).getByRole("link", { name: "Windy City Card Breaks" })).toHaveAttribute(
    "href",
    "/live-shop/windy-city-card-breaks",
  );
  expect(within(windyCard).getByText("Live now")).toBeInTheDocument();
  expect(within(windyCard).getByText("Collectibles — Chicago-Naperville-Elgin, IL-IN")).toBeInTheDocument();
  expect(within(triangle).getByText("Temporarily closed")).toBeInTheDocument();
  expect(screen.getByRole("link", { name: "Streams" })).toHaveAttribute(
    "href",
    "/explore/streams?category=collectibles&subcategory=coins_currency&subcategory=figures_models&subcategory=sports_memorabilia&subcategory=trading_cards",
  );
  expect(document.title).toBe("Explore live shops · LiveLocal");
});
