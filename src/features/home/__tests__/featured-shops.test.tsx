import { render, screen } from "@testing-library/react";
import type { ReactNode } from "react";
import { MemoryRouter } from "react-router-dom";
import { expect, test } from "vitest";
import { WatchListProviders } from "@/components/watch-list/__tests__/watch-list-providers";
import { convexBackend } from "@/test/convex-backend";
import { seedShop } from "@/test/convex-seed";
import { FeaturedShops } from "../featured-shops";

const convex = convexBackend();

const wrapper = ({ children }: { children: ReactNode }) => (
  <MemoryRouter>
    <convex.wrapper>
      <WatchListProviders>{children}</WatchListProviders>
    </convex.wrapper>
  </MemoryRouter>
);

test("each featured shop links to its page by slug and names its main metro area", async () => {
  const seller = await convex.addUser("seller");
  await seedShop(convex, seller, {
    liveShopName: "Windy City Card Breaks",
    slug: "windy-city-card-breaks",
    headline: "Live Pokémon and sports card breaks",
    categories: [{ categoryId: "collectibles", priority: 0 }],
    cbsaCodes: ["16980"],
  });
  render(<FeaturedShops />, { wrapper });
  expect(await screen.findByRole("link", { name: "Windy City Card Breaks" })).toHaveAttribute(
    "href",
    "/live-shop/windy-city-card-breaks",
  );
  expect(screen.getByText(/^Chicago-Naperville-Elgin/)).toBeInTheDocument();
});

test("shows a designed loading state, then an empty message", async () => {
  render(<FeaturedShops />, { wrapper });
  expect(screen.getByLabelText("Loading featured shops")).toBeInTheDocument();
  expect(await screen.findByText("No shops to feature yet.")).toBeInTheDocument();
});
