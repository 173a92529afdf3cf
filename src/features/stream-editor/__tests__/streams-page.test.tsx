import { cleanup, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, test } from "vitest";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { LIMITS } from "@convex/lib/limits";
import { restrictUser } from "@convex/model/restriction";
import { convexBackend, type Role } from "@/test/convex-backend";
import { readDoc, seedShop, seedStream, signInOwningShops } from "@/test/convex-seed";
import { sentCalls } from "@/test/convex-calls";
import { renderSellerPage } from "@/test/seller-pages";
import { EditStreamPage } from "../edit-stream-page";
import { StreamsPage } from "../streams-page";

const convex = convexBackend();

/** Sat, Nov 21, 6:30 to 8:00 PM in New York. */
const TIMES = {
  streamStartUTC: Date.UTC(2026, 10, 21, 23, 30),
  streamStopUTC: Date.UTC(2026, 10, 22, 1, 0),
  timezone: "America/New_York",
} as const;

/**
 * Sarah (a seller unless told), signed in with her two shops: a draft and an ended show in Sarah's
 * Vintage, a scheduled one in Corner Bakery.
 */
async function seedSarah(role: Role = "seller") {
  const {
    person,
    shopIds: [vintage, bakery],
  } = await signInOwningShops(
    convex,
    [{ liveShopName: "Sarah's Vintage" }, { liveShopName: "Corner Bakery" }],
    role,
  );
  const streams = {
    denim: await seedStream(convex, vintage, {
      streamTitle: "Denim drop",
      streamStatus: "CREATED",
      ...TIMES,
    }),
    boots: await seedStream(convex, vintage, { streamTitle: "Boot sale", streamStatus: "ENDED", ...TIMES }),
    bread: await seedStream(convex, bakery, {
      streamTitle: "Bread live",
      streamStatus: "SCHEDULED",
      ...TIMES,
    }),
  };
  return { sarah: person, shops: { vintage, bakery }, streams };
}

/** The streams page, once the seller's streams are on it. */
async function renderStreams(
  routes = [{ path: "/dashboard/streams/:streamId", element: <h1>Copy editor</h1> }],
) {
  const router = renderSellerPage(convex, <StreamsPage />, { path: "/dashboard/streams", routes });
  await convex.answered(api.streams.listMyStreams, {});
  await screen.findByRole("heading", { level: 1 });
  return router;
}

/** A stream's own page, once its status section is drawn. */
async function renderStream(streamId: Id<"streams">) {
  renderSellerPage(convex, <EditStreamPage />, {
    path: "/dashboard/streams/:streamId",
    at: `/dashboard/streams/${streamId}`,
  });
  await screen.findByRole("region", { name: "Stream status" });
}

describe("the streams page", () => {
  test("filters by shop through the URL", async () => {
    const { shops } = await seedSarah();
    const router = await renderStreams();
    expect(await screen.findByText("Bread live")).toBeInTheDocument();
    await userEvent.selectOptions(screen.getByLabelText("Shop"), "Sarah's Vintage");
    expect(router.state.location.search).toBe(`?shop=${shops.vintage}`);
    expect(screen.queryByText("Bread live")).not.toBeInTheDocument();
    expect(screen.getByRole("link", { name: "New stream" })).toHaveAttribute(
      "href",
      `/dashboard/streams/new?shop=${shops.vintage}`,
    );
  });

  test("a stream whose stored times no date can show is listed with them unavailable", async () => {
    const {
      shopIds: [vintage],
    } = await signInOwningShops(convex, [{ liveShopName: "Sarah's Vintage" }]);
    await seedStream(convex, vintage, {
      streamTitle: "Far future",
      ...TIMES,
      streamStopUTC: Number.MAX_SAFE_INTEGER,
    });
    await seedStream(convex, vintage, {
      streamTitle: "Farther",
      streamStatus: "LIVE",
      ...TIMES,
      streamStartUTC: 8.64e15 + 10,
    });
    await renderStreams();
    expect(await screen.findByText(/Sat, Nov 21, 6:30 PM EST – Time unavailable/)).toBeInTheDocument();
    expect(screen.getByText("Sarah's Vintage · Time unavailable")).toBeInTheDocument();
  });

  test("only drafts can be deleted, after confirming", async () => {
    const { streams } = await seedSarah();
    const sent = sentCalls(convex.client);
    await renderStreams();
    await screen.findByText("Bread live");
    expect(screen.queryByRole("button", { name: "Delete Boot sale" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Delete Bread live" })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Delete Denim drop" }));
    await userEvent.click(
      within(screen.getByRole("alertdialog")).getByRole("button", { name: "Delete draft" }),
    );
    expect(sent).toEqual([{ name: "streams:deleteStream", args: { streamId: streams.denim } }]);
    await waitFor(() => expect(screen.queryByText("Denim drop")).not.toBeInTheDocument());
    expect(await readDoc(convex, streams.denim)).toBeNull();
  });

  test("duplicating opens the copy", async () => {
    const { sarah, streams } = await seedSarah();
    const router = await renderStreams();
    await userEvent.click(await screen.findByRole("button", { name: "Duplicate Boot sale" }));
    expect(await screen.findByRole("heading", { name: "Copy editor" })).toBeInTheDocument();
    const mine = (await convex.call(api.streams.listMyStreams, {}, sarah)).flatMap((shop) => shop.streams);
    const copy = mine.find((stream) => !Object.values(streams).includes(stream._id));
    expect(copy).toMatchObject({ streamStatus: "CREATED" });
    expect(router.state.location.pathname).toBe(`/dashboard/streams/${copy!._id}`);
  });
});

