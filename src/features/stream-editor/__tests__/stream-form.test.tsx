import { fireEvent, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, test } from "vitest";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { replaceShopMsas } from "@convex/model/liveShops";
import { convexBackend, type TestPerson } from "@/test/convex-backend";
import { signInOwningShops } from "@/test/convex-seed";
import { holdCalls, sentCalls } from "@/test/convex-calls";
import { renderSellerPage } from "@/test/seller-pages";
import { NewStreamPage } from "../new-stream-page";

const convex = convexBackend();

let sarah: TestPerson;
let shopId: Id<"liveShops">;

/** Sarah, a seller, signed in with her one shop (in Los Angeles unless told). */
async function signInWithShop(shop: Parameters<typeof signInOwningShops>[1][number] = {}) {
  const seeded = await signInOwningShops(convex, [
    { liveShopName: "Sarah's Vintage", timezone: "America/Los_Angeles", ...shop },
  ]);
  sarah = seeded.person;
  [shopId] = seeded.shopIds;
}

async function renderNewStream() {
  const router = renderSellerPage(convex, <NewStreamPage />, {
    path: "/dashboard/streams/new",
    at: `/dashboard/streams/new?shop=${shopId}`,
    routes: [{ path: "/dashboard/streams/:streamId", element: <h1>Stream editor</h1> }],
  });
  await screen.findByLabelText("Title");
  return router;
}

/** The shop's streams as the backend has them, each with its links, as its edit form reads them. */
async function savedStreams() {
  const [shop] = await convex.call(api.streams.listMyStreams, {}, sarah);
  return await Promise.all(
    (shop?.streams ?? []).map((stream) =>
      convex.call(api.streams.getMyStream, { streamId: stream._id }, sarah),
    ),
  );
}

/** Types a whole value at once (a paste): key by key is slow in jsdom for long links. */
async function fill(field: HTMLElement, value: string) {
  await userEvent.clear(field);
  await userEvent.click(field);
  await userEvent.paste(value);
}

const setTime = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });

async function addPlatformLink(platform: string) {
  await userEvent.click(screen.getByRole("button", { name: "Add a platform link" }));
  const selects = screen.getAllByLabelText("Platform");
  await userEvent.selectOptions(selects[selects.length - 1], platform);
}

