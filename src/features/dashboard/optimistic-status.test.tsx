import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, test } from "vitest";
import type { Id } from "@convex/_generated/dataModel";
import { convexBackend } from "@/test/convex-backend";
import { holdDatabase, sentCalls, type SentCall } from "@/test/convex-calls";
import { readDoc, seedShop, seedStream } from "@/test/convex-seed";
import { renderInRouter } from "@/test/render-in-router";
import { DashboardPage } from "./dashboard-page";

const convex = convexBackend();

const HOUR = 60 * 60 * 1000;
let shop: Id<"liveShops">;
let denim: Id<"streams">;
let calls: SentCall[];

/** Sarah's active shop with "Denim drop" scheduled in an hour; her dashboard open. */
beforeEach(async () => {
  const sarah = await convex.signInAs("seller", { key: "sarah", name: "Sarah" });
  shop = await seedShop(convex, sarah, {
    liveShopName: "Sarah's Vintage",
    slug: "sarahs-vintage",
    timezone: "America/New_York",
  });
  denim = await seedStream(convex, shop, {
    streamTitle: "Denim drop",
    streamStatus: "SCHEDULED",
    streamStartUTC: Date.now() + HOUR,
    streamStopUTC: Date.now() + 2 * HOUR,
  });
  calls = sentCalls(convex.client);
});

async function renderDashboard() {
  renderInRouter(
    <convex.wrapper>
      <DashboardPage />
    </convex.wrapper>,
    { path: "/dashboard" },
  );
  await screen.findByRole("heading", { name: "Dashboard" });
}

// The optimistic layer is the client's own (the page's `withOptimisticUpdate`); "before the server
// answers" is made true by holding the backend's database until the test releases it.
describe("optimistic status controls", () => {
  test("going live shows at once, before the server answers", async () => {
    await renderDashboard();
    const release = await holdDatabase(convex);
    await userEvent.click(screen.getByRole("button", { name: "Go live" }));
    const live = screen.getByRole("region", { name: "Live now" });
    expect(within(live).getByText("Denim drop")).toBeInTheDocument();
    expect(within(live).getByRole("button", { name: "Pause" })).toBeInTheDocument();
    expect(screen.queryByRole("region", { name: "Upcoming" })).not.toBeInTheDocument();
    // Sent, and not answered: the database is held.
    expect(calls).toEqual([{ name: "streams:setStreamStatus", args: { streamId: denim, status: "LIVE" } }]);
    expect(convex.client.connectionState().hasInflightRequests).toBe(true);
    await release();
    await waitFor(async () => expect((await readDoc(convex, denim))?.streamStatus).toBe("LIVE"));
  });

  test("a refusal puts the stream back where it was and says why", async () => {
    await renderDashboard();
    // An admin closes the shop while "Go live" is on its way: the page still has it active.
    const release = await holdDatabase(convex, async (ctx) => {
      await ctx.db.patch(shop, { status: "maintenance" });
    });
    await userEvent.click(screen.getByRole("button", { name: "Go live" }));
    expect(screen.getByRole("region", { name: "Live now" })).toBeInTheDocument();

    await release();
    const upcoming = await screen.findByRole("region", { name: "Upcoming" });
    expect(await within(upcoming).findByRole("alert")).toHaveTextContent(
      "The shop must be active (verified and open) first.",
    );
    expect(within(upcoming).getByRole("button", { name: "Go live" })).toBeInTheDocument();
    expect(screen.queryByRole("region", { name: "Live now" })).not.toBeInTheDocument();
  });

  test("when the server agrees, the new status stays", async () => {
    await renderDashboard();
    await userEvent.click(screen.getByRole("button", { name: "Go live" }));
    expect(await screen.findByRole("region", { name: "Live now" })).toBeInTheDocument();
    // Settled (the optimistic layer is gone): the live query holds the server's answer, and it agrees.
    await waitFor(() => expect(convex.client.connectionState().hasInflightRequests).toBe(false));
    expect((await readDoc(convex, denim))?.streamStatus).toBe("LIVE");
    expect(screen.getByRole("region", { name: "Live now" })).toBeInTheDocument();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });

  test("a rule the browser can check is answered without asking the server", async () => {
    await convex.run((ctx) =>
      ctx.db.patch(denim, { streamStatus: "CREATED", streamStartUTC: undefined, streamStopUTC: undefined }),
    );
    await renderDashboard();
    await userEvent.click(await screen.findByRole("button", { name: "Schedule" }));
    expect(screen.getByRole("alert")).toHaveTextContent("Set a start and a stop time first.");
    expect(calls).toEqual([]);
  });
});
