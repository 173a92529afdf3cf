import { act, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { ConvexError } from "convex/values";
import { beforeEach, expect, test, vi } from "vitest";
import { setConvexAuth, useMockConvexAuth } from "@/test/convex-auth-mock";
import {
  convexReactMock,
  mutationCalls,
  mutationImpl,
  resetConvexMock,
  setQueryResult,
} from "@/test/convex-mock";
import { renderInRouter } from "@/test/render-in-router";
import { ShopCard } from "@/components/shops/shop-card";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { FollowShopButton } from "../follow-shop-button";
import { PENDING_ACTION_KEY } from "../pending-action";
import { WatchListProviders } from "./watch-list-providers";

vi.mock("convex/react", () => ({ ...convexReactMock, useConvexAuth: useMockConvexAuth }));

const SHOP_ID = "shop1" as Id<"liveShops">;
const NAME = "East Austin Denim Co.";

function renderButton(variant: "icon" | "full" = "full") {
  return renderInRouter(
    <WatchListProviders>
      <FollowShopButton liveShopId={SHOP_ID} liveShopName={NAME} variant={variant} />
    </WatchListProviders>,
    { path: "/live-shop/:idOrSlug", at: "/live-shop/east-austin-denim" },
  );
}

beforeEach(() => {
  resetConvexMock();
  sessionStorage.clear();
  setConvexAuth("signedIn");
});

test("shows Follow or Following from mySaved and toggles with setShopFollowed", async () => {
  setQueryResult(api.watchList.mySaved, { streamIds: [], liveShopIds: [SHOP_ID] });
  mutationImpl.current = () => new Promise(() => {});
  renderButton();
  const button = screen.getByRole("button", { name: `Follow ${NAME}` });
  expect(button).toHaveAttribute("aria-pressed", "true");
  expect(button).toHaveTextContent(`Following ${NAME}`);
  await userEvent.click(button);
  expect(button).toHaveAttribute("aria-pressed", "false");
  expect(button).toHaveTextContent(`Follow ${NAME}`);
  expect(mutationCalls).toEqual([
    { name: "watchList:setShopFollowed", args: { liveShopId: SHOP_ID, followed: false } },
  ]);
});

test("following calls setShopFollowed with followed: true; a refusal rolls back with the sentence", async () => {
  setQueryResult(api.watchList.mySaved, { streamIds: [], liveShopIds: [] });
  let reject: (error: unknown) => void = () => {};
  mutationImpl.current = () => new Promise((_resolve, fail) => (reject = fail));
  renderButton("icon");
  const button = screen.getByRole("button", { name: `Follow ${NAME}` });
  await userEvent.click(button);
  expect(button).toHaveAttribute("aria-pressed", "true");
  expect(mutationCalls).toEqual([
    { name: "watchList:setShopFollowed", args: { liveShopId: SHOP_ID, followed: true } },
  ]);
  const message = "This shop is not available any more.";
  act(() => reject(new ConvexError({ code: "NOT_FOUND", message })));
  await act(async () => {});
  expect(button).toHaveAttribute("aria-pressed", "false");
  const notices = screen.getByRole("region", { name: "Notifications" });
  expect(within(notices).getByText("Couldn't follow this shop")).toBeInTheDocument();
  expect(within(notices).getByText(message)).toBeInTheDocument();
});

test("signed out, following remembers the shop and goes to sign-in", async () => {
  setConvexAuth("signedOut");
  const router = renderButton();
  await userEvent.click(screen.getByRole("button", { name: `Follow ${NAME}` }));
  expect(router.state.location.pathname).toBe("/sign-in");
  expect(router.state.location.search).toBe(
    `?redirect=${encodeURIComponent("/live-shop/east-austin-denim")}`,
  );
  expect(JSON.parse(sessionStorage.getItem(PENDING_ACTION_KEY) ?? "null")).toMatchObject({
    kind: "followShop",
    id: SHOP_ID,
    label: NAME,
  });
});

test("a shop card has its follow button outside the card's link", () => {
  setQueryResult(api.watchList.mySaved, { streamIds: [], liveShopIds: [SHOP_ID] });
  renderInRouter(
    <WatchListProviders>
      <ShopCard
        shop={{
          _id: SHOP_ID,
          liveShopName: NAME,
          slug: "east-austin-denim",
          status: "active",
          categories: [],
          areas: [],
        }}
      />
    </WatchListProviders>,
  );
  const link = screen.getByRole("link", { name: NAME });
  const button = screen.getByRole("button", { name: `Follow ${NAME}` });
  expect(button).toHaveAttribute("aria-pressed", "true");
  expect(link).not.toContainElement(button);
  expect(button.parentElement).toHaveClass("z-10");
});
