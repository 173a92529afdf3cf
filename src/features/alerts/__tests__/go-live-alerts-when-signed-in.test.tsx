import { act, render, screen, waitFor } from "@testing-library/react";
import { getFunctionName } from "convex/server";
import { MemoryRouter } from "react-router-dom";
import { afterEach, expect, test, vi } from "vitest";
import type { Id } from "@convex/_generated/dataModel";
import { insertWithTimestamps } from "@convex/model/timestamps";
import { NoticesProvider } from "@/components/notices/notices";
import { convexBackend, type TestPerson } from "@/test/convex-backend";
import { sentCalls } from "@/test/convex-calls";
import { seedShop, seedStream } from "@/test/convex-seed";
import { GoLiveAlertsWhenSignedIn } from "../go-live-alerts-when-signed-in";

const convex = convexBackend();

afterEach(() => {
  vi.restoreAllMocks();
});

/** Green Corner's "Spring plant swap", live now. */
async function liveShow(): Promise<{ liveShopId: Id<"liveShops">; streamId: Id<"streams"> }> {
  const seller = await convex.addUser("seller");
  const liveShopId = await seedShop(convex, seller, { liveShopName: "Green Corner" });
  const streamId = await seedStream(convex, liveShopId, {
    streamTitle: "Spring plant swap",
    streamStatus: "LIVE",
    streamStartUTC: Date.now() - 60_000,
  });
  return { liveShopId, streamId };
}

/** A go-live alert waiting for `viewer`, for a show they saved. */
async function alertFor(viewer: TestPerson, show: { liveShopId: Id<"liveShops">; streamId: Id<"streams"> }) {
  return await convex.run((ctx) =>
    insertWithTimestamps(ctx, "goLiveAlerts", { userId: viewer.userId, ...show, reason: "saved" }),
  );
}

/** Records the client's subscriptions: whether the page asked for the pending alerts. */
function recordWatches() {
  const spy = vi.spyOn(convex.client, "watchQuery");
  return {
    pendingQueried: () =>
      spy.mock.calls.some(([ref]) => getFunctionName(ref) === "goLiveAlerts:myPendingAlerts"),
    clear: () => spy.mockClear(),
  };
}

function renderInLayout() {
  render(
    <convex.wrapper>
      <MemoryRouter>
        <NoticesProvider>
          <h1>Page</h1>
          <GoLiveAlertsWhenSignedIn />
        </NoticesProvider>
      </MemoryRouter>
    </convex.wrapper>,
  );
}

test("signed out, no alerts are asked for; signed in, they are claimed and announced; signed out again, they stop", async () => {
  const show = await liveShow();
  const viewer = await convex.addUser("viewer");
  const alertId = await alertFor(viewer, show);
  const watches = recordWatches();
  const mutations = sentCalls(convex.client);
  renderInLayout();
  expect(watches.pendingQueried()).toBe(false);

  await act(() => convex.signInAs(viewer));
  expect(await screen.findByText("Spring plant swap is live now")).toBeInTheDocument();
  expect(mutations).toEqual([{ name: "goLiveAlerts:claim", args: { alertId } }]);

  act(() => convex.signOut());
  watches.clear();
  await alertFor(viewer, show);
  // Every subscription pass the new alert caused has been pushed: none of them was this page's.
  await convex.backend.idle();
  expect(watches.pendingQueried()).toBe(false);
  expect(mutations).toHaveLength(1);
});

test("alerts that fail leave the page standing and say so in the console", async () => {
  const consoleError = vi.spyOn(console, "error").mockImplementation(() => {});
  const viewer = await convex.signInAs("viewer");
  // Two rows for one sign-in (a damaged store): the alerts' query fails on the server.
  await convex.run(async (ctx) => {
    const row = await ctx.db.get(viewer.userId);
    if (!row) throw new Error("The viewer's row is missing.");
    const { _id, _creationTime, ...twin } = row;
    await ctx.db.insert("users", { ...twin, email: "twin@livelocal.test" });
  });
  const mutations = sentCalls(convex.client);
  renderInLayout();
  await waitFor(() =>
    expect(consoleError).toHaveBeenCalledWith("Go-live alerts stopped in this tab:", expect.any(Error)),
  );
  expect(screen.getByRole("heading", { name: "Page" })).toBeInTheDocument();
  expect(mutations).toEqual([]);
});
