import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, test } from "vitest";
import type { Id } from "@convex/_generated/dataModel";
import type { ShopStatus } from "@convex/lib/constants";
import { ViewerTimeZoneProvider } from "@/lib/viewer-time-zone";
import { convexBackend, type Role, type TestPerson } from "@/test/convex-backend";
import { holdDatabase, sentCalls, type SentCall } from "@/test/convex-calls";
import { readDoc, seedShop, seedStream } from "@/test/convex-seed";
import { renderInRouter } from "@/test/render-in-router";
import { DashboardPage } from "./dashboard-page";

const convex = convexBackend();

const HOUR = 60 * 60 * 1000;

let sarah: TestPerson;
let calls: SentCall[];

/** Sarah (a seller unless told) signed in, with her shop in New York. */
async function sarahsShop({
  role = "seller",
  status = "active",
  statusReason,
  restrictedAt,
}: {
  role?: Role;
  status?: ShopStatus;
  statusReason?: string;
  restrictedAt?: number;
} = {}): Promise<Id<"liveShops">> {
  sarah = await convex.addUser(role, { key: "sarah", name: "Sarah" });
  // Restricted before her shop is made, so the shop is hidden as the model keeps it.
  if (restrictedAt !== undefined) await convex.run((ctx) => ctx.db.patch(sarah.userId, { restrictedAt }));
  await convex.signInAs(sarah);
  calls = sentCalls(convex.client);
  return await seedShop(convex, sarah, {
    liveShopName: "Sarah's Vintage",
    slug: "sarahs-vintage",
    timezone: "America/New_York",
    status,
    statusReason,
  });
}

/** A show of the shop, two to three hours from now unless told. */
async function show(
  shop: Id<"liveShops">,
  streamTitle: string,
  streamStatus: "CREATED" | "SCHEDULED" | "LIVE",
  times: { streamStartUTC?: number; streamStopUTC?: number } = {
    streamStartUTC: Date.now() + 2 * HOUR,
    streamStopUTC: Date.now() + 3 * HOUR,
  },
) {
  return await seedStream(convex, shop, { streamTitle, streamStatus, ...times });
}

/** The seller is in Berlin unless told otherwise; the shop is in New York. */
async function renderDashboard(timeZone = "Europe/Berlin") {
  const router = renderInRouter(
    <convex.wrapper>
      <ViewerTimeZoneProvider timeZone={timeZone}>
        <DashboardPage />
      </ViewerTimeZoneProvider>
    </convex.wrapper>,
    { path: "/dashboard" },
  );
  await screen.findByRole("heading", { name: "Dashboard" });
  return router;
}

