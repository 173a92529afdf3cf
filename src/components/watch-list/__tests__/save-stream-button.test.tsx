import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ReactNode } from "react";
import { beforeEach, describe, expect, test } from "vitest";
import { StreamCard, type StreamCardData } from "@/components/streams/stream-card";
import { convexBackend, type TestPerson } from "@/test/convex-backend";
import { holdDatabase, sentCalls } from "@/test/convex-calls";
import { seedShop, seedStream } from "@/test/convex-seed";
import { renderInRouter } from "@/test/render-in-router";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { LIMITS } from "@convex/lib/limits";
import { insertWithTimestamps } from "@convex/model/timestamps";
import { findSavedRow } from "@convex/model/watchList";
import { PENDING_ACTION_KEY } from "../pending-action";
import { SaveStreamButton } from "../save-stream-button";
import { WatchListProviders } from "./watch-list-providers";

const convex = convexBackend();

const FULL_LIST =
  "Your watch list is full: it keeps up to 100 shows. Remove one you no longer need to save this one.";

function inProviders(children: ReactNode) {
  return (
    <convex.wrapper>
      <WatchListProviders>{children}</WatchListProviders>
    </convex.wrapper>
  );
}

function renderButton(
  streamId: Id<"streams">,
  variant: "icon" | "full" = "icon",
  at = `/stream/${streamId}`,
) {
  return renderInRouter(
    inProviders(<SaveStreamButton streamId={streamId} streamTitle="Denim drop" variant={variant} />),
    { path: "/stream/:streamId", at, routes: [{ path: "/sign-in", element: <h1>Sign in</h1> }] },
  );
}

/** Sarah's public shop and its scheduled "Denim drop", and another show of hers. */
async function denimDrop(): Promise<{ streamId: Id<"streams">; otherId: Id<"streams"> }> {
  const seller = await convex.addUser("seller");
  const shop = await seedShop(convex, seller);
  const streamId = await seedStream(convex, shop, { streamTitle: "Denim drop" });
  const otherId = await seedStream(convex, shop, { streamTitle: "Western wear" });
  return { streamId, otherId };
}

const save = (viewer: TestPerson, streamId: Id<"streams">) =>
  convex.call(api.watchList.setStreamSaved, { streamId, saved: true }, viewer);

const savedRow = (viewer: TestPerson, streamId: Id<"streams">) =>
  convex.run((ctx) => findSavedRow(ctx, viewer.userId, streamId));

/** The button once the watch list has answered (before, it shows "not saved" while loading). */
async function buttonWhenKnown() {
  await convex.answered(api.watchList.mySaved, {});
  return screen.getByRole("button", { name: "Save Denim drop" });
}

beforeEach(() => {
  sessionStorage.clear();
});

describe("SaveStreamButton signed in", () => {
  test("is pressed when mySaved lists the stream, with the same name either way", async () => {
    const { streamId, otherId } = await denimDrop();
    const viewer = await convex.signInAs("viewer");
    await save(viewer, otherId);
    renderButton(streamId);
    expect(await buttonWhenKnown()).toHaveAttribute("aria-pressed", "false");
    await save(viewer, streamId);
    await waitFor(() =>
      expect(screen.getByRole("button", { name: "Save Denim drop" })).toHaveAttribute("aria-pressed", "true"),
    );
  });

  test("saving flips the button at once, calls setStreamSaved, and ignores clicks while in flight", async () => {
    const { streamId } = await denimDrop();
    const viewer = await convex.signInAs("viewer");
    const mutations = sentCalls(convex.client);
    renderButton(streamId);
    const button = await buttonWhenKnown();
    const release = await holdDatabase(convex);
    await userEvent.click(button);
    expect(button).toHaveAttribute("aria-pressed", "true");
    expect(button).toHaveAttribute("aria-busy", "true");
    await userEvent.click(button);
    expect(mutations).toEqual([{ name: "watchList:setStreamSaved", args: { streamId, saved: true } }]);
    // The server agrees: the subscription now lists it.
    await release();
    await waitFor(() => expect(button).not.toHaveAttribute("aria-busy"));
    expect(button).toHaveAttribute("aria-pressed", "true");
    expect(await savedRow(viewer, streamId)).not.toBeNull();
  });

  test("a saved stream is removed with saved: false", async () => {
    const { streamId } = await denimDrop();
    const viewer = await convex.signInAs("viewer");
    await save(viewer, streamId);
    const mutations = sentCalls(convex.client);
    renderButton(streamId);
    const button = await buttonWhenKnown();
    expect(button).toHaveAttribute("aria-pressed", "true");
    const release = await holdDatabase(convex);
    await userEvent.click(button);
    expect(button).toHaveAttribute("aria-pressed", "false");
    expect(mutations).toEqual([{ name: "watchList:setStreamSaved", args: { streamId, saved: false } }]);
    await release();
    await waitFor(async () => expect(await savedRow(viewer, streamId)).toBeNull());
  });

  test("a refusal rolls the button back and shows the server's sentence", async () => {
    const { streamId, otherId } = await denimDrop();
    const viewer = await convex.signInAs("viewer");
    // A full list: as many saved rows as the list keeps.
    await convex.run(async (ctx) => {
      for (let n = 0; n < LIMITS.savedStreamsPerUser; n++)
        await insertWithTimestamps(ctx, "savedStreams", { userId: viewer.userId, streamId: otherId });
    });
    renderButton(streamId);
    const button = await buttonWhenKnown();
    const release = await holdDatabase(convex);
    await userEvent.click(button);
    expect(button).toHaveAttribute("aria-pressed", "true");
    await release();
    const notices = screen.getByRole("region", { name: "Notifications" });
    expect(await within(notices).findByText("Couldn't save this show")).toBeInTheDocument();
    expect(within(notices).getByText(FULL_LIST)).toBeInTheDocument();
    expect(button).toHaveAttribute("aria-pressed", "false");
    expect(await savedRow(viewer, streamId)).toBeNull();
  });

  test("the full variant reads Save or Saved and keeps the title in its name", async () => {
    const { streamId } = await denimDrop();
    await convex.signInAs("viewer");
    renderButton(streamId, "full");
    const button = await buttonWhenKnown();
    expect(button).toHaveTextContent(/^Save Denim drop$/);
    await userEvent.click(button);
    expect(button).toHaveAttribute("aria-pressed", "true");
    expect(button).toHaveTextContent(/^Saved Denim drop$/);
    expect(screen.getByRole("button", { name: "Save Denim drop" })).toBe(button);
  });
});