describe("the stream form", () => {
  beforeEach(() => signInWithShop());

  test("start and stop are entered in the shop's zone and sent as UTC milliseconds", async () => {
    const router = await renderNewStream();
    expect(screen.getAllByText("Pacific (Los Angeles) time").length).toBeGreaterThan(0);
    await userEvent.type(screen.getByLabelText("Title"), "Denim drop");
    setTime("Start (optional)", "2026-11-21T19:30");
    setTime("Stop (optional)", "2026-11-21T21:00");
    await userEvent.click(screen.getByRole("button", { name: "Create stream" }));

    expect(await screen.findByRole("heading", { name: "Stream editor" })).toBeInTheDocument();
    const streams = await savedStreams();
    expect(streams).toHaveLength(1);
    expect(streams[0]).toMatchObject({
      liveShopId: shopId,
      streamTitle: "Denim drop",
      streamStatus: "CREATED",
      streamImageUrls: [],
      // 7:30 PM in Los Angeles on Nov 21 (PST, UTC-8) is 3:30 AM UTC on Nov 22.
      streamStartUTC: Date.UTC(2026, 10, 22, 3, 30),
      streamStopUTC: Date.UTC(2026, 10, 22, 5, 0),
      timezone: "America/Los_Angeles",
      products: [],
      categories: [],
      cbsaCodes: [],
      platforms: [],
    });
    expect(router.state.location.pathname).toBe(`/dashboard/streams/${streams[0]!._id}`);
  });

  test("a stop before the start is refused beside the stop field", async () => {
    const sent = sentCalls(convex.client);
    await renderNewStream();
    await userEvent.type(screen.getByLabelText("Title"), "Denim drop");
    setTime("Start (optional)", "2026-11-21T19:30");
    setTime("Stop (optional)", "2026-11-21T18:00");
    await userEvent.click(screen.getByRole("button", { name: "Create stream" }));
    expect(screen.getByText("The stop time must be after the start time.")).toBeInTheDocument();
    expect(screen.getByLabelText("Stop (optional)")).toHaveFocus();
    expect(sent).toEqual([]);
    expect(await savedStreams()).toEqual([]);
  });

  test("the form names the years a time may fall in, and refuses one outside them before sending", async () => {
    const sent = sentCalls(convex.client);
    await renderNewStream();
    expect(screen.getByText(/Dates from 2000 to 2099\./)).toBeInTheDocument();
    for (const label of ["Start (optional)", "Stop (optional)"]) {
      expect(screen.getByLabelText(label)).toHaveAttribute("max", "2099-12-31T23:59");
    }
    expect(screen.getByLabelText("Start (optional)")).toHaveAttribute("min", "2000-01-01T00:00");
    await userEvent.type(screen.getByLabelText("Title"), "Denim drop");
    setTime("Start (optional)", "1999-12-30T19:30");
    await userEvent.click(screen.getByRole("button", { name: "Create stream" }));
    expect(screen.getByText("Choose a date from 2000 to 2099.")).toBeInTheDocument();
    expect(screen.getByLabelText("Start (optional)")).toHaveFocus();
    expect(sent).toEqual([]);
    expect(await savedStreams()).toEqual([]);
  });

  test("a platform's stream link is checked against its hosts beside the field", async () => {
    await renderNewStream();
    await addPlatformLink("Whatnot");
    const link = screen.getByLabelText("Whatnot stream link");
    expect(screen.getByText("A link on whatnot.com.")).toBeInTheDocument();
    await fill(link, "https://www.tiktok.com/@sarah/live");
    await userEvent.tab();
    expect(screen.getByText("A Whatnot link must be on whatnot.com.")).toBeInTheDocument();
    expect(link).toHaveAttribute("aria-invalid", "true");
    await userEvent.clear(link);
    await fill(link, "https://www.whatnot.com/live/sarah");
    expect(screen.queryByText("A Whatnot link must be on whatnot.com.")).not.toBeInTheDocument();
  });

  test("'other' takes any secure link, but not a plain http one", async () => {
    await renderNewStream();
    await addPlatformLink("Other");
    const link = screen.getByLabelText("Other stream link");
    await fill(link, "http://example.com/live");
    await userEvent.tab();
    expect(screen.getByText("Use a secure link that starts with https://.")).toBeInTheDocument();
    await userEvent.clear(link);
    await fill(link, "https://example.com/live");
    expect(screen.queryByText("Use a secure link that starts with https://.")).not.toBeInTheDocument();
  });

  test("each platform can be linked once, and the links are saved with the stream", async () => {
    await renderNewStream();
    await userEvent.type(screen.getByLabelText("Title"), "Denim drop");
    await addPlatformLink("Whatnot");
    await fill(screen.getByLabelText("Whatnot stream link"), "https://www.whatnot.com/live/sarah");
    await addPlatformLink("TikTok Shop");
    const second = screen.getByRole("group", { name: "TikTok Shop link" });
    const options = within(within(second).getByLabelText("Platform")).getAllByRole("option");
    expect(options.map((option) => option.textContent)).not.toContain("Whatnot");
    expect(options).toHaveLength(21);
    await fill(screen.getByLabelText("TikTok Shop stream link"), "https://www.tiktok.com/@sarah/live");

    await userEvent.click(screen.getByRole("button", { name: "Create stream" }));
    await screen.findByRole("heading", { name: "Stream editor" });
    const streams = await savedStreams();
    expect(streams).toHaveLength(1);
    // The backend lists a stream's links by platform, whatever order they were added in.
    expect(streams[0]?.platforms).toEqual([
      { platformType: "tiktok", platformStreamUrl: "https://www.tiktok.com/@sarah/live" },
      { platformType: "whatnot", platformStreamUrl: "https://www.whatnot.com/live/sarah" },
    ]);
  });

  test("the server's refusal of any part is shown in words; nothing typed is lost and the next save sends it all again", async () => {
    // The shop serves a metro area the backend drops before the save (and has again after).
    const metro = {
      cbsaCode: "99999",
      msaLabel: "Testville, ZZ",
      states: ["ZZ"],
      coordinatesLat: 0,
      coordinatesLng: 0,
      createdAt: 0,
      updatedAt: 0,
    };
    let metroId = await convex.run((ctx) => ctx.db.insert("msas", metro));
    await convex.run(async (ctx) => replaceShopMsas(ctx, (await ctx.db.get(shopId))!, ["99999"]));
    await renderNewStream();
    expect(screen.getByRole("list", { name: "Metro areas: chosen" })).toHaveTextContent("99999");
    await convex.run((ctx) => ctx.db.delete(metroId));
    await userEvent.type(screen.getByLabelText("Title"), "Denim drop");
    await addPlatformLink("Whatnot");
    await fill(screen.getByLabelText("Whatnot stream link"), "https://www.whatnot.com/live/sarah");
    await userEvent.click(screen.getByRole("button", { name: "Create stream" }));

    expect(await screen.findByRole("alert")).toHaveTextContent('Unknown metro area "99999".');
    expect(screen.getByLabelText("Title")).toHaveValue("Denim drop");
    expect(screen.getByLabelText("Whatnot stream link")).toHaveValue("https://www.whatnot.com/live/sarah");
    expect(screen.getByText("Unsaved changes")).toBeInTheDocument();
    expect(await savedStreams()).toEqual([]);
    // Nothing was created: the button still creates, and sends the whole form once more.
    metroId = await convex.run((ctx) => ctx.db.insert("msas", metro));
    try {
      await userEvent.click(screen.getByRole("button", { name: "Create stream" }));
      expect(await screen.findByRole("heading", { name: "Stream editor" })).toBeInTheDocument();
      const streams = await savedStreams();
      expect(streams).toHaveLength(1);
      expect(streams[0]).toMatchObject({
        streamTitle: "Denim drop",
        cbsaCodes: ["99999"],
        platforms: [{ platformType: "whatnot", platformStreamUrl: "https://www.whatnot.com/live/sarah" }],
      });
    } finally {
      // The metro areas are reference data, kept from test to test: this one goes.
      await convex.run((ctx) => ctx.db.delete(metroId));
    }
  });

  test("while the save is with the server the button says so and cannot be pressed again", async () => {
    await renderNewStream();
    const held = holdCalls(convex.client, "mutation");
    await userEvent.type(screen.getByLabelText("Title"), "Denim drop");
    await userEvent.click(screen.getByRole("button", { name: "Create stream" }));
    expect(screen.getByRole("button", { name: "Saving…" })).toBeDisabled();
    held.release();
    expect(await screen.findByRole("heading", { name: "Stream editor" })).toBeInTheDocument();
    expect(await savedStreams()).toHaveLength(1);
  });
});

