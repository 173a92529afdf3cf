import { act, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { ConvexError } from "convex/values";
import { beforeEach, describe, expect, test, vi } from "vitest";
import { setConvexAuth, useMockConvexAuth } from "@/test/convex-auth-mock";
import {
  convexReactMock,
  mutationCalls,
  mutationImpl,
  resetConvexMock,
  setQueryResult,
} from "@/test/convex-mock";
import { renderInRouter } from "@/test/render-in-router";
import { StreamCard, type StreamCardData } from "@/components/streams/stream-card";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { PENDING_ACTION_KEY } from "../pending-action";
import { SaveStreamButton } from "../save-stream-button";
import { WatchListProviders } from "./watch-list-providers";

vi.mock("convex/react", () => ({ ...convexReactMock, useConvexAuth: useMockConvexAuth }));

const STREAM_ID = "stream1" as Id<"streams">;
const FULL_LIST =
  "Your watch list is full: it keeps up to 100 shows. Remove one you no longer need to save this one.";

function renderButton(variant: "icon" | "full" = "icon", at = "/stream/stream1") {
  return renderInRouter(
    <WatchListProviders>
      <SaveStreamButton streamId={STREAM_ID} streamTitle="Denim drop" variant={variant} />
    </WatchListProviders>,
    { path: "/stream/:streamId", at, routes: [{ path: "/sign-in", element: <h1>Sign in</h1> }] },
  );
}

/** A mutation the test settles by hand. */
function holdMutations() {
  const settle: { resolve: () => void; reject: (error: unknown) => void } = {
    resolve: () => {},
    reject: () => {},
  };
  mutationImpl.current = () =>
    new Promise((resolve, reject) => {
      settle.resolve = () => resolve(null);
      settle.reject = reject;
    });
  return settle;
}

beforeEach(() => {
  resetConvexMock();
  sessionStorage.clear();
  setConvexAuth("signedIn");
});

describe("SaveStreamButton signed in", () => {
  test("is pressed when mySaved lists the stream, with the same name either way", () => {
    setQueryResult(api.watchList.mySaved, { streamIds: ["other"], liveShopIds: [] });
    renderButton();
    const button = screen.getByRole("button", { name: "Save Denim drop" });
    expect(button).toHaveAttribute("aria-pressed", "false");
    act(() => setQueryResult(api.watchList.mySaved, { streamIds: [STREAM_ID], liveShopIds: [] }));
    expect(screen.getByRole("button", { name: "Save Denim drop" })).toHaveAttribute("aria-pressed", "true");
  });

  test("saving flips the button at once, calls setStreamSaved, and ignores clicks while in flight", async () => {
    setQueryResult(api.watchList.mySaved, { streamIds: [], liveShopIds: [] });
    const settle = holdMutations();
    renderButton();
    const button = screen.getByRole("button", { name: "Save Denim drop" });
    await userEvent.click(button);
    expect(button).toHaveAttribute("aria-pressed", "true");
    expect(button).toHaveAttribute("aria-busy", "true");
    await userEvent.click(button);
    expect(mutationCalls).toEqual([
      { name: "watchList:setStreamSaved", args: { streamId: STREAM_ID, saved: true } },
    ]);
    // The server agrees: the subscription now lists it.
    act(() => setQueryResult(api.watchList.mySaved, { streamIds: [STREAM_ID], liveShopIds: [] }));
    act(() => settle.resolve());
    await act(async () => {});
    expect(button).toHaveAttribute("aria-pressed", "true");
    expect(button).not.toHaveAttribute("aria-busy");
  });

  test("a saved stream is removed with saved: false", async () => {
    setQueryResult(api.watchList.mySaved, { streamIds: [STREAM_ID], liveShopIds: [] });
    holdMutations();
    renderButton();
    const button = screen.getByRole("button", { name: "Save Denim drop" });
    await userEvent.click(button);
    expect(button).toHaveAttribute("aria-pressed", "false");
    expect(mutationCalls).toEqual([
      { name: "watchList:setStreamSaved", args: { streamId: STREAM_ID, saved: false } },
    ]);
  });

  test("a refusal rolls the button back and shows the server's sentence", async () => {
    setQueryResult(api.watchList.mySaved, { streamIds: [], liveShopIds: [] });
    const settle = holdMutations();
    renderButton();
    const button = screen.getByRole("button", { name: "Save Denim drop" });
    await userEvent.click(button);
    expect(button).toHaveAttribute("aria-pressed", "true");
    act(() => settle.reject(new ConvexError({ code: "LIMIT_EXCEEDED", message: FULL_LIST })));
    await act(async () => {});
    expect(button).toHaveAttribute("aria-pressed", "false");
    const notices = screen.getByRole("region", { name: "Notifications" });
    expect(within(notices).getByText("Couldn't save this show")).toBeInTheDocument();
    expect(within(notices).getByText(FULL_LIST)).toBeInTheDocument();
  });

  test("the full variant reads Save or Saved and keeps the title in its name", async () => {
    setQueryResult(api.watchList.mySaved, { streamIds: [], liveShopIds: [] });
    holdMutations();
    renderButton("full");
    const button = screen.getByRole("button", { name: "Save Denim drop" });
    expect(button).toHaveTextContent(/^Save Denim drop$/);
    await userEvent.click(button);
    expect(button).toHaveAttribute("aria-pressed", "true");
    expect(button).toHaveTextContent(/^Saved Denim drop$/);
    expect(screen.getByRole("button", { name: "Save Denim drop" })).toBe(button);
  });
});

describe("SaveStreamButton signed out", () => {
  test("remembers the action and goes to sign-in, asking to come back to this page", async () => {
    setConvexAuth("signedOut");
    const router = renderButton("icon", "/stream/stream1?from=home#products");
    const button = screen.getByRole("button", { name: "Save Denim drop" });
    expect(button).toHaveAttribute("aria-pressed", "false");
    await userEvent.click(button);
    expect(mutationCalls).toEqual([]);
    expect(router.state.location.pathname).toBe("/sign-in");
    expect(new URLSearchParams(router.state.location.search).get("redirect")).toBe(
      "/stream/stream1?from=home#products",
    );
    const stored = JSON.parse(sessionStorage.getItem(PENDING_ACTION_KEY) ?? "null") as Record<
      string,
      unknown
    >;
    expect(stored).toEqual({
      kind: "saveStream",
      id: STREAM_ID,
      label: "Denim drop",
      at: expect.any(Number) as number,
    });
  });

  test("a click while the session loads waits, then saves once signed in", async () => {
    setConvexAuth("loading");
    renderButton();
    const button = screen.getByRole("button", { name: "Save Denim drop" });
    await userEvent.click(button);
    expect(button).toHaveAttribute("aria-busy", "true");
    expect(mutationCalls).toEqual([]);
    act(() => setConvexAuth("signedIn"));
    expect(mutationCalls).toEqual([]);
    act(() => setQueryResult(api.watchList.mySaved, { streamIds: [], liveShopIds: [] }));
    await act(async () => {});
    expect(mutationCalls).toEqual([
      { name: "watchList:setStreamSaved", args: { streamId: STREAM_ID, saved: true } },
    ]);
    expect(sessionStorage.getItem(PENDING_ACTION_KEY)).toBeNull();
  });

  test("a click while the session loads goes to sign-in if it turns out signed out", async () => {
    setConvexAuth("loading");
    const router = renderButton();
    await userEvent.click(screen.getByRole("button", { name: "Save Denim drop" }));
    expect(router.state.location.pathname).toBe("/stream/stream1");
    act(() => setConvexAuth("signedOut"));
    await act(async () => {});
    expect(router.state.location.pathname).toBe("/sign-in");
    expect(sessionStorage.getItem(PENDING_ACTION_KEY)).toContain('"kind":"saveStream"');
    expect(mutationCalls).toEqual([]);
  });
});

test("on a stream card the save button sits outside the card's link and works on its own", async () => {
  setQueryResult(api.watchList.mySaved, { streamIds: [], liveShopIds: [] });
  const stream: StreamCardData = {
    _id: STREAM_ID,
    streamTitle: "Denim drop",
    streamStatus: "SCHEDULED",
    liveShopName: "Sarah's Vintage",
    liveShopSlug: "sarahs-vintage",
    timezone: "America/New_York",
  };
  const router = renderInRouter(
    <WatchListProviders>
      <StreamCard stream={stream} />
    </WatchListProviders>,
  );
  const link = screen.getByRole("link", { name: "Denim drop" });
  const button = screen.getByRole("button", { name: "Save Denim drop" });
  expect(link).not.toContainElement(button);
  expect(button.parentElement).toHaveClass("z-10");
  await userEvent.click(button);
  expect(router.state.location.pathname).toBe("/");
  expect(mutationCalls).toHaveLength(1);
});