describe("an ended stream's page", () => {
  test("offers only the replay link", async () => {
    const { streams } = await seedSarah();
    const sent = sentCalls(convex.client);
    await renderStream(streams.boots);
    expect(screen.queryByLabelText("Title")).not.toBeInTheDocument();
    await userEvent.type(screen.getByLabelText("Replay link (optional)"), "https://youtu.be/abc");
    await userEvent.click(screen.getByRole("button", { name: "Save replay link" }));
    expect(sent).toEqual([
      {
        name: "streams:setReplayUrl",
        args: { streamId: streams.boots, replayVideoUrl: "https://youtu.be/abc" },
      },
    ]);
    expect(await screen.findByText("Your changes are saved.")).toBeInTheDocument();
    expect((await readDoc(convex, streams.boots))?.replayVideoUrl).toBe("https://youtu.be/abc");
  });
});

describe("a stream an admin ended or cancelled", () => {
  test("its owner reads why on the streams page and on its own page", async () => {
    const {
      shopIds: [vintage],
    } = await signInOwningShops(convex, [{ liveShopName: "Sarah's Vintage" }]);
    // Newest first on the page.
    await seedStream(convex, vintage, { streamTitle: "Denim drop", streamStatus: "ENDED", ...TIMES });
    await seedStream(convex, vintage, {
      streamTitle: "Hat swap",
      streamStatus: "CANCELLED",
      statusReason: "Listed twice.",
      ...TIMES,
    });
    const boots = await seedStream(convex, vintage, {
      streamTitle: "Boot sale",
      streamStatus: "ENDED",
      statusReason: "Counterfeit goods on air.",
      ...TIMES,
    });
    await renderStreams();
    const ended = await screen.findByRole("region", { name: "Ended and cancelled" });
    await within(ended).findByText("Boot sale");
    expect(
      within(ended)
        .getAllByText(/by the LiveLocal team:/)
        .map((note) => note.parentElement?.textContent),
    ).toEqual([
      "Ended by the LiveLocal team: Counterfeit goods on air.",
      "Cancelled by the LiveLocal team: Listed twice.",
    ]);
    cleanup();

    await renderStream(boots);
    await waitFor(() =>
      expect(screen.getByRole("region", { name: "Stream status" })).toHaveTextContent(
        "Ended by the LiveLocal team: Counterfeit goods on air.",
      ),
    );
  });
});

/** Sarah, a seller signed in, with her shop's "Denim drop" live now. */
async function sarahLiveNow() {
  const {
    person: sarah,
    shopIds: [vintage],
  } = await signInOwningShops(convex, [{ liveShopName: "Sarah's Vintage" }]);
  const live = await seedStream(convex, vintage, {
    streamTitle: "Denim drop",
    streamStatus: "LIVE",
    ...TIMES,
  });
  return { sarah, live };
}

