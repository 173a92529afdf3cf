import { act, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { ConvexError } from "convex/values";
import { beforeEach, describe, expect, test, vi } from "vitest";
import { api } from "@convex/_generated/api";
import {
  convexReactMock,
  mutationCalls,
  mutationImpl,
  resetConvexMock,
  setQueryResult,
} from "@/test/convex-mock";
import { renderInRouter } from "@/test/render-in-router";
import { DashboardPage } from "./dashboard-page";

vi.mock("convex/react", () => convexReactMock);

const HOUR = 60 * 60 * 1000;
const denim = {
  _id: "a",
  streamTitle: "Denim drop",
  streamStatus: "SCHEDULED",
  liveShopName: "Sarah's Vintage",
  liveShopSlug: "sarahs-vintage",
  timezone: "America/New_York",
  streamStartUTC: Date.now() + HOUR,
  streamStopUTC: Date.now() + 2 * HOUR,
};
const shopWith = (...streams: object[]) => [
  { liveShopId: "s1", liveShopName: "Sarah's Vintage", status: "active", streams },
];

/** A server that answers when the test says so. */
function pendingServer() {
  const answer: { resolve: (value: unknown) => void; reject: (error: unknown) => void } = {
    resolve: () => undefined,
    reject: () => undefined,
  };
  mutationImpl.current = () =>
    new Promise((resolve, reject) => {
      answer.resolve = resolve;
      answer.reject = reject;
    });
  return answer;
}

beforeEach(() => {
  resetConvexMock();
  setQueryResult(api.users.viewer, {
    _id: "u1",
    email: "sarah@livelocal.test",
    name: "Sarah",
    role: "seller",
  });
  setQueryResult(api.liveShops.listMyShops, [
    { _id: "s1", liveShopName: "Sarah's Vintage", slug: "sarahs-vintage", status: "active", updatedAt: 0 },
  ]);
  setQueryResult(api.streams.listMyStreams, shopWith(denim));
  renderInRouter(<DashboardPage />, { path: "/dashboard" });
});

describe("optimistic status controls", () => {
  test("going live shows at once, before the server answers", async () => {
    pendingServer();
    await userEvent.click(screen.getByRole("button", { name: "Go live" }));
    const live = screen.getByRole("region", { name: "Live now" });
    expect(within(live).getByText("Denim drop")).toBeInTheDocument();
    expect(within(live).getByRole("button", { name: "Pause" })).toBeInTheDocument();
    expect(screen.queryByRole("region", { name: "Upcoming" })).not.toBeInTheDocument();
  });

  test("a refusal puts the stream back where it was and says why", async () => {
    const server = pendingServer();
    await userEvent.click(screen.getByRole("button", { name: "Go live" }));
    expect(screen.getByRole("region", { name: "Live now" })).toBeInTheDocument();

    await act(async () => {
      server.reject(
        new ConvexError({
          code: "SHOP_NOT_ACTIVE",
          message: "The shop must be active (verified and open) first.",
        }),
      );
      await Promise.resolve();
    });
    const upcoming = screen.getByRole("region", { name: "Upcoming" });
    expect(within(upcoming).getByRole("button", { name: "Go live" })).toBeInTheDocument();
    expect(screen.queryByRole("region", { name: "Live now" })).not.toBeInTheDocument();
    expect(within(upcoming).getByRole("alert")).toHaveTextContent(
      "The shop must be active (verified and open) first.",
    );
  });

  test("when the server agrees, the new status stays", async () => {
    mutationImpl.current = () => {
      setQueryResult(api.streams.listMyStreams, shopWith({ ...denim, streamStatus: "LIVE" }));
      return Promise.resolve(null);
    };
    await userEvent.click(screen.getByRole("button", { name: "Go live" }));
    expect(await screen.findByRole("region", { name: "Live now" })).toBeInTheDocument();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });

  test("a rule the browser can check is answered without asking the server", async () => {
    setQueryResult(
      api.streams.listMyStreams,
      shopWith({ ...denim, streamStatus: "CREATED", streamStartUTC: undefined, streamStopUTC: undefined }),
    );
    await userEvent.click(await screen.findByRole("button", { name: "Schedule" }));
    expect(screen.getByRole("alert")).toHaveTextContent("Set a start and a stop time first.");
    expect(mutationCalls).toEqual([]);
  });
});
