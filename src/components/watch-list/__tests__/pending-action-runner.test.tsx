import { act, screen, waitFor, within } from "@testing-library/react";
import { StrictMode } from "react";
import { beforeEach, expect, test } from "vitest";
import { convexBackend, type TestPerson } from "@/test/convex-backend";
import { sentCalls } from "@/test/convex-calls";
import { seedShop, seedStream } from "@/test/convex-seed";
import { renderInRouter } from "@/test/render-in-router";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { LIMITS } from "@convex/lib/limits";
import { insertWithTimestamps } from "@convex/model/timestamps";
import { findFollowRow, findSavedRow } from "@convex/model/watchList";
import { PENDING_ACTION_KEY, PENDING_ACTION_TTL_MS, rememberPendingAction } from "../pending-action";
import { PendingActionRunner } from "../pending-action-runner";
import { WatchListProviders } from "./watch-list-providers";

const convex = convexBackend();

function renderRunner() {
  renderInRouter(
    <StrictMode>
      <convex.wrapper>
        <WatchListProviders>
          <PendingActionRunner />
        </WatchListProviders>
      </convex.wrapper>
    </StrictMode>,
  );
}

const notices = () => screen.getByRole("region", { name: "Notifications" });

/** East Austin Denim Co. (public) and its scheduled "Denim drop". */
async function denimDrop(): Promise<{ liveShopId: Id<"liveShops">; streamId: Id<"streams"> }> {
  const seller = await convex.addUser("seller");
  const liveShopId = await seedShop(convex, seller, { liveShopName: "East Austin Denim Co." });
  const streamId = await seedStream(convex, liveShopId, { streamTitle: "Denim drop" });
  return { liveShopId, streamId };
}

const savedRow = (viewer: TestPerson, streamId: Id<"streams">) =>
  convex.run((ctx) => findSavedRow(ctx, viewer.userId, streamId));

/** The client's answer to the watch list, once it has one that `check` accepts. */
async function watchListAnswers(check: (saved: { streamIds: string[] } | null) => boolean) {
  await waitFor(() => {
    const saved = convex.client.watchQuery(api.watchList.mySaved, {}).localQueryResult();
    if (saved === undefined || !check(saved)) throw new Error("The watch list has not answered so yet.");
  });
}

beforeEach(() => {
  sessionStorage.clear();
});

test("once signed in with a user row, completes the saved show once and confirms it", async () => {
  const { streamId } = await denimDrop();
  rememberPendingAction({ kind: "saveStream", id: streamId, label: "Denim drop" });
  // Signed in, but the user row is still being made: the watch list answers null, nothing runs yet.
  await convex.signInAs("viewer", { row: false });
  const mutations = sentCalls(convex.client);
  renderRunner();
  await watchListAnswers((saved) => saved === null);
  expect(mutations).toEqual([]);
  expect(sessionStorage.getItem(PENDING_ACTION_KEY)).not.toBeNull();

  const viewer = await convex.addUser("viewer");

  expect(await within(notices()).findByText("Saved “Denim drop” to your watch list")).toBeInTheDocument();
  expect(mutations).toEqual([{ name: "watchList:setStreamSaved", args: { streamId, saved: true } }]);
  expect(sessionStorage.getItem(PENDING_ACTION_KEY)).toBeNull();
  expect(within(notices()).getByRole("link", { name: "View watch list" })).toHaveAttribute(
    "href",
    "/watch-list",
  );
  expect(await savedRow(viewer, streamId)).not.toBeNull();

  // The list changing again (the server agreeing) runs nothing more.
  await watchListAnswers((saved) => saved?.streamIds.includes(streamId) === true);
  expect(mutations).toHaveLength(1);
});

test("completes a follow and says so", async () => {
  const { liveShopId } = await denimDrop();
  rememberPendingAction({ kind: "followShop", id: liveShopId, label: "East Austin Denim Co." });
  const viewer = await convex.signInAs("viewer");
  const mutations = sentCalls(convex.client);
  renderRunner();
  expect(await within(notices()).findByText("Following East Austin Denim Co.")).toBeInTheDocument();
  expect(mutations).toEqual([{ name: "watchList:setShopFollowed", args: { liveShopId, followed: true } }]);
  expect(await convex.run((ctx) => findFollowRow(ctx, viewer.userId, liveShopId))).not.toBeNull();
});

test("a refusal (the list is full) is shown in the server's words, and not retried", async () => {
  const full =
    "Your watch list is full: it keeps up to 100 shows. Remove one you no longer need to save this one.";
  const { liveShopId, streamId } = await denimDrop();
  const other = await seedStream(convex, liveShopId, { streamTitle: "Western wear" });
  const viewer = await convex.signInAs("viewer");
  await convex.run(async (ctx) => {
    for (let n = 0; n < LIMITS.savedStreamsPerUser; n++)
      await insertWithTimestamps(ctx, "savedStreams", { userId: viewer.userId, streamId: other });
  });
  rememberPendingAction({ kind: "saveStream", id: streamId, label: "Denim drop" });
  const mutations = sentCalls(convex.client);
  renderRunner();
  expect(await within(notices()).findByText("Couldn't save “Denim drop”")).toBeInTheDocument();
  expect(within(notices()).getByText(full)).toBeInTheDocument();
  expect(within(notices()).queryByText(/to your watch list$/)).not.toBeInTheDocument();
  expect(mutations).toHaveLength(1);
  expect(sessionStorage.getItem(PENDING_ACTION_KEY)).toBeNull();
  expect(await savedRow(viewer, streamId)).toBeNull();
});

test("signed out, it waits; a stale or malformed entry is never run", async () => {
  const { streamId } = await denimDrop();
  const viewer = await convex.addUser("viewer");
  rememberPendingAction({ kind: "saveStream", id: streamId, label: "Denim drop" }, Date.now());
  const mutations = sentCalls(convex.client);
  renderRunner();
  expect(sessionStorage.getItem(PENDING_ACTION_KEY)).not.toBeNull();

  rememberPendingAction(
    { kind: "saveStream", id: streamId, label: "Denim drop" },
    Date.now() - PENDING_ACTION_TTL_MS - 1,
  );
  await act(() => convex.signInAs(viewer));
  // Taken (and dropped, stale) once the watch list is known.
  await waitFor(() => expect(sessionStorage.getItem(PENDING_ACTION_KEY)).toBeNull());
  expect(mutations).toEqual([]);
  expect(within(notices()).queryByText(/Denim drop/)).not.toBeInTheDocument();
});

test("a malformed entry is dropped without a call", async () => {
  sessionStorage.setItem(PENDING_ACTION_KEY, JSON.stringify({ kind: "saveStream", id: 7, label: "x" }));
  await convex.signInAs("viewer");
  const mutations = sentCalls(convex.client);
  renderRunner();
  await waitFor(() => expect(sessionStorage.getItem(PENDING_ACTION_KEY)).toBeNull());
  expect(mutations).toEqual([]);
});
