import { act, screen, within } from "@testing-library/react";
import { ConvexError } from "convex/values";
import { StrictMode } from "react";
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
import { api } from "@convex/_generated/api";
import { PENDING_ACTION_KEY, PENDING_ACTION_TTL_MS, rememberPendingAction } from "../pending-action";
import { PendingActionRunner } from "../pending-action-runner";
import { WatchListProviders } from "./watch-list-providers";

vi.mock("convex/react", () => ({ ...convexReactMock, useConvexAuth: useMockConvexAuth }));

function renderRunner() {
  renderInRouter(
    <StrictMode>
      <WatchListProviders>
        <PendingActionRunner />
      </WatchListProviders>
    </StrictMode>,
  );
}

const notices = () => screen.getByRole("region", { name: "Notifications" });

beforeEach(() => {
  resetConvexMock();
  sessionStorage.clear();
  setConvexAuth("signedIn");
});

test("once signed in with a user row, completes the saved show once and confirms it", async () => {
  rememberPendingAction({ kind: "saveStream", id: "stream1", label: "Denim drop" });
  // Signed in, but the user row is still being made: nothing runs yet.
  setQueryResult(api.watchList.mySaved, null);
  renderRunner();
  expect(mutationCalls).toEqual([]);
  expect(sessionStorage.getItem(PENDING_ACTION_KEY)).not.toBeNull();

  act(() => setQueryResult(api.watchList.mySaved, { streamIds: [], liveShopIds: [] }));

  await act(async () => {});
  expect(mutationCalls).toEqual([
    { name: "watchList:setStreamSaved", args: { streamId: "stream1", saved: true } },
  ]);
  expect(sessionStorage.getItem(PENDING_ACTION_KEY)).toBeNull();
  expect(within(notices()).getByText("Saved “Denim drop” to your watch list")).toBeInTheDocument();
  expect(within(notices()).getByRole("link", { name: "View watch list" })).toHaveAttribute(
    "href",
    "/watch-list",
  );

  // The list changing again (the server agreeing) runs nothing more.
  act(() => setQueryResult(api.watchList.mySaved, { streamIds: ["stream1"], liveShopIds: [] }));
  await act(async () => {});
  expect(mutationCalls).toHaveLength(1);
});

test("completes a follow and says so", async () => {
  rememberPendingAction({ kind: "followShop", id: "shop1", label: "East Austin Denim Co." });
  setQueryResult(api.watchList.mySaved, { streamIds: [], liveShopIds: [] });
  renderRunner();
  act(() => {});
  await act(async () => {});
  expect(mutationCalls).toEqual([
    { name: "watchList:setShopFollowed", args: { liveShopId: "shop1", followed: true } },
  ]);
  expect(within(notices()).getByText("Following East Austin Denim Co.")).toBeInTheDocument();
});

test("a refusal (the list is full) is shown in the server's words, and not retried", async () => {
  const full =
    "Your watch list is full: it keeps up to 100 shows. Remove one you no longer need to save this one.";
  mutationImpl.current = () => Promise.reject(new ConvexError({ code: "LIMIT_EXCEEDED", message: full }));
  rememberPendingAction({ kind: "saveStream", id: "stream1", label: "Denim drop" });
  setQueryResult(api.watchList.mySaved, { streamIds: [], liveShopIds: [] });
  renderRunner();
  act(() => {});
  await act(async () => {});
  expect(within(notices()).getByText("Couldn't save “Denim drop”")).toBeInTheDocument();
  expect(within(notices()).getByText(full)).toBeInTheDocument();
  expect(within(notices()).queryByText(/to your watch list$/)).not.toBeInTheDocument();
  expect(mutationCalls).toHaveLength(1);
  expect(sessionStorage.getItem(PENDING_ACTION_KEY)).toBeNull();
});

test("signed out, it waits; a stale or malformed entry is never run", async () => {
  setConvexAuth("signedOut");
  rememberPendingAction({ kind: "saveStream", id: "stream1", label: "Denim drop" }, Date.now());
  renderRunner();
  expect(sessionStorage.getItem(PENDING_ACTION_KEY)).not.toBeNull();

  rememberPendingAction(
    { kind: "saveStream", id: "stream1", label: "Denim drop" },
    Date.now() - PENDING_ACTION_TTL_MS - 1,
  );
  setQueryResult(api.watchList.mySaved, { streamIds: [], liveShopIds: [] });
  act(() => setConvexAuth("signedIn"));
  await act(async () => {});
  expect(mutationCalls).toEqual([]);
  expect(sessionStorage.getItem(PENDING_ACTION_KEY)).toBeNull();
  expect(within(notices()).queryByText(/Denim drop/)).not.toBeInTheDocument();
});

test("a malformed entry is dropped without a call", async () => {
  sessionStorage.setItem(PENDING_ACTION_KEY, JSON.stringify({ kind: "saveStream", id: 7, label: "x" }));
  setQueryResult(api.watchList.mySaved, { streamIds: [], liveShopIds: [] });
  renderRunner();
  act(() => {});
  await act(async () => {});
  expect(mutationCalls).toEqual([]);
  expect(sessionStorage.getItem(PENDING_ACTION_KEY)).toBeNull();
});
