import { render, screen, within } from "@testing-library/react";
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
import { DashboardPage } from "./dashboard-page";

vi.mock("convex/react", () => convexReactMock);

const stream = (id: string, streamTitle: string, streamStatus: string) => ({
  _id: id,
  streamTitle,
  streamStatus,
  liveShopName: "Sarah's Vintage",
  liveShopSlug: "sarahs-vintage",
  timezone: "America/New_York",
  streamStartUTC: Date.UTC(2026, 10, 21, 23, 30),
});

beforeEach(() => {
  resetConvexMock();
  setQueryResult(api.users.viewer, {
    _id: "u1",
    email: "sarah@livelocal.test",
    name: "Sarah",
    role: "seller",
  });
  setQueryResult(api.streams.listMyStreams, [
    {
      liveShopId: "s1",
      liveShopName: "Sarah's Vintage",
      status: "active",
      streams: [stream("a", "Denim drop", "SCHEDULED"), stream("b", "Boot sale", "LIVE")],
    },
  ]);
});

describe("dashboard", () => {
  test("groups the seller's streams and offers the lifecycle's buttons", () => {
    render(<DashboardPage />);
    expect(screen.getByRole("heading", { name: "Dashboard" })).toBeInTheDocument();
    const denim = screen.getByRole("group", { name: "Status of Denim drop" });
    expect(within(denim).getByRole("button", { name: "Go live" })).toBeInTheDocument();
    expect(within(denim).getByRole("button", { name: "Cancel" })).toBeInTheDocument();
    const boots = screen.getByRole("group", { name: "Status of Boot sale" });
    expect(within(boots).getByRole("button", { name: "Pause" })).toBeInTheDocument();
    expect(within(boots).getByRole("button", { name: "End" })).toBeInTheDocument();
  });

  test("Go live calls setStreamStatus for that stream", async () => {
    render(<DashboardPage />);
    await userEvent.click(screen.getByRole("button", { name: "Go live" }));
    expect(mutationCalls).toEqual([
      { name: "streams:setStreamStatus", args: { streamId: "a", status: "LIVE" } },
    ]);
  });

  test("ending asks first, and does nothing when the seller says no", async () => {
    const confirm = vi.spyOn(window, "confirm").mockReturnValue(false);
    render(<DashboardPage />);
    await userEvent.click(screen.getByRole("button", { name: "End" }));
    expect(confirm).toHaveBeenCalled();
    expect(mutationCalls).toEqual([]);
  });

  test("a refusal from the server is shown in words", async () => {
    mutationImpl.current = () =>
      Promise.reject(new ConvexError({ code: "SHOP_NOT_ACTIVE", message: "The shop must be active first." }));
    render(<DashboardPage />);
    await userEvent.click(screen.getByRole("button", { name: "Go live" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("The shop must be active first.");
  });

  test("a user without a shop is told where shops are run", () => {
    setQueryResult(api.streams.listMyStreams, []);
    render(<DashboardPage />);
    expect(screen.getByText(/You have no live shop yet/)).toBeInTheDocument();
  });
});