describe("moderating from a stream's own page", () => {
  /** Omar's show, live now. */
  async function seedOmarsLiveShow() {
    const omar = await convex.addUser("seller", { key: "omar", name: "Omar" });
    return await seedStream(convex, await seedShop(convex, omar, { liveShopName: "Omar's" }), {
      streamTitle: "Denim drop",
      streamStatus: "LIVE",
      ...TIMES,
    });
  }

  test("an admin ending someone else's stream is asked why, and the reason is sent", async () => {
    const live = await seedOmarsLiveShow();
    await convex.signInAs("admin", { name: "Ada" });
    const sent = sentCalls(convex.client);
    await renderStream(live);
    await userEvent.click(await screen.findByRole("button", { name: "End" }));
    const dialog = screen.getByRole("dialog", { name: "End “Denim drop” now?" });
    expect(dialog).toHaveTextContent(`0/${LIMITS.statusReason} characters`);
    await userEvent.click(within(dialog).getByRole("button", { name: "End stream" }));
    expect(sent).toEqual([]);
    await userEvent.type(within(dialog).getByRole("textbox"), "Off-topic show.");
    await userEvent.click(within(dialog).getByRole("button", { name: "End stream" }));
    expect(sent).toEqual([
      {
        name: "streams:setStreamStatus",
        args: { streamId: live, status: "ENDED", reason: "Off-topic show." },
      },
    ]);
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    await waitFor(async () =>
      expect(await readDoc(convex, live)).toMatchObject({
        streamStatus: "ENDED",
        statusReason: "Off-topic show.",
      }),
    );
  });

  test("the owner ending her own stream only confirms", async () => {
    const { live } = await sarahLiveNow();
    const sent = sentCalls(convex.client);
    await renderStream(live);
    await userEvent.click(await screen.findByRole("button", { name: "End" }));
    await userEvent.click(
      within(screen.getByRole("alertdialog")).getByRole("button", { name: "End stream" }),
    );
    expect(sent).toEqual([{ name: "streams:setStreamStatus", args: { streamId: live, status: "ENDED" } }]);
    await waitFor(async () => expect((await readDoc(convex, live))?.streamStatus).toBe("ENDED"));
  });
});

describe("a viewer who still owns shops (decision 025)", () => {
  test("sees her streams, told they are hidden and why, with nothing to change them", async () => {
    await seedSarah("viewer");
    await renderStreams();
    const banner = await screen.findByRole("region", { name: "Your shops are hidden" });
    expect(banner).toHaveTextContent("Your shops and their shows are hidden from the public.");
    expect(banner).toHaveTextContent("They come back when an admin makes you a seller again.");
    expect(await screen.findByText("Bread live")).toBeInTheDocument();
    expect(screen.queryByRole("link", { name: "New stream" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Go live" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Delete Denim drop" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Duplicate Boot sale" })).not.toBeInTheDocument();
  });

  test("a live stream's page has no controls and no form", async () => {
    const { shops } = await seedSarah("viewer");
    const live = await seedStream(convex, shops.vintage, {
      streamTitle: "Denim drop",
      streamStatus: "LIVE",
      ...TIMES,
    });
    await renderStream(live);
    expect(await screen.findByRole("region", { name: "Your shops are hidden" })).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByRole("region", { name: "Stream status" })).toHaveTextContent(
        "Only sellers can change a stream.",
      ),
    );
    expect(screen.queryByRole("button", { name: "Pause" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "End" })).not.toBeInTheDocument();
    expect(screen.queryByLabelText("Title")).not.toBeInTheDocument();
  });
});

describe("a restricted seller (issue 16 item 4)", () => {
  test("a live stream's page says it is hidden from the public, and keeps its controls", async () => {
    const { sarah, live } = await sarahLiveNow();
    await convex.run(async (ctx) =>
      restrictUser(ctx, (await ctx.db.get(sarah.userId))!, Date.UTC(2026, 2, 4)),
    );
    await renderStream(live);
    expect(await screen.findByRole("region", { name: "Your shops are hidden" })).toHaveTextContent(
      "lifts the restriction",
    );
    expect(await screen.findByText("Hidden from the public")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Pause" })).toBeInTheDocument();
    expect(screen.getByLabelText("Title")).toBeInTheDocument();
  });
});
