import { render, screen } from "@testing-library/react";
import type { ReactNode } from "react";
import { MemoryRouter } from "react-router-dom";
import { expect, test } from "vitest";
import { WatchListProviders } from "@/components/watch-list/__tests__/watch-list-providers";
import { convexBackend } from "@/test/convex-backend";
import { seedShop, seedStream } from "@/test/convex-seed";
import { LiveNow } from "./live-now";

const convex = convexBackend();

// Stream cards link to their pages and have a save button, so they need a router and the watch list.
const wrapper = ({ children }: { children: ReactNode }) => (
  <MemoryRouter>
    <convex.wrapper>
      <WatchListProviders>{children}</WatchListProviders>
    </convex.wrapper>
  </MemoryRouter>
);

test("shows a loading state, then the live streams with their badges", async () => {
  const seller = await convex.addUser("seller");
  const shop = await seedShop(convex, seller, { liveShopName: "Logan Square Toy Exchange" });
  await seedStream(convex, shop, {
    streamTitle: "Pokémon card breaks",
    streamStatus: "LIVE",
    timezone: "America/Chicago",
    locationLabel: "Logan Square",
    streamStartUTC: Date.UTC(2026, 10, 21, 18, 0),
  });
  // Not public: a draft shop's live show is not listed.
  const draft = await seedShop(convex, seller, { liveShopName: "Unlisted Draft", status: "draft" });
  await seedStream(convex, draft, { streamTitle: "Hidden show", streamStatus: "LIVE" });
  render(<LiveNow />, { wrapper });
  expect(screen.getByLabelText("Loading live shows")).toBeInTheDocument();
  expect(await screen.findByRole("heading", { name: "Pokémon card breaks" })).toBeInTheDocument();
  expect(screen.getByText("Live")).toBeInTheDocument();
  expect(screen.getByText(/Logan Square Toy Exchange · Logan Square/)).toBeInTheDocument();
  expect(screen.queryByText("Hidden show")).not.toBeInTheDocument();
});

test("says so when nobody is live", async () => {
  render(<LiveNow />, { wrapper });
  expect(await screen.findByText("Nobody is live right now. Check back soon.")).toBeInTheDocument();
});
