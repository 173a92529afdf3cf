import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { beforeEach, describe, expect, test, vi } from "vitest";
import { api } from "@convex/_generated/api";
import { LIMITS } from "@convex/lib/limits";
import { ViewerTimeZoneProvider } from "@/lib/viewer-time-zone";
import { convexReactMock, mutationCalls, resetConvexMock, setQueryResult } from "@/test/convex-mock";
import { AdminActivityPage } from "../admin-activity-page";
import { AdminOverviewPage } from "../admin-overview-page";
import { AdminStreamsPage } from "../admin-streams-page";

vi.mock("convex/react", () => convexReactMock);

function renderAt(path: string, element: React.ReactNode) {
  const router = createMemoryRouter([{ path, element }], { initialEntries: [path] });
  render(<RouterProvider router={router} />);
  return router;
}

beforeEach(() => {
  resetConvexMock();
  setQueryResult(api.users.viewer, { _id: "u_admin", email: "admin@livelocal.test", role: "admin" });
});

describe("admin: overview", () => {
  test("a card per screen with what waits there; overdue requests stand out", () => {
    setQueryResult(api.admin.getOverview, {
      shopsAwaitingVerification: { count: 2, more: false },
      openPrivacyRequests: { count: 3, more: false },
      overduePrivacyRequests: { count: 1, more: false },
      liveStreams: { count: 100, more: true },
    });
    renderAt("/dashboard/admin", <AdminOverviewPage />);
    expect(screen.getByRole("heading", { name: "Admin console" })).toBeInTheDocument();
    const nav = screen.getByRole("navigation", { name: "Admin console" });
    expect(within(nav).getByRole("link", { name: "Overview" })).toHaveAttribute("aria-current", "page");

    const cards = within(screen.getByRole("list", { name: "Console screens" }));
    const shops = cards.getByRole("link", { name: /^Shops/ });
    expect(shops).toHaveAttribute("href", "/dashboard/admin/shops");
    expect(shops).toHaveTextContent("2awaiting verification");
    const privacy = cards.getByRole("link", { name: /^Privacy requests/ });
    expect(privacy).toHaveAttribute("href", "/dashboard/admin/privacy-requests");
    expect(privacy).toHaveTextContent("3open");
    expect(within(privacy).getByText("1 overdue")).toHaveClass("bg-red-100");
    expect(cards.getByRole("link", { name: /^Streams/ })).toHaveTextContent("100+live or paused now");
    expect(cards.getByRole("link", { name: /^Users & roles/ })).toHaveAttribute(
      "href",
      "/dashboard/admin/users",
    );
    expect(cards.getByRole("link", { name: /^Activity/ })).toHaveAttribute(
      "href",
      "/dashboard/admin/activity",
    );
  });

  test("no overdue badge when nothing is overdue; a wait while loading", () => {
    const { unmount } = render(
      <RouterProvider router={createMemoryRouter([{ path: "/", element: <AdminOverviewPage /> }])} />,
    );
    expect(screen.getByRole("status")).toHaveTextContent("Loading the counts…");
    unmount();
    setQueryResult(api.admin.getOverview, {
      shopsAwaitingVerification: { count: 0, more: false },
      openPrivacyRequests: { count: 1, more: false },
      overduePrivacyRequests: { count: 0, more: false },
      liveStreams: { count: 0, more: false },
    });
    renderAt("/dashboard/admin", <AdminOverviewPage />);
    expect(screen.queryByText(/overdue/)).not.toBeInTheDocument();
  });
});

