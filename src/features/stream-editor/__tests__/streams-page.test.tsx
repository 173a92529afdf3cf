import { cleanup, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, test, vi } from "vitest";
import { api } from "@convex/_generated/api";
import { LIMITS } from "@convex/lib/limits";
import {
  convexReactMock,
  mutationCalls,
  mutationImpl,
  resetConvexMock,
  setQueryResult,
} from "@/test/convex-mock";
import { renderInRouter } from "@/test/render-in-router";
import { EditStreamPage } from "../edit-stream-page";
import { StreamsPage } from "../streams-page";

vi.mock("convex/react", () => convexReactMock);

const card = (_id: string, streamTitle: string, streamStatus: string, liveShopName: string) => ({
  _id,
  streamTitle,
  streamStatus,
  liveShopName,
  liveShopSlug: "x",
  timezone: "America/New_York",
  streamStartUTC: Date.UTC(2026, 10, 21, 23, 30),
  streamStopUTC: Date.UTC(2026, 10, 22, 1, 0),
});

beforeEach(() => {
  resetConvexMock();
  setQueryResult(api.users.viewer, { _id: "u1", email: "sarah@example.com", name: "Sarah", role: "seller" });
  setQueryResult(api.streams.listMyStreams, [
    {
      liveShopId: "s1",
      liveShopName: "Sarah's Vintage",
      status: "active",
      streams: [
        card("a", "Denim drop", "CREATED", "Sarah's Vintage"),
        card("b", "Boot sale", "ENDED", "Sarah's Vintage"),
      ],
    },
    {
      liveShopId: "s2",
      liveShopName: "Corner Bakery",
      status: "active",
      streams: [card("c", "Bread live", "SCHEDULED", "Corner Bakery")],
    },
  ]);
});