describe("dashboard", () => {
  let denim: Id<"streams">;
  let boots: Id<"streams">;
  let shop: Id<"liveShops">;

  /** Denim drop upcoming, Boot sale live. */
  async function twoShows() {
    shop = await sarahsShop();
    denim = await show(shop, "Denim drop", "SCHEDULED");
    boots = await show(shop, "Boot sale", "LIVE");
  }

  test("groups the seller's streams and offers the lifecycle's buttons", async () => {
    await twoShows();
    await renderDashboard();
    const upcoming = screen.getByRole("region", { name: "Upcoming" });
    const denimControls = within(upcoming).getByRole("group", { name: "Status of Denim drop" });
    expect(within(denimControls).getByRole("button", { name: "Go live" })).toBeInTheDocument();
    expect(within(denimControls).getByRole("button", { name: "Cancel" })).toBeInTheDocument();
    const live = screen.getByRole("region", { name: "Live now" });
    const bootsControls = within(live).getByRole("group", { name: "Status of Boot sale" });
    expect(within(bootsControls).getByRole("button", { name: "Pause" })).toBeInTheDocument();
    expect(within(bootsControls).getByRole("button", { name: "End" })).toBeInTheDocument();
  });

  test("Go live calls setStreamStatus for that stream", async () => {
    await twoShows();
    await renderDashboard();
    await userEvent.click(screen.getByRole("button", { name: "Go live" }));
    expect(calls).toEqual([{ name: "streams:setStreamStatus", args: { streamId: denim, status: "LIVE" } }]);
    await waitFor(async () => expect((await readDoc(convex, denim))?.streamStatus).toBe("LIVE"));
  });

  test("ending asks first in a dialog, and does nothing when the seller keeps streaming", async () => {
    await twoShows();
    await renderDashboard();
    await userEvent.click(screen.getByRole("button", { name: "End" }));
    const dialog = screen.getByRole("alertdialog", { name: "End “Boot sale” now?" });
    expect(within(dialog).getByRole("button", { name: "Keep streaming" })).toHaveFocus();
    await userEvent.click(within(dialog).getByRole("button", { name: "Keep streaming" }));
    expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument();
    expect(calls).toEqual([]);

    await userEvent.click(screen.getByRole("button", { name: "End" }));
    await userEvent.click(screen.getByRole("button", { name: "End stream" }));
    expect(calls).toEqual([{ name: "streams:setStreamStatus", args: { streamId: boots, status: "ENDED" } }]);
    await waitFor(async () => expect((await readDoc(convex, boots))?.streamStatus).toBe("ENDED"));
  });

  test("Escape closes the confirm dialog without ending the show", async () => {
    await twoShows();
    await renderDashboard();
    await userEvent.click(screen.getByRole("button", { name: "End" }));
    await userEvent.keyboard("{Escape}");
    expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument();
    expect(calls).toEqual([]);
  });

  test("a refusal from the server is shown in words", async () => {
    await twoShows();
    await renderDashboard();
    // An admin closes the shop while "Go live" is on its way: the page still has it active.
    const release = await holdDatabase(convex, async (ctx) => {
      await ctx.db.patch(shop, { status: "maintenance" });
    });
    await userEvent.click(screen.getByRole("button", { name: "Go live" }));
    await release();
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "The shop must be active (verified and open) first.",
    );
  });

  test("a user without a shop is told how to open one", async () => {
    await convex.signInAs("seller", { key: "sarah", name: "Sarah" });
    await renderDashboard();
    expect(screen.getByText(/You have no live shop yet/)).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Open a live shop" })).toHaveAttribute(
      "href",
      "/dashboard/liveshops/new",
    );
  });

  // Issue 17 item 3: the seller's own zone, the shop's beside it where it reads differently.
  describe("a missed start", () => {
    beforeEach(async () => {
      const start = Date.UTC(2026, 2, 5, 15);
      await show(await sarahsShop(), "Denim drop", "SCHEDULED", {
        streamStartUTC: start,
        streamStopUTC: start + HOUR,
      });
    });
    const attention = () => within(screen.getByRole("region", { name: "Needs attention" }));

    test("reads in the seller's zone, with the shop's time", async () => {
      await renderDashboard("Europe/Berlin");
      expect(
        attention().getByText("“Denim drop” was due to start Thu, Mar 5, 4:00 PM GMT+1"),
      ).toBeInTheDocument();
      expect(
        attention().getByText(
          "Shop time: Thu, Mar 5, 10:00 AM EST. Go live, change its times, or cancel it.",
        ),
      ).toBeInTheDocument();
    });

    test("reads once for a seller in the shop's zone", async () => {
      await renderDashboard("America/New_York");
      expect(
        attention().getByText("“Denim drop” was due to start Thu, Mar 5, 10:00 AM EST"),
      ).toBeInTheDocument();
      expect(attention().getByText("Go live, change its times, or cancel it.")).toBeInTheDocument();
    });
  });

  test("shows each shop's status and admin note, and what needs attention", async () => {
    const draft = await sarahsShop({ status: "draft", statusReason: "Add a photo of your storefront." });
    await show(draft, "Denim drop", "SCHEDULED", {
      streamStartUTC: Date.now() - HOUR,
      streamStopUTC: Date.now() + HOUR,
    });
    await show(draft, "Hat try-on", "CREATED", {});
    await show(draft, "Scarf swap", "SCHEDULED");
    await renderDashboard();
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
      `/dashboard/liveshops/${draft}`,
    );
  });

  test("links to the shops and streams pages", async () => {
    await twoShows();
    await renderDashboard();
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

  test("a viewer who still owns a shop is told it is hidden, why and what brings it back, with no controls", async () => {
    const shopOfViewer = await sarahsShop({ role: "viewer" });
    await show(shopOfViewer, "Denim drop", "SCHEDULED");
    await show(shopOfViewer, "Boot sale", "LIVE");
    await renderDashboard();
    const banner = await screen.findByRole("region", { name: "Your shops are hidden" });
    expect(banner).toHaveTextContent("An admin made your account a viewer, and only sellers run shops.");
    expect(screen.getByText("Boot sale")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Pause" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Go live" })).not.toBeInTheDocument();
    expect(screen.queryByRole("link", { name: /New stream/ })).not.toBeInTheDocument();
  });

  test("a seller sees no such notice", async () => {
    await twoShows();
    await renderDashboard();
    expect(screen.queryByRole("region", { name: "Your shops are hidden" })).not.toBeInTheDocument();
  });

  test("a restricted seller is told her shop and shows are hidden, since when, and what lifts it", async () => {
    const hidden = await sarahsShop({ restrictedAt: Date.UTC(2026, 2, 4, 12) });
    await show(hidden, "Boot sale", "LIVE");
    await show(hidden, "Draft idea", "CREATED");
    await renderDashboard();
    const banner = await screen.findByRole("region", { name: "Your shops are hidden" });
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