describe("admin: activity", () => {
  test("each entry says who, what, on what, why and when, newest first as the server sends them", () => {
    setQueryResult(api.admin.listActivity, [
      {
        _id: "a2",
        createdAt: Date.UTC(2026, 2, 5, 15, 30),
        updatedAt: Date.UTC(2026, 2, 5, 15, 30),
        adminId: "u_admin",
        adminName: "Avery Chen",
        action: "reject_shop",
        targetTable: "liveShops",
        targetId: "s_rosa",
        targetLabel: "Rosa's Records",
        reason: "Add photos of the records you sell.",
      },
      {
        _id: "a1",
        createdAt: Date.UTC(2026, 2, 4, 9, 0),
        updatedAt: Date.UTC(2026, 2, 4, 9, 0),
        adminName: "Former Admin",
        action: "change_role",
        targetTable: "users",
        targetId: "u_vera",
        targetLabel: "Vera Viewer (viewer → seller)",
      },
    ]);
    renderAt("/dashboard/admin/activity", <AdminActivityPage />);
    const [first, second] = within(
      screen.getByRole("list", { name: "Admin actions, newest first" }),
    ).getAllByRole("listitem");
    expect(first).toHaveTextContent("Avery Chen rejected the shop Rosa's Records");
    expect(first).toHaveTextContent("Why: Add photos of the records you sell.");
    expect(within(first).getByRole("link", { name: "Rosa's Records" })).toHaveAttribute(
      "href",
      "/dashboard/liveshops/s_rosa",
    );
    expect(first.querySelector("time")).toHaveAttribute("dateTime", "2026-03-05T15:30:00.000Z");
    expect(first).toHaveTextContent("Mar 5, 2026");
    expect(second).toHaveTextContent("Former Admin changed the role of Vera Viewer (viewer → seller)");
    expect(second).not.toHaveTextContent("Why:");
    expect(within(second).queryByRole("link")).not.toBeInTheDocument();
  });

  test("an empty log says so", () => {
    setQueryResult(api.admin.listActivity, []);
    renderAt("/dashboard/admin/activity", <AdminActivityPage />);
    expect(screen.getByText("No admin has taken an action yet.")).toBeInTheDocument();
  });
});

