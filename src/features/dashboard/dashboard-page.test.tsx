import { screen, within } from "@testing-library/react";
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
import { ViewerTimeZoneProvider } from "@/lib/viewer-time-zone";
import { renderInRouter } from "@/test/render-in-router";
import { DashboardPage } from "./dashboard-page";

vi.mock("convex/react", () => convexReactMock);

const HOUR = 60 * 60 * 1000;

const stream = (id: string, streamTitle: string, streamStatus: string, times: object = {}) => ({
  _id: id,
  streamTitle,
  streamStatus,
  liveShopName: "Sarah's Vintage",
  liveShopSlug: "sarahs-vintage",
  timezone: "America/New_York",
  streamStartUTC: Date.now() + 2 * HOUR,
  streamStopUTC: Date.now() + 3 * HOUR,
  ...times,
});

/** The seller is in Berlin unless told otherwise; the fixture's shop is in New York. */
function renderDashboard(timeZone = "Europe/Berlin") {
  return renderInRouter(
    <ViewerTimeZoneProvider timeZone={timeZone}>
      <DashboardPage />
    </ViewerTimeZoneProvider>,
    { path: "/dashboard" },
  );
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
    renderDashboard();
    expect(screen.getByRole("heading", { name: "Dashboard" })).toBeInTheDocument();
    const upcoming = screen.getByRole("region", { name: "Upcoming" });
    const denim = within(upcoming).getByRole("group", { name: "Status of Denim drop" });
    expect(within(denim).getByRole("button", { name: "Go live" })).toBeInTheDocument();
    expect(within(denim).getByRole("button", { name: "Cancel" })).toBeInTheDocument();
    const live = screen.getByRole("region", { name: "Live now" });
    const boots = within(live).getByRole("group", { name: "Status of Boot sale" });
    expect(within(boots).getByRole("button", { name: "Pause" })).toBeInTheDocument();
    expect(within(boots).getByRole("button", { name: "End" })).toBeInTheDocument();
  });

  test("Go live calls setStreamStatus for that stream", async () => {
    renderDashboard();
    await userEvent.click(screen.getByRole("button", { name: "Go live" }));
    expect(mutationCalls).toEqual([
      { name: "streams:setStreamStatus", args: { streamId: "a", status: "LIVE" } },
    ]);
  });

  test("ending asks first in a dialog, and does nothing when the seller keeps streaming", async () => {
    renderDashboard();
    await userEvent.click(screen.getByRole("button", { name: "End" }));
    const dialog = screen.getByRole("alertdialog", { name: "End “Boot sale” now?" });
    expect(within(dialog).getByRole("button", { name: "Keep streaming" })).toHaveFocus();
    await userEvent.click(within(dialog).getByRole("button", { name: "Keep streaming" }));
    expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument();
    expect(mutationCalls).toEqual([]);

    await userEvent.click(screen.getByRole("button", { name: "End" }));
    await userEvent.click(screen.getByRole("button", { name: "End stream" }));
    expect(mutationCalls).toEqual([
      { name: "streams:setStreamStatus", args: { streamId: "b", status: "ENDED" } },
    ]);
  });

  test("Escape closes the confirm dialog without ending the show", async () => {
    renderDashboard();
    await userEvent.click(screen.getByRole("button", { name: "End" }));
    await userEvent.keyboard("{Escape}");
    expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument();
    expect(mutationCalls).toEqual([]);
  });

  test("a refusal from the server is shown in words", async () => {
    mutationImpl.current = () =>
      Promise.reject(new ConvexError({ code: "SHOP_NOT_ACTIVE", message: "The shop must be active first." }));
    renderDashboard();
    await userEvent.click(screen.getByRole("button", { name: "Go live" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("The shop must be active first.");
  });

  test("a user without a shop is told how to open one", () => {
    setQueryResult(api.liveShops.listMyShops, []);
    setQueryResult(api.streams.listMyStreams, []);
    renderDashboard();
    expect(screen.getByText(/You have no live shop yet/)).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Open a live shop" })).toHaveAttribute(
      "href",
      "/dashboard/liveshops/new",
    );
  });

  // Issue 17 item 3: the seller's own zone, the shop's beside it where it reads differently.
  describe("a missed start", () => {
    beforeEach(() => {
      const start = Date.UTC(2026, 2, 5, 15);
      setQueryResult(api.streams.listMyStreams, [
        {
          liveShopId: "s1",
          liveShopName: "Sarah's Vintage",
          status: "active",
          streams: [
            stream("a", "Denim drop", "SCHEDULED", { streamStartUTC: start, streamStopUTC: start + HOUR }),
          ],
        },
      ]);
    });
    const attention = () => within(screen.getByRole("region", { name: "Needs attention" }));

    test("reads in the seller's zone, with the shop's time", () => {
      renderDashboard("Europe/Berlin");
      expect(
        attention().getByText("“Denim drop” was due to start Thu, Mar 5, 4:00 PM GMT+1"),
      ).toBeInTheDocument();
      expect(
        attention().getByText(
          "Shop time: Thu, Mar 5, 10:00 AM EST. Go live, change its times, or cancel it.",
        ),
      ).toBeInTheDocument();
    });

    test("reads once for a seller in the shop's zone", () => {
      renderDashboard("America/New_York");
      expect(
        attention().getByText("“Denim drop” was due to start Thu, Mar 5, 10:00 AM EST"),
      ).toBeInTheDocument();
      expect(attention().getByText("Go live, change its times, or cancel it.")).toBeInTheDocument();
    });
  });

  test("shows each shop's status and admin note, and what needs attention", () => {
    setQueryResult(api.liveShops.listMyShops, [
      {
        _id: "s1",
        liveShopName: "Sarah's Vintage",
        slug: "sarahs-vintage",
        status: "draft",
        statusReason: "Add a photo of your storefront.",
        updatedAt: 0,
      },
    ]);
    setQueryResult(api.streams.listMyStreams, [
      {
        liveShopId: "s1",
        liveShopName: "Sarah's Vintage",
        status: "draft",
        streams: [
          stream("a", "Denim drop", "SCHEDULED", { streamStartUTC: Date.now() - HOUR }),
          stream("c", "Hat try-on", "CREATED", { streamStartUTC: undefined, streamStopUTC: undefined }),
          stream("d", "Scarf swap", "SCHEDULED"),
        ],
      },
    ]);
    renderDashboard();
    const shops = screen.getByRole("region", { name: "Your live shops" });
    expect(within(shops).getByText("Draft")).toBeInTheDocument();
    expect(within(shops).getByText("Add a photo of your storefront.")).toBeInTheDocument();

    const attention = screen.getByRole("region", { name: "Needs attention" });
    expect(within(attention).getByText("Sarah's Vintage was sent back by an admin")).toBeInTheDocument();
    expect(within(attention).getByText(/“Denim drop” was due to start/)).toBeInTheDocument();
    expect(within(attention).getByText("“Hat try-on” needs a start and a stop time")).toBeInTheDocument();
    expect(within(attention).queryByText(/Scarf swap/)).not.toBeInTheDocument();
    expect(within(attention).getByRole("link", { name: "Edit Sarah's Vintage" })).toHaveAttribute(
      "href",
      "/dashboard/liveshops/s1",
    );
  });

  test("links to the shops and streams pages", () => {
    renderDashboard();
    const nav = screen.getByRole("navigation", { name: "Dashboard" });
    expect(within(nav).getByRole("link", { name: "Live shops" })).toHaveAttribute(
      "href",
      "/dashboard/liveshops",
    );
    expect(within(nav).getByRole("link", { name: "Streams" })).toHaveAttribute("href", "/dashboard/streams");
    expect(within(nav).getByRole("link", { name: "Settings" })).toHaveAttribute(
      "href",
      "/dashboard/settings",
    );
    expect(within(nav).queryByRole("link", { name: "Admin" })).not.toBeInTheDocument();
  });

  test("a viewer who still owns a shop is told it is hidden, why and what brings it back, with no controls", () => {
    setQueryResult(api.users.viewer, {
      _id: "u1",
      email: "sarah@livelocal.test",
      name: "Sarah",
      role: "viewer",
    });
    renderDashboard();
    const banner = screen.getByRole("region", { name: "Your shops are hidden" });
    expect(banner).toHaveTextContent("An admin made your account a viewer, and only sellers run shops.");
    expect(screen.getByText("Boot sale")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Pause" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Go live" })).not.toBeInTheDocument();
    expect(screen.queryByRole("link", { name: /New stream/ })).not.toBeInTheDocument();
  });

  test("a seller sees no such notice", () => {
    renderDashboard();
    expect(screen.queryByRole("region", { name: "Your shops are hidden" })).not.toBeInTheDocument();
  });

  test("a restricted seller is told her shop and shows are hidden, since when, and what lifts it", () => {
    setQueryResult(api.users.viewer, {
      _id: "u1",
      email: "sarah@livelocal.test",
      name: "Sarah",
      role: "seller",
      restrictedAt: Date.UTC(2026, 2, 4, 12),
    });
    setQueryResult(api.liveShops.listMyShops, [
      {
        _id: "s1",
        liveShopName: "Sarah's Vintage",
        slug: "sarahs-vintage",
        status: "active",
        hiddenFromPublic: true,
        updatedAt: 0,
      },
    ]);
    setQueryResult(api.streams.listMyStreams, [
      {
        liveShopId: "s1",
        liveShopName: "Sarah's Vintage",
        status: "active",
        hiddenFromPublic: true,
        streams: [stream("b", "Boot sale", "LIVE"), stream("d", "Draft idea", "CREATED")],
      },
    ]);
    renderDashboard();
    const banner = screen.getByRole("region", { name: "Your shops are hidden" });
    expect(banner).toHaveTextContent(
      "Processing of your data has been restricted at your request since Mar 4, 2026",
    );
    expect(banner).toHaveTextContent("a show you take live reaches no one");
    expect(banner).toHaveTextContent("They are shown again when a LiveLocal admin lifts the restriction.");
    expect(within(banner).getByRole("link", { name: "Your privacy requests" })).toHaveAttribute(
      "href",
      "/dashboard/settings#privacy-requests",
    );
    expect(banner).not.toHaveTextContent("made your account a viewer");
    // Where she works: the shop's card and the live show say so beside their status.
    const shops = screen.getByRole("region", { name: "Your live shops" });
    expect(within(shops).getByText("Hidden from the public")).toBeInTheDocument();
    const live = screen.getByRole("region", { name: "Live now" });
    expect(within(live).getByText("Hidden from the public")).toBeInTheDocument();
    expect(
      within(screen.getByRole("region", { name: "Drafts" })).queryByText("Hidden from the public"),
    ).not.toBeInTheDocument();
    // She still runs them.
    expect(within(live).getByRole("button", { name: "Pause" })).toBeInTheDocument();
  });
});
