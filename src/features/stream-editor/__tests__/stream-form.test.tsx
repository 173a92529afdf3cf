import { fireEvent, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { ConvexError } from "convex/values";
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
import { NewStreamPage } from "../new-stream-page";

vi.mock("convex/react", () => convexReactMock);

function renderNewStream() {
  return renderInRouter(<NewStreamPage />, {
    path: "/dashboard/streams/new",
    at: "/dashboard/streams/new?shop=s1",
    routes: [{ path: "/dashboard/streams/:streamId", element: <h1>Stream editor</h1> }],
  });
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

beforeEach(() => {
  resetConvexMock();
  setQueryResult(api.users.viewer, { _id: "u1", email: "sarah@example.com", name: "Sarah", role: "seller" });
  setQueryResult(api.liveShops.listMyShops, [
    { _id: "s1", liveShopName: "Sarah's Vintage", slug: "sarahs-vintage", status: "active", updatedAt: 0 },
  ]);
  setQueryResult(api.liveShops.getMyShop, {
    _id: "s1",
    liveShopName: "Sarah's Vintage",
    status: "active",
    timezone: "America/Los_Angeles",
    categories: [],
    cbsaCodes: [],
  });
  mutationImpl.current = (name) => Promise.resolve(name === "streams:createStream" ? "st1" : null);
});

describe("the stream form", () => {
  test("start and stop are entered in the shop's zone and sent as UTC milliseconds", async () => {
    const router = renderNewStream();
    expect(screen.getAllByText("Pacific (Los Angeles) time").length).toBeGreaterThan(0);
    await userEvent.type(screen.getByLabelText("Title"), "Denim drop");
    setTime("Start (optional)", "2026-11-21T19:30");
    setTime("Stop (optional)", "2026-11-21T21:00");
    await userEvent.click(screen.getByRole("button", { name: "Create stream" }));

    expect(mutationCalls[0]).toEqual({
      name: "streams:createStream",
      args: {
        liveShopId: "s1",
        stream: {
          streamTitle: "Denim drop",
          streamImageUrls: [],
          // 7:30 PM in Los Angeles on Nov 21 (PST, UTC-8) is 3:30 AM UTC on Nov 22.
          streamStartUTC: Date.UTC(2026, 10, 22, 3, 30),
          streamStopUTC: Date.UTC(2026, 10, 22, 5, 0),
          timezone: "America/Los_Angeles",
          products: [],
        },
        categories: [],
        cbsaCodes: [],
        platforms: [],
      },
    });
    expect(mutationCalls).toHaveLength(1);
    expect(await screen.findByRole("heading", { name: "Stream editor" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/dashboard/streams/st1");
  });

  test("a stop before the start is refused beside the stop field", async () => {
    renderNewStream();
    await userEvent.type(screen.getByLabelText("Title"), "Denim drop");
    setTime("Start (optional)", "2026-11-21T19:30");
    setTime("Stop (optional)", "2026-11-21T18:00");
    await userEvent.click(screen.getByRole("button", { name: "Create stream" }));
    expect(screen.getByText("The stop time must be after the start time.")).toBeInTheDocument();
    expect(screen.getByLabelText("Stop (optional)")).toHaveFocus();
    expect(mutationCalls).toEqual([]);
  });

  test("the form names the years a time may fall in, and refuses one outside them before sending", async () => {
    renderNewStream();
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
    expect(mutationCalls).toEqual([]);
  });

  test("a platform's stream link is checked against its hosts beside the field", async () => {
    renderNewStream();
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
    renderNewStream();
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
    renderNewStream();
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
    expect(mutationCalls).toHaveLength(1);
    expect(mutationCalls[0]).toMatchObject({
      name: "streams:createStream",
      args: {
        platforms: [
          { platformType: "whatnot", platformStreamUrl: "https://www.whatnot.com/live/sarah" },
          { platformType: "tiktok", platformStreamUrl: "https://www.tiktok.com/@sarah/live" },
        ],
      },
    });
  });

  test("the server's refusal of any part is shown in words; nothing typed is lost and the next save sends it all again", async () => {
    mutationImpl.current = () =>
      Promise.reject(new ConvexError({ code: "INVALID_ARGUMENT", message: 'Unknown metro area "99999".' }));
    renderNewStream();
    await userEvent.type(screen.getByLabelText("Title"), "Denim drop");
    await addPlatformLink("Whatnot");
    await fill(screen.getByLabelText("Whatnot stream link"), "https://www.whatnot.com/live/sarah");
    await userEvent.click(screen.getByRole("button", { name: "Create stream" }));

    expect(await screen.findByRole("alert")).toHaveTextContent('Unknown metro area "99999".');
    expect(screen.getByLabelText("Title")).toHaveValue("Denim drop");
    expect(screen.getByLabelText("Whatnot stream link")).toHaveValue("https://www.whatnot.com/live/sarah");
    expect(screen.getByText("Unsaved changes")).toBeInTheDocument();
    // Nothing was created: the button still creates, and sends the whole form once more.
    mutationImpl.current = () => Promise.resolve("st1");
    await userEvent.click(screen.getByRole("button", { name: "Create stream" }));
    expect(await screen.findByRole("heading", { name: "Stream editor" })).toBeInTheDocument();
    expect(mutationCalls.map((call) => call.name)).toEqual(["streams:createStream", "streams:createStream"]);
    expect(mutationCalls[1]?.args).toEqual(mutationCalls[0]?.args);
  });

  test("while the save is with the server the button says so and cannot be pressed again", async () => {
    let finish: (id: string) => void = () => {};
    mutationImpl.current = () => new Promise((resolve) => (finish = resolve));
    renderNewStream();
    await userEvent.type(screen.getByLabelText("Title"), "Denim drop");
    await userEvent.click(screen.getByRole("button", { name: "Create stream" }));
    expect(screen.getByRole("button", { name: "Saving…" })).toBeDisabled();
    finish("st1");
    expect(await screen.findByRole("heading", { name: "Stream editor" })).toBeInTheDocument();
    expect(mutationCalls).toHaveLength(1);
  });
});

describe("a new stream (issue 16 item 6)", () => {
  beforeEach(() => {
    setQueryResult(api.liveShops.getMyShop, {
      _id: "s1",
      liveShopName: "Sarah's Vintage",
      status: "active",
      timezone: "America/New_York",
      categories: [
        { categoryId: "home_goods", priority: 1 },
        { categoryId: "fashion_apparel", subcategoryId: "clothing", priority: 0 },
      ],
      cbsaCodes: ["12420"],
    });
  });

  test("starts with the shop's categories and metro areas, saved with it", async () => {
    renderNewStream();
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
    await userEvent.click(screen.getByRole("button", { name: "Create stream" }));
    expect(mutationCalls).toHaveLength(1);
    expect(mutationCalls[0]).toMatchObject({
      name: "streams:createStream",
      args: {
        categories: [
          { categoryId: "fashion_apparel", subcategoryId: "clothing", priority: 0 },
          { categoryId: "home_goods", priority: 1 },
        ],
        cbsaCodes: ["12420"],
      },
    });
  });

  test("what the seller changes is what the stream gets; emptied lists are sent empty", async () => {
    renderNewStream();
    await userEvent.click(screen.getByRole("button", { name: "Remove Austin-Round Rock-San Marcos, TX" }));
    await userEvent.click(
      within(screen.getByRole("group", { name: "Category 2" })).getByRole("button", {
        name: /Remove/,
      }),
    );
    await userEvent.type(screen.getByLabelText("Title"), "Denim drop");
    await userEvent.click(screen.getByRole("button", { name: "Create stream" }));
    expect(mutationCalls).toHaveLength(1);
    expect(mutationCalls[0]).toMatchObject({
      name: "streams:createStream",
      args: {
        categories: [{ categoryId: "fashion_apparel", subcategoryId: "clothing", priority: 0 }],
        cbsaCodes: [],
      },
    });
  });
});
