import { act, render, screen } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { afterEach, expect, test, vi } from "vitest";
import { WatchListProviders } from "@/components/watch-list/__tests__/watch-list-providers";
import { convexBackend } from "@/test/convex-backend";
import { seedShop, seedStream } from "@/test/convex-seed";
import { StartingSoon } from "../starting-soon";

const convex = convexBackend();

const NOW = Date.UTC(2026, 10, 21, 12, 2, 0);

afterEach(() => vi.useRealTimers());

function renderSoon() {
  const router = createMemoryRouter([
    {
      path: "/",
      element: (
        <convex.wrapper>
          <WatchListProviders>
            <StartingSoon />
          </WatchListProviders>
        </convex.wrapper>
      ),
    },
  ]);
  render(<RouterProvider router={router} />);
}

test("shows upcoming shows with a countdown that ticks, and drops one once it has started", async () => {
  const seller = await convex.addUser("seller");
  const shop = await seedShop(convex, seller, { liveShopName: "Logan Square Toy Exchange" });
  await seedStream(convex, shop, { streamTitle: "Card breaks", streamStartUTC: NOW + 65_000 });
  await seedStream(convex, shop, { streamTitle: "Vintage denim", streamStartUTC: NOW + 2 * 3_600_000 });
  // Beyond the two days the section covers.
  await seedStream(convex, shop, { streamTitle: "Next week", streamStartUTC: NOW + 7 * 86_400_000 });
  // The page's clock only: the query asks from "now" rounded down to 5 minutes.
  vi.useFakeTimers({ now: NOW, toFake: ["Date", "setInterval", "clearInterval"] });
  renderSoon();
  expect(await screen.findByRole("heading", { name: "Card breaks" })).toBeInTheDocument();
  expect(screen.getByText("Starts in 1 min")).toBeInTheDocument();
  expect(screen.getByText("Starts in 2 h")).toBeInTheDocument();
  expect(screen.queryByText("Next week")).not.toBeInTheDocument();
  act(() => {
    vi.advanceTimersByTime(66_000);
  });
  expect(screen.queryByRole("heading", { name: "Card breaks" })).not.toBeInTheDocument();
  expect(screen.getByText("Starts in 1 h 58 min")).toBeInTheDocument();
});

test("says so when nothing is scheduled", async () => {
  renderSoon();
  expect(await screen.findByText("No shows are scheduled for the next two days yet.")).toBeInTheDocument();
});
