import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, test, vi } from "vitest";
import { api } from "@convex/_generated/api";
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