describe("the streams page", () => {
  test("filters by shop through the URL", async () => {
    const router = renderInRouter(<StreamsPage />, { path: "/dashboard/streams" });
    expect(screen.getByText("Bread live")).toBeInTheDocument();
    await userEvent.selectOptions(screen.getByLabelText("Shop"), "Sarah's Vintage");
    expect(router.state.location.search).toBe("?shop=s1");
    expect(screen.queryByText("Bread live")).not.toBeInTheDocument();
    expect(screen.getByRole("link", { name: "New stream" })).toHaveAttribute(
      "href",
      "/dashboard/streams/new?shop=s1",
    );
  });

  test("a stream whose stored times no date can show is listed with them unavailable", () => {
    setQueryResult(api.streams.listMyStreams, [
      {
        liveShopId: "s1",
        liveShopName: "Sarah's Vintage",
        status: "active",
        streams: [
          {
            ...card("a", "Far future", "SCHEDULED", "Sarah's Vintage"),
            streamStopUTC: Number.MAX_SAFE_INTEGER,
          },
          { ...card("b", "Farther", "LIVE", "Sarah's Vintage"), streamStartUTC: 8.64e15 + 10 },
        ],
      },
    ]);
    renderInRouter(<StreamsPage />, { path: "/dashboard/streams" });
    expect(screen.getByText(/Sat, Nov 21, 6:30 PM EST – Time unavailable/)).toBeInTheDocument();
    expect(screen.getByText("Sarah's Vintage · Time unavailable")).toBeInTheDocument();
  });

  test("only drafts can be deleted, after confirming", async () => {
    renderInRouter(<StreamsPage />, { path: "/dashboard/streams" });
    expect(screen.queryByRole("button", { name: "Delete Boot sale" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Delete Bread live" })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Delete Denim drop" }));
    await userEvent.click(
      within(screen.getByRole("alertdialog")).getByRole("button", { name: "Delete draft" }),
    );
    expect(mutationCalls).toEqual([{ name: "streams:deleteStream", args: { streamId: "a" } }]);
  });

  test("duplicating opens the copy", async () => {
    mutationImpl.current = () => Promise.resolve("copy1");
    const router = renderInRouter(<StreamsPage />, {
      path: "/dashboard/streams",
      routes: [{ path: "/dashboard/streams/:streamId", element: <h1>Copy editor</h1> }],
    });
    await userEvent.click(screen.getByRole("button", { name: "Duplicate Boot sale" }));
    expect(await screen.findByRole("heading", { name: "Copy editor" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/dashboard/streams/copy1");
  });
});

describe("an ended stream's page", () => {
  test("offers only the replay link", async () => {
    setQueryResult(api.streams.getMyStream, {
      ...card("b", "Boot sale", "ENDED", "Sarah's Vintage"),
      liveShopId: "s1",
      streamImageUrls: [],
      products: [],
      categories: [],
      cbsaCodes: [],
      platforms: [],
    });
    renderInRouter(<EditStreamPage />, { path: "/dashboard/streams/:streamId", at: "/dashboard/streams/b" });
    expect(screen.queryByLabelText("Title")).not.toBeInTheDocument();
    await userEvent.type(screen.getByLabelText("Replay link (optional)"), "https://youtu.be/abc");
    await userEvent.click(screen.getByRole("button", { name: "Save replay link" }));
    expect(mutationCalls).toEqual([
      { name: "streams:setReplayUrl", args: { streamId: "b", replayVideoUrl: "https://youtu.be/abc" } },
    ]);
    expect(await screen.findByText("Your changes are saved.")).toBeInTheDocument();
  });
});

describe("a stream an admin ended or cancelled", () => {
  test("its owner reads why on the streams page and on its own page", () => {
    setQueryResult(api.streams.listMyStreams, [
      {
        liveShopId: "s1",
        liveShopName: "Sarah's Vintage",
        status: "active",
        streams: [
          {
            ...card("b", "Boot sale", "ENDED", "Sarah's Vintage"),
            statusReason: "Counterfeit goods on air.",
          },
          { ...card("c", "Hat swap", "CANCELLED", "Sarah's Vintage"), statusReason: "Listed twice." },
          card("d", "Denim drop", "ENDED", "Sarah's Vintage"),
        ],
      },
    ]);
    renderInRouter(<StreamsPage />, { path: "/dashboard/streams" });
    const ended = screen.getByRole("region", { name: "Ended and cancelled" });
    expect(
      within(ended)
        .getAllByText(/by the LiveLocal team:/)
        .map((note) => note.parentElement?.textContent),
    ).toEqual([
      "Ended by the LiveLocal team: Counterfeit goods on air.",
      "Cancelled by the LiveLocal team: Listed twice.",
    ]);
    cleanup();

    setQueryResult(api.streams.getMyStream, {
      ...card("b", "Boot sale", "ENDED", "Sarah's Vintage"),
      statusReason: "Counterfeit goods on air.",
      liveShopId: "s1",
      streamImageUrls: [],
      products: [],
      categories: [],
      cbsaCodes: [],
      platforms: [],
    });
    renderInRouter(<EditStreamPage />, { path: "/dashboard/streams/:streamId", at: "/dashboard/streams/b" });
    expect(screen.getByRole("region", { name: "Stream status" })).toHaveTextContent(
      "Ended by the LiveLocal team: Counterfeit goods on air.",
    );
  });
});

describe("moderating from a stream's own page", () => {
  const liveStream = {
    ...card("l", "Denim drop", "LIVE", "Omar's"),
    liveShopId: "s9",
    streamImageUrls: [],
    products: [],
    categories: [],
    cbsaCodes: [],
    platforms: [],
  };

  test("an admin ending someone else's stream is asked why, and the reason is sent", async () => {
    setQueryResult(api.users.viewer, { _id: "u_ada", email: "ada@example.com", name: "Ada", role: "admin" });
    setQueryResult(api.streams.getMyStream, liveStream);
    setQueryResult(api.liveShops.getMyShop, { _id: "s9", userId: "u_omar", status: "active" });
    renderInRouter(<EditStreamPage />, { path: "/dashboard/streams/:streamId", at: "/dashboard/streams/l" });
    await userEvent.click(screen.getByRole("button", { name: "End" }));
    const dialog = screen.getByRole("dialog", { name: "End “Denim drop” now?" });
    expect(dialog).toHaveTextContent(`0/${LIMITS.statusReason} characters`);
    await userEvent.click(within(dialog).getByRole("button", { name: "End stream" }));
    expect(mutationCalls).toEqual([]);
    await userEvent.type(within(dialog).getByRole("textbox"), "Off-topic show.");
    await userEvent.click(within(dialog).getByRole("button", { name: "End stream" }));
    expect(mutationCalls).toEqual([
      {
        name: "streams:setStreamStatus",
        args: { streamId: "l", status: "ENDED", reason: "Off-topic show." },
      },
    ]);
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  });

  test("the owner ending her own stream only confirms", async () => {
    setQueryResult(api.streams.getMyStream, liveStream);
    setQueryResult(api.liveShops.getMyShop, { _id: "s9", userId: "u1", status: "active" });
    renderInRouter(<EditStreamPage />, { path: "/dashboard/streams/:streamId", at: "/dashboard/streams/l" });
    await userEvent.click(screen.getByRole("button", { name: "End" }));
    await userEvent.click(
      within(screen.getByRole("alertdialog")).getByRole("button", { name: "End stream" }),
    );
    expect(mutationCalls).toEqual([
      { name: "streams:setStreamStatus", args: { streamId: "l", status: "ENDED" } },
    ]);
  });
});

describe("a viewer who still owns shops (decision 025)", () => {
  beforeEach(() => {
    setQueryResult(api.users.viewer, {
      _id: "u1",
      email: "sarah@example.com",
      name: "Sarah",
      role: "viewer",
    });
    setQueryResult(api.liveShops.listMyShops, [
      { _id: "s1", liveShopName: "Sarah's Vintage", slug: "x", status: "active", updatedAt: 0 },
    ]);
  });

  test("sees her streams, told they are hidden and why, with nothing to change them", () => {
    renderInRouter(<StreamsPage />, { path: "/dashboard/streams" });
    const banner = screen.getByRole("region", { name: "Your shops are hidden" });
    expect(banner).toHaveTextContent("Your shops and their shows are hidden from the public.");
    expect(banner).toHaveTextContent("They come back when an admin makes you a seller again.");
    expect(screen.getByText("Bread live")).toBeInTheDocument();
    expect(screen.queryByRole("link", { name: "New stream" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Go live" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Delete Denim drop" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Duplicate Boot sale" })).not.toBeInTheDocument();
  });

  test("a live stream's page has no controls and no form", () => {
    setQueryResult(api.streams.getMyStream, {
      ...card("l", "Denim drop", "LIVE", "Sarah's Vintage"),
      liveShopId: "s1",
      streamImageUrls: [],
      products: [],
      categories: [],
      cbsaCodes: [],
      platforms: [],
    });
    setQueryResult(api.liveShops.getMyShop, { _id: "s1", userId: "u1", status: "active" });
    renderInRouter(<EditStreamPage />, { path: "/dashboard/streams/:streamId", at: "/dashboard/streams/l" });
    expect(screen.getByRole("region", { name: "Your shops are hidden" })).toBeInTheDocument();
    expect(screen.getByRole("region", { name: "Stream status" })).toHaveTextContent(
      "Only sellers can change a stream.",
    );
    expect(screen.queryByRole("button", { name: "Pause" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "End" })).not.toBeInTheDocument();
    expect(screen.queryByLabelText("Title")).not.toBeInTheDocument();
  });
});

describe("a restricted seller (issue 16 item 4)", () => {
  test("a live stream's page says it is hidden from the public, and keeps its controls", () => {
    setQueryResult(api.users.viewer, {
      _id: "u1",
      email: "sarah@example.com",
      name: "Sarah",
      role: "seller",
      restrictedAt: Date.UTC(2026, 2, 4),
    });
    setQueryResult(api.liveShops.listMyShops, [
      {
        _id: "s1",
        liveShopName: "Sarah's Vintage",
        slug: "x",
        status: "active",
        hiddenFromPublic: true,
        updatedAt: 0,
      },
    ]);
    setQueryResult(api.streams.getMyStream, {
      ...card("l", "Denim drop", "LIVE", "Sarah's Vintage"),
      liveShopId: "s1",
      streamImageUrls: [],
      products: [],
      categories: [],
      cbsaCodes: [],
      platforms: [],
    });
    setQueryResult(api.liveShops.getMyShop, {
      _id: "s1",
      userId: "u1",
      status: "active",
      ownerRestricted: true,
    });
    renderInRouter(<EditStreamPage />, { path: "/dashboard/streams/:streamId", at: "/dashboard/streams/l" });
    expect(screen.getByRole("region", { name: "Your shops are hidden" })).toHaveTextContent(
      "lifts the restriction",
    );
    expect(screen.getByText("Hidden from the public")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Pause" })).toBeInTheDocument();
    expect(screen.getByLabelText("Title")).toBeInTheDocument();
  });
});