describe("a new stream (issue 16 item 6)", () => {
  /** Creates the stream as the form stands; the one stream the backend then has. */
  async function createdStream() {
    await userEvent.click(screen.getByRole("button", { name: "Create stream" }));
    await screen.findByRole("heading", { name: "Stream editor" });
    const streams = await savedStreams();
    expect(streams).toHaveLength(1);
    return streams[0];
  }

  beforeEach(() =>
    signInWithShop({
      timezone: "America/New_York",
      categories: [
        { categoryId: "home_goods", priority: 1 },
        { categoryId: "fashion_apparel", subcategoryId: "clothing", priority: 0 },
      ],
      cbsaCodes: ["12420"],
    }),
  );

  test("starts with the shop's categories and metro areas, saved with it", async () => {
    await renderNewStream();
    const section = screen.getByRole("region", { name: "Categories and metro areas" });
    expect(section).toHaveTextContent("Filled in from Sarah's Vintage; change them for this show.");
    expect(within(screen.getByRole("group", { name: "Category 1" })).getByLabelText("Category")).toHaveValue(
      "fashion_apparel",
    );
    expect(within(screen.getByRole("group", { name: "Category 2" })).getByLabelText("Category")).toHaveValue(
      "home_goods",
    );
    expect(screen.getByRole("list", { name: "Metro areas: chosen" })).toHaveTextContent(
      "Austin-Round Rock-San Marcos, TX",
    );

    await userEvent.type(screen.getByLabelText("Title"), "Denim drop");
    expect(await createdStream()).toMatchObject({
      categories: [
        { categoryId: "fashion_apparel", subcategoryId: "clothing", priority: 0 },
        { categoryId: "home_goods", priority: 1 },
      ],
      cbsaCodes: ["12420"],
    });
  });

  test("what the seller changes is what the stream gets; emptied lists are sent empty", async () => {
    await renderNewStream();
    await userEvent.click(screen.getByRole("button", { name: "Remove Austin-Round Rock-San Marcos, TX" }));
    await userEvent.click(
      within(screen.getByRole("group", { name: "Category 2" })).getByRole("button", {
        name: /Remove/,
      }),
    );
    await userEvent.type(screen.getByLabelText("Title"), "Denim drop");
    expect(await createdStream()).toMatchObject({
      categories: [{ categoryId: "fashion_apparel", subcategoryId: "clothing", priority: 0 }],
      cbsaCodes: [],
    });
  });
});
