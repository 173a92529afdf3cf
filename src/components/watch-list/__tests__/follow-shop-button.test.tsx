import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ReactNode } from "react";
import { beforeEach, expect, test } from "vitest";
import { ShopCard } from "@/components/shops/shop-card";
import { convexBackend, type TestPerson } from "@/test/convex-backend";
import { holdDatabase, sentCalls } from "@/test/convex-calls";
import { seedShop } from "@/test/convex-seed";
import { renderInRouter } from "@/test/render-in-router";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { findFollowRow } from "@convex/model/watchList";
import { FollowShopButton } from "../follow-shop-button";
import { PENDING_ACTION_KEY } from "../pending-action";
import { WatchListProviders } from "./watch-list-providers";

const convex = convexBackend();

const NAME = "East Austin Denim Co.";

function inProviders(children: ReactNode) {
  return (
    <convex.wrapper>
      <WatchListProviders>{children}</WatchListProviders>
    </convex.wrapper>
  );
}

function renderButton(liveShopId: Id<"liveShops">, variant: "icon" | "full" = "full") {
  return renderInRouter(
    inProviders(<FollowShopButton liveShopId={liveShopId} liveShopName={NAME} variant={variant} />),
    { path: "/live-shop/:idOrSlug", at: "/live-shop/east-austin-denim" },
  );
}

async function denimShop(): Promise<Id<"liveShops">> {
  const seller = await convex.addUser("seller");
  return await seedShop(convex, seller, { liveShopName: NAME, slug: "east-austin-denim" });
}

const follows = (viewer: TestPerson, liveShopId: Id<"liveShops">) =>
  convex.run((ctx) => findFollowRow(ctx, viewer.userId, liveShopId));

beforeEach(() => {
  sessionStorage.clear();
});

test("shows Follow or Following from mySaved and toggles with setShopFollowed", async () => {
  const liveShopId = await denimShop();
  const viewer = await convex.signInAs("viewer");
  await convex.call(api.watchList.setShopFollowed, { liveShopId, followed: true }, viewer);
  const mutations = sentCalls(convex.client);
  renderButton(liveShopId);
  const button = screen.getByRole("button", { name: `Follow ${NAME}` });
  await waitFor(() => expect(button).toHaveAttribute("aria-pressed", "true"));
  expect(button).toHaveTextContent(`Following ${NAME}`);
  // The server does not answer yet: the button changes at once, on the client's optimistic update.
  const release = await holdDatabase(convex);
  await userEvent.click(button);
  expect(button).toHaveAttribute("aria-pressed", "false");
  expect(button).toHaveTextContent(`Follow ${NAME}`);
  expect(mutations).toEqual([{ name: "watchList:setShopFollowed", args: { liveShopId, followed: false } }]);
  await release();
  await waitFor(async () => expect(await follows(viewer, liveShopId)).toBeNull());
  expect(button).toHaveAttribute("aria-pressed", "false");
});

test("following calls setShopFollowed with followed: true; a refusal rolls back with the sentence", async () => {
  const liveShopId = await denimShop();
  const viewer = await convex.signInAs("viewer");
  const mutations = sentCalls(convex.client);
  renderButton(liveShopId, "icon");
  await convex.answered(api.watchList.mySaved, {});
  const button = screen.getByRole("button", { name: `Follow ${NAME}` });
  expect(button).toHaveAttribute("aria-pressed", "false");
  // The shop closes while the page is open: the server refuses the follow.
  await convex.run((ctx) => ctx.db.patch(liveShopId, { status: "inactive" }));
  const release = await holdDatabase(convex);
  await userEvent.click(button);
  expect(button).toHaveAttribute("aria-pressed", "true");
  expect(mutations).toEqual([{ name: "watchList:setShopFollowed", args: { liveShopId, followed: true } }]);
  await release();
  const notices = screen.getByRole("region", { name: "Notifications" });
  expect(await within(notices).findByText("Couldn't follow this shop")).toBeInTheDocument();
  expect(within(notices).getByText("This shop is not available any more.")).toBeInTheDocument();
  expect(button).toHaveAttribute("aria-pressed", "false");
  expect(await follows(viewer, liveShopId)).toBeNull();
});

test("signed out, following remembers the shop and goes to sign-in", async () => {
  const liveShopId = await denimShop();
  const mutations = sentCalls(convex.client);
  const router = renderButton(liveShopId);
  await userEvent.click(screen.getByRole("button", { name: `Follow ${NAME}` }));
  expect(router.state.location.pathname).toBe("/sign-in");
  expect(router.state.location.search).toBe(
    `?redirect=${encodeURIComponent("/live-shop/east-austin-denim")}`,
  );
  expect(JSON.parse(sessionStorage.getItem(PENDING_ACTION_KEY) ?? "null")).toMatchObject({
    kind: "followShop",
    id: liveShopId,
    label: NAME,
  });
  expect(mutations).toEqual([]);
});

test("a shop card has its follow button outside the card's link", async () => {
  const liveShopId = await denimShop();
  const viewer = await convex.signInAs("viewer");
  await convex.call(api.watchList.setShopFollowed, { liveShopId, followed: true }, viewer);
  renderInRouter(
    inProviders(
      <ShopCard
        shop={{
          _id: liveShopId,
          liveShopName: NAME,
          slug: "east-austin-denim",
          status: "active",
          categories: [],
          areas: [],
        }}
      />,
    ),
  );
  const link = screen.getByRole("link", { name: NAME });
  const button = screen.getByRole("button", { name: `Follow ${NAME}` });
  await waitFor(() => expect(button).toHaveAttribute("aria-pressed", "true"));
  expect(link).not.toContainElement(button);
  expect(button.parentElement).toHaveClass("z-10");
});
