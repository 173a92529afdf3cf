import { cleanup, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import type { Id } from "@convex/_generated/dataModel";
import { LIMITS } from "@convex/lib/limits";
import { insertStream } from "@convex/model/streams";
import type { PrivacyRequestStatus } from "@convex/lib/constants";
import { ViewerTimeZoneProvider } from "@/lib/viewer-time-zone";
import { convexBackend, type TestPerson } from "@/test/convex-backend";
import { sentCalls, type SentCall } from "@/test/convex-calls";
import { readDoc, seedShop, seedStream } from "@/test/convex-seed";
import { AdminActivityPage } from "../admin-activity-page";
import { AdminOverviewPage } from "../admin-overview-page";
import { AdminStreamsPage } from "../admin-streams-page";
import { ShopInsightsPage } from "../shop-insights-page";

const convex = convexBackend();
let admin: TestPerson;
let calls: SentCall[];

afterEach(() => vi.restoreAllMocks());

beforeEach(async () => {
  admin = await convex.signInAs("admin", { name: "Avery Chen" });
  calls = sentCalls(convex.client);
});

/** `element` at `path`, under the route `route` (a pattern with parameters, or `path` itself). */
function renderAt(path: string, element: React.ReactNode, route = path) {
  const router = createMemoryRouter([{ path: route, element }], { initialEntries: [path] });
  render(
    <convex.wrapper>
      <RouterProvider router={router} />
    </convex.wrapper>,
  );
  return router;
}

const DAY = 24 * 60 * 60 * 1000;

/** A privacy request of a new person, due `dueIn` from now (negative: overdue). */
async function seedPrivacyRequest(key: string, status: PrivacyRequestStatus, dueIn = 20 * DAY) {
  const person = await convex.addUser("viewer", { key });
  await convex.run(async (ctx) => {
    const now = Date.now();
    await ctx.db.insert("privacyRequests", {
      userId: person.userId,
      type:
        status === "pending_export" ? "access" : status === "pending_deletion" ? "deletion" : "restriction",
      status,
      requestedAt: now + dueIn - 30 * DAY,
      dueAt: now + dueIn,
      createdAt: now,
      updatedAt: now,
    });
  });
}

describe("admin: overview", () => {
  test("a card per screen with what waits there; overdue requests stand out", async () => {
    const seller = await convex.addUser("seller");
    const shop = await seedShop(convex, seller, { liveShopName: "Rosa's Records" });
    await seedShop(convex, seller, { liveShopName: "Awaiting One", status: "pending_verification" });
    await seedShop(convex, seller, { liveShopName: "Awaiting Two", status: "pending_verification" });
    await seedPrivacyRequest("p1", "pending_export");
    await seedPrivacyRequest("p2", "pending_deletion", -DAY);
    await seedPrivacyRequest("p3", "pending_review");
    // One more than the overview counts: it shows "100+".
    await convex.run(async (ctx) => {
      for (let index = 0; index < 101; index++) {
        await insertStream(ctx, {
          liveShopId: shop,
          streamTitle: `Show ${index}`,
          streamStatus: index % 2 ? "LIVE" : "PAUSED",
          streamStartUTC: Date.now() - DAY,
        });
      }
    });
    renderAt("/dashboard/admin", <AdminOverviewPage />);
    expect(screen.getByRole("heading", { name: "Admin console" })).toBeInTheDocument();
    const nav = screen.getByRole("navigation", { name: "Admin console" });
    expect(within(nav).getByRole("link", { name: "Overview" })).toHaveAttribute("aria-current", "page");

    const cards = within(screen.getByRole("list", { name: "Console screens" }));
    const shops = cards.getByRole("link", { name: /^Shops/ });
    expect(shops).toHaveAttribute("href", "/dashboard/admin/shops");
    await waitFor(() => expect(shops).toHaveTextContent("2awaiting verification"));
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

  test("no overdue badge when nothing is overdue; a wait while loading", async () => {
    await seedPrivacyRequest("p1", "pending_review");
    renderAt("/dashboard/admin", <AdminOverviewPage />);
    expect(screen.getByRole("status")).toHaveTextContent("Loading the counts…");
    const cards = within(screen.getByRole("list", { name: "Console screens" }));
    const privacy = cards.getByRole("link", { name: /^Privacy requests/ });
    await waitFor(() => expect(privacy).toHaveTextContent("1open"));
    expect(screen.queryByText(/overdue/)).not.toBeInTheDocument();
  });
});

describe("admin: activity", () => {
  test("each entry says who, what, on what, why and when, newest first as the server sends them", async () => {
    const rosa = await seedShop(convex, await convex.addUser("seller"), { liveShopName: "Rosa's Records" });
    const vera = await convex.addUser("viewer", { key: "vera", name: "Vera Viewer" });
    // Written oldest first: the log lists the newest first.
    await convex.run(async (ctx) => {
      await ctx.db.insert("adminActions", {
        createdAt: Date.UTC(2026, 2, 4, 9, 0),
        updatedAt: Date.UTC(2026, 2, 4, 9, 0),
        adminName: "Former Admin",
        action: "change_role",
        targetTable: "users",
        targetId: vera.userId,
        targetLabel: "Vera Viewer (viewer → seller)",
      });
      await ctx.db.insert("adminActions", {
        createdAt: Date.UTC(2026, 2, 5, 15, 30),
        updatedAt: Date.UTC(2026, 2, 5, 15, 30),
        adminId: admin.userId,
        adminName: "Avery Chen",
        action: "reject_shop",
        targetTable: "liveShops",
        targetId: rosa,
        targetLabel: "Rosa's Records",
        reason: "Add photos of the records you sell.",
      });
    });
    renderAt("/dashboard/admin/activity", <AdminActivityPage />);
    const [first, second] = within(
      await screen.findByRole("list", { name: "Admin actions, newest first" }),
    ).getAllByRole("listitem");
    expect(first).toHaveTextContent("Avery Chen rejected the shop Rosa's Records");
    expect(first).toHaveTextContent("Why: Add photos of the records you sell.");
    expect(within(first).getByRole("link", { name: "Rosa's Records" })).toHaveAttribute(
      "href",
      `/dashboard/liveshops/${rosa}`,
    );
    expect(first.querySelector("time")).toHaveAttribute("dateTime", "2026-03-05T15:30:00.000Z");
    expect(first).toHaveTextContent("Mar 5, 2026");
    expect(second).toHaveTextContent("Former Admin changed the role of Vera Viewer (viewer → seller)");
    expect(second).not.toHaveTextContent("Why:");
    expect(within(second).queryByRole("link")).not.toBeInTheDocument();
  });

  test("an empty log says so", async () => {
    renderAt("/dashboard/admin/activity", <AdminActivityPage />);
    expect(await screen.findByText("No admin has taken an action yet.")).toBeInTheDocument();
  });
});

describe("admin: streams", () => {
  const START = Date.UTC(2026, 2, 5, 15);
  const LIVE = {
    streamTitle: "Denim drop",
    streamStatus: "LIVE" as const,
    streamStartUTC: START,
    streamStopUTC: START + 2 * 60 * 60 * 1000,
  };

  async function sarahsShop() {
    return await seedShop(convex, await convex.addUser("seller", { name: "Sarah Kim" }), {
      liveShopName: "Sarah's Vintage",
      timezone: "America/New_York",
    });
  }

  async function streamStatus(streamId: Id<"streams">) {
    return (await readDoc(convex, streamId))?.streamStatus;
  }

  test("force-ending asks why, with the limit shown, and sends nothing without a reason; pausing only asks", async () => {
    const shop = await sarahsShop();
    const denim = await seedStream(convex, shop, LIVE);
    const boots = await seedStream(convex, shop, { ...LIVE, streamTitle: "Boot sale" });
    renderAt("/dashboard/admin/streams", <AdminStreamsPage />);
    const live = screen.getByRole("region", { name: "Live now" });
    const denimRow = within(await within(live).findByRole("group", { name: "Moderate Denim drop" }));
    expect(live).toHaveTextContent("Sarah's Vintage");
    expect(within(live).getByRole("link", { name: "Denim drop" })).toHaveAttribute(
      "href",
      `/stream/${denim}`,
    );

    await userEvent.click(denimRow.getByRole("button", { name: "End stream…" }));
    let dialog = screen.getByRole("dialog", { name: "End “Denim drop” now?" });
    expect(dialog).toHaveTextContent("sees your reason");
    await userEvent.click(within(dialog).getByRole("button", { name: "Keep it live" }));
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(calls).toEqual([]);

    await userEvent.click(denimRow.getByRole("button", { name: "End stream…" }));
    dialog = screen.getByRole("dialog", { name: "End “Denim drop” now?" });
    const reason = within(dialog).getByRole("textbox", { name: "Reason, shown to the stream's seller" });
    expect(reason).toHaveFocus();
    expect(dialog).toHaveTextContent(`0/${LIMITS.statusReason} characters`);
    await userEvent.click(within(dialog).getByRole("button", { name: "End stream" }));
    expect(reason).toHaveAccessibleDescription(/Give a reason: the stream's seller will read it\./);
    expect(calls).toEqual([]);

    await userEvent.type(reason, "Counterfeit goods on air.");
    expect(dialog).toHaveTextContent(`25/${LIMITS.statusReason} characters`);
    await userEvent.click(within(dialog).getByRole("button", { name: "End stream" }));
    expect(calls).toEqual([
      {
        name: "streams:setStreamStatus",
        args: { streamId: denim, status: "ENDED", reason: "Counterfeit goods on air." },
      },
    ]);
    expect(await screen.findByRole("status")).toHaveTextContent("“Denim drop” is ended.");
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(await readDoc(convex, denim)).toMatchObject({
      streamStatus: "ENDED",
      statusReason: "Counterfeit goods on air.",
    });
    // Ended, it leaves the live section.
    await waitFor(() => expect(within(live).queryByText("Denim drop")).not.toBeInTheDocument());

    const bootsRow = within(within(live).getByRole("group", { name: "Moderate Boot sale" }));
    await userEvent.click(bootsRow.getByRole("button", { name: "Pause" }));
    await userEvent.click(
      within(screen.getByRole("alertdialog")).getByRole("button", { name: "Pause stream" }),
    );
    expect(calls.at(-1)).toEqual({
      name: "streams:setStreamStatus",
      args: { streamId: boots, status: "PAUSED" },
    });
    await waitFor(async () => expect(await streamStatus(boots)).toBe("PAUSED"));
  });

  // Issue 17 item 3: the admin's own zone first, the shop's beside it where it reads differently.
  async function liveSectionIn(timeZone: string) {
    renderAt(
      "/dashboard/admin/streams",
      <ViewerTimeZoneProvider timeZone={timeZone}>
        <AdminStreamsPage />
      </ViewerTimeZoneProvider>,
    );
    const live = screen.getByRole("region", { name: "Live now" });
    await within(live).findByRole("list");
    return within(live);
  }

  test("times read in the admin's zone, with the shop's time", async () => {
    const shop = await sarahsShop();
    await seedStream(convex, shop, LIVE);
    await seedStream(convex, shop, { ...LIVE, streamTitle: "Open end", streamStopUTC: undefined });
    const live = await liveSectionIn("Europe/Berlin");
    expect(live.getByText("Thu, Mar 5, 4:00 – 6:00 PM GMT+1")).toBeInTheDocument();
    expect(live.getByText("Shop time: Thu, Mar 5, 10:00 AM – 12:00 PM EST")).toBeInTheDocument();
    expect(live.getByText("Since Thu, Mar 5, 4:00 PM GMT+1")).toBeInTheDocument();
    expect(live.getByText("Shop time: Since Thu, Mar 5, 10:00 AM EST")).toBeInTheDocument();
  });

  test("an admin in the shop's zone reads one time", async () => {
    await seedStream(convex, await sarahsShop(), LIVE);
    const live = await liveSectionIn("America/New_York");
    expect(live.getByText("Thu, Mar 5, 10:00 AM – 12:00 PM EST")).toBeInTheDocument();
    expect(live.queryByText(/Shop time/)).not.toBeInTheDocument();
  });

  test("a reason over the limit is refused before sending", async () => {
    await seedStream(convex, await sarahsShop(), LIVE);
    renderAt("/dashboard/admin/streams", <AdminStreamsPage />);
    const live = screen.getByRole("region", { name: "Live now" });
    await userEvent.click(await within(live).findByRole("button", { name: "End stream…" }));
    const dialog = screen.getByRole("dialog");
    const reason = within(dialog).getByRole("textbox");
    await userEvent.click(reason);
    await userEvent.paste("x".repeat(LIMITS.statusReason + 1));
    await userEvent.click(within(dialog).getByRole("button", { name: "End stream" }));
    expect(reason).toHaveAccessibleDescription(/Keep the reason to 500 characters\./);
    expect(calls).toEqual([]);
  });

  test("a scheduled stream can only be cancelled, with a reason", async () => {
    const later = await seedStream(convex, await sarahsShop(), {
      ...LIVE,
      streamStatus: "SCHEDULED",
      streamStartUTC: Date.now() + 24 * 60 * 60 * 1000,
      streamStopUTC: Date.now() + 25 * 60 * 60 * 1000,
    });
    renderAt("/dashboard/admin/streams", <AdminStreamsPage />);
    const upcoming = screen.getByRole("region", { name: "Upcoming" });
    await within(upcoming).findByRole("list");
    expect(
      within(upcoming)
        .getAllByRole("button")
        .map((button) => button.textContent),
    ).toEqual(["Cancel stream…"]);
    await userEvent.click(within(upcoming).getByRole("button", { name: "Cancel stream…" }));
    const dialog = screen.getByRole("dialog", { name: "Cancel “Denim drop”?" });
    await userEvent.type(within(dialog).getByRole("textbox"), "Listed twice.");
    await userEvent.click(within(dialog).getByRole("button", { name: "Cancel stream" }));
    expect(calls).toEqual([
      {
        name: "streams:setStreamStatus",
        args: { streamId: later, status: "CANCELLED", reason: "Listed twice." },
      },
    ]);
    await waitFor(async () => expect(await streamStatus(later)).toBe("CANCELLED"));
  });

  test("empty sections say so", async () => {
    renderAt("/dashboard/admin/streams", <AdminStreamsPage />);
    expect(await screen.findByText("No stream is live right now.")).toBeInTheDocument();
    expect(await screen.findByText("No stream is paused.")).toBeInTheDocument();
    expect(await screen.findByText("No stream is scheduled.")).toBeInTheDocument();
  });
});

describe("admin: a shop's insights", () => {
  const renderInsights = (liveShopId: string) =>
    renderAt(
      `/dashboard/admin/shops/${liveShopId}/insights`,
      <ShopInsightsPage />,
      "/dashboard/admin/shops/:liveShopId/insights",
    );

  test("shows any shop's insights, as its seller sees them", async () => {
    const seller = await convex.addUser("seller", { key: "insights-seller" });
    const liveShopId = await seedShop(convex, seller, { liveShopName: "Eastside Denim Co." });
    renderInsights(liveShopId);
    expect(await screen.findByRole("option", { name: "All of Eastside Denim Co." })).toBeInTheDocument();
    expect(screen.getByLabelText("Totals")).toBeInTheDocument();
  });

  test("a hand-edited address or a deleted shop says there is no shop, not an error page", async () => {
    // The client logs the refused id; the page says it in words.
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    renderInsights("not-a-shop");
    expect(await screen.findByText(/There is no shop here; it may have been deleted\./)).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Back to shops" })).toHaveAttribute(
      "href",
      "/dashboard/admin/shops",
    );
    cleanup();

    const seller = await convex.addUser("seller", { key: "gone-seller" });
    const liveShopId = await seedShop(convex, seller, { liveShopName: "Gone Shop" });
    await convex.run(async (ctx) => await ctx.db.delete(liveShopId));
    renderInsights(liveShopId);
    expect(await screen.findByText(/There is no shop here; it may have been deleted\./)).toBeInTheDocument();
    expect(screen.queryByLabelText("Totals")).not.toBeInTheDocument();
  });
});