describe("SaveStreamButton signed out", () => {
  test("remembers the action and goes to sign-in, asking to come back to this page", async () => {
    const { streamId } = await denimDrop();
    const mutations = sentCalls(convex.client);
    const router = renderButton(streamId, "icon", `/stream/${streamId}?from=home#products`);
    const button = screen.getByRole("button", { name: "Save Denim drop" });
    expect(button).toHaveAttribute("aria-pressed", "false");
    await userEvent.click(button);
    expect(mutations).toEqual([]);
    expect(router.state.location.pathname).toBe("/sign-in");
    expect(new URLSearchParams(router.state.location.search).get("redirect")).toBe(
      `/stream/${streamId}?from=home#products`,
    );
    const stored = JSON.parse(sessionStorage.getItem(PENDING_ACTION_KEY) ?? "null") as Record<
      string,
      unknown
    >;
    expect(stored).toEqual({
      kind: "saveStream",
      id: streamId,
      label: "Denim drop",
      at: expect.any(Number) as number,
    });
  });

  test("a click while the session loads waits, then saves once signed in", async () => {
    const { streamId } = await denimDrop();
    const viewer = await convex.addUser("viewer");
    convex.sessionLoading();
    const mutations = sentCalls(convex.client);
    renderButton(streamId);
    const button = screen.getByRole("button", { name: "Save Denim drop" });
    await userEvent.click(button);
    expect(button).toHaveAttribute("aria-busy", "true");
    expect(mutations).toEqual([]);
    await act(() => convex.signInAs(viewer));
    await waitFor(() =>
      expect(mutations).toEqual([{ name: "watchList:setStreamSaved", args: { streamId, saved: true } }]),
    );
    expect(sessionStorage.getItem(PENDING_ACTION_KEY)).toBeNull();
    await waitFor(async () => expect(await savedRow(viewer, streamId)).not.toBeNull());
  });

  test("a click while the session loads goes to sign-in if it turns out signed out", async () => {
    const { streamId } = await denimDrop();
    convex.sessionLoading();
    const mutations = sentCalls(convex.client);
    const router = renderButton(streamId);
    await userEvent.click(screen.getByRole("button", { name: "Save Denim drop" }));
    expect(router.state.location.pathname).toBe(`/stream/${streamId}`);
    act(() => convex.signOut());
    await waitFor(() => expect(router.state.location.pathname).toBe("/sign-in"));
    expect(sessionStorage.getItem(PENDING_ACTION_KEY)).toContain('"kind":"saveStream"');
    expect(mutations).toEqual([]);
  });
});

test("on a stream card the save button sits outside the card's link and works on its own", async () => {
  const { streamId } = await denimDrop();
  const viewer = await convex.signInAs("viewer");
  const mutations = sentCalls(convex.client);
  const stream: StreamCardData = {
    _id: streamId,
    streamTitle: "Denim drop",
    streamStatus: "SCHEDULED",
    liveShopName: "Sarah's Vintage",
    liveShopSlug: "sarahs-vintage",
    timezone: "America/New_York",
  };
  const router = renderInRouter(inProviders(<StreamCard stream={stream} />));
  const link = screen.getByRole("link", { name: "Denim drop" });
  const button = await buttonWhenKnown();
  expect(link).not.toContainElement(button);
  expect(button.parentElement).toHaveClass("z-10");
  await userEvent.click(button);
  expect(router.state.location.pathname).toBe("/");
  expect(mutations).toHaveLength(1);
  await waitFor(async () => expect(await savedRow(viewer, streamId)).not.toBeNull());
});