describe("admin: streams", () => {
  const LIVE = {
    _id: "st_live",
    streamTitle: "Denim drop",
    streamStatus: "LIVE",
    streamStartUTC: Date.UTC(2026, 2, 5, 15),
    streamStopUTC: Date.UTC(2026, 2, 5, 17),
    timezone: "America/New_York",
    liveShopId: "s_sarah",
    liveShopName: "Sarah's Vintage",
    liveShopSlug: "sarahs-vintage",
    shopStatus: "active",
  };

  test("force-ending asks why, with the limit shown, and sends nothing without a reason; pausing only asks", async () => {
    // The mock answers every status section with the same rows: read the "Live now" one.
    setQueryResult(api.admin.listStreams, [LIVE]);
    renderAt("/dashboard/admin/streams", <AdminStreamsPage />);
    const live = screen.getByRole("region", { name: "Live now" });
    expect(live).toHaveTextContent("Sarah's Vintage");
    expect(within(live).getByRole("link", { name: "Denim drop" })).toHaveAttribute("href", "/stream/st_live");

    await userEvent.click(within(live).getByRole("button", { name: "End stream…" }));
    let dialog = screen.getByRole("dialog", { name: "End “Denim drop” now?" });
    expect(dialog).toHaveTextContent("sees your reason");
    await userEvent.click(within(dialog).getByRole("button", { name: "Keep it live" }));
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(mutationCalls).toEqual([]);

    await userEvent.click(within(live).getByRole("button", { name: "End stream…" }));
    dialog = screen.getByRole("dialog", { name: "End “Denim drop” now?" });
    const reason = within(dialog).getByRole("textbox", { name: "Reason, shown to the stream's seller" });
    expect(reason).toHaveFocus();
    expect(dialog).toHaveTextContent(`0/${LIMITS.statusReason} characters`);
    await userEvent.click(within(dialog).getByRole("button", { name: "End stream" }));
    expect(reason).toHaveAccessibleDescription(/Give a reason: the stream's seller will read it\./);
    expect(mutationCalls).toEqual([]);

    await userEvent.type(reason, "Counterfeit goods on air.");
    expect(dialog).toHaveTextContent(`25/${LIMITS.statusReason} characters`);
    await userEvent.click(within(dialog).getByRole("button", { name: "End stream" }));
    expect(mutationCalls).toEqual([
      {
        name: "streams:setStreamStatus",
        args: { streamId: "st_live", status: "ENDED", reason: "Counterfeit goods on air." },
      },
    ]);
    expect(await screen.findByRole("status")).toHaveTextContent("“Denim drop” is ended.");
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();

    await userEvent.click(within(live).getByRole("button", { name: "Pause" }));
    await userEvent.click(
      within(screen.getByRole("alertdialog")).getByRole("button", { name: "Pause stream" }),
    );
    expect(mutationCalls.at(-1)).toEqual({
      name: "streams:setStreamStatus",
      args: { streamId: "st_live", status: "PAUSED" },
    });
  });

  // Issue 17 item 3: the admin's own zone first, the shop's beside it where it reads differently.
  function liveSectionIn(timeZone: string) {
    renderAt(
      "/dashboard/admin/streams",
      <ViewerTimeZoneProvider timeZone={timeZone}>
        <AdminStreamsPage />
      </ViewerTimeZoneProvider>,
    );
    return within(screen.getByRole("region", { name: "Live now" }));
  }

  test("times read in the admin's zone, with the shop's time", () => {
    setQueryResult(api.admin.listStreams, [LIVE, { ...LIVE, _id: "st_open", streamStopUTC: undefined }]);
    const live = liveSectionIn("Europe/Berlin");
    expect(live.getByText("Thu, Mar 5, 4:00 – 6:00 PM GMT+1")).toBeInTheDocument();
    expect(live.getByText("Shop time: Thu, Mar 5, 10:00 AM – 12:00 PM EST")).toBeInTheDocument();
    expect(live.getByText("Since Thu, Mar 5, 4:00 PM GMT+1")).toBeInTheDocument();
    expect(live.getByText("Shop time: Since Thu, Mar 5, 10:00 AM EST")).toBeInTheDocument();
  });

  test("an admin in the shop's zone reads one time", () => {
    setQueryResult(api.admin.listStreams, [LIVE]);
    const live = liveSectionIn("America/New_York");
    expect(live.getByText("Thu, Mar 5, 10:00 AM – 12:00 PM EST")).toBeInTheDocument();
    expect(live.queryByText(/Shop time/)).not.toBeInTheDocument();
  });

  test("a reason over the limit is refused before sending", async () => {
    setQueryResult(api.admin.listStreams, [LIVE]);
    renderAt("/dashboard/admin/streams", <AdminStreamsPage />);
    const live = screen.getByRole("region", { name: "Live now" });
    await userEvent.click(within(live).getByRole("button", { name: "End stream…" }));
    const dialog = screen.getByRole("dialog");
    const reason = within(dialog).getByRole("textbox");
    await userEvent.click(reason);
    await userEvent.paste("x".repeat(LIMITS.statusReason + 1));
    await userEvent.click(within(dialog).getByRole("button", { name: "End stream" }));
    expect(reason).toHaveAccessibleDescription(/Keep the reason to 500 characters\./);
    expect(mutationCalls).toEqual([]);
  });

  test("a scheduled stream can only be cancelled, with a reason", async () => {
    setQueryResult(api.admin.listStreams, [{ ...LIVE, _id: "st_later", streamStatus: "SCHEDULED" }]);
    renderAt("/dashboard/admin/streams", <AdminStreamsPage />);
    const upcoming = screen.getByRole("region", { name: "Upcoming" });
    expect(
      within(upcoming)
        .getAllByRole("button")
        .map((button) => button.textContent),
    ).toEqual(["Cancel stream…"]);
    await userEvent.click(within(upcoming).getByRole("button", { name: "Cancel stream…" }));
    const dialog = screen.getByRole("dialog", { name: "Cancel “Denim drop”?" });
    await userEvent.type(within(dialog).getByRole("textbox"), "Listed twice.");
    await userEvent.click(within(dialog).getByRole("button", { name: "Cancel stream" }));
    expect(mutationCalls).toEqual([
      {
        name: "streams:setStreamStatus",
        args: { streamId: "st_later", status: "CANCELLED", reason: "Listed twice." },
      },
    ]);
  });

  test("empty sections say so", () => {
    setQueryResult(api.admin.listStreams, []);
    renderAt("/dashboard/admin/streams", <AdminStreamsPage />);
    expect(screen.getByText("No stream is live right now.")).toBeInTheDocument();
    expect(screen.getByText("No stream is paused.")).toBeInTheDocument();
    expect(screen.getByText("No stream is scheduled.")).toBeInTheDocument();
  });
});
