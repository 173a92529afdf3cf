import { act, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, test, vi } from "vitest";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { INSIGHT_METRICS } from "@convex/lib/constants";
import { convexReactMock, resetConvexMock, setQueryResult } from "@/test/convex-mock";
import { renderInRouter } from "@/test/render-in-router";
import { InsightsPanel } from "../insights-panel";
import { bestHourWords, bestPlatformWords, hourLabel, type ShopInsights } from "../insights-words";

vi.mock("convex/react", () => convexReactMock);

const zero = () => Object.fromEntries(INSIGHT_METRICS.map((metric) => [metric, 0])) as ShopInsights["totals"];

function insights(overrides: Partial<ShopInsights> = {}): ShopInsights {
  const byHour = Array.from({ length: 24 }, (_, hour) => ({ hour, ...zero() }));
  byHour[19] = { hour: 19, ...zero(), view: 8, click: 3 };
  byHour[9] = { hour: 9, ...zero(), view: 2, click: 1 };
  return {
    liveShopName: "Sarah's Vintage",
    shows: [{ _id: "st1" as Id<"streams">, streamTitle: "Denim drop" }],
    timeZone: "America/New_York",
    totals: { ...zero(), view: 10, click: 4, save: 2, follow: 1, calendar: 1, reminder: 5, goLive: 6 },
    byDay: [
      { day: "2026-11-24", ...zero(), view: 4, click: 1 },
      { day: "2026-11-25", ...zero(), view: 6, click: 3 },
    ],
    byHour,
    platforms: [
      { platform: "whatnot", clicks: 3 },
      { platform: "tiktok", clicks: 1 },
    ],
    ...overrides,
  };
}

function renderPanel() {
  return renderInRouter(<InsightsPanel liveShopId={"s1" as Id<"liveShops">} />, { path: "/dashboard" });
}

beforeEach(() => resetConvexMock());

describe("insight words", () => {
  test("say the best platform and hour with their share", () => {
    expect(bestPlatformWords(insights())).toBe("Whatnot brings the most click-throughs: 3 of 4 (75%).");
    expect(bestHourWords(insights())).toBe(
      "Most page views come between 7 pm and 8 pm (New York time): 8 of 10 (80%).",
    );
    expect([0, 11, 12, 23].map(hourLabel)).toEqual(["12 am", "11 am", "12 pm", "11 pm"]);
  });

  test("say so when nothing was counted yet", () => {
    const empty = insights({
      totals: zero(),
      platforms: [],
      byHour: Array.from({ length: 24 }, (_, hour) => ({ hour, ...zero() })),
    });
    expect(bestPlatformWords(empty)).toBe(
      "No one has clicked through to a platform yet in the last 30 days.",
    );
    expect(bestHourWords(empty)).toBe("No page views yet in the last 30 days.");
  });
});

describe("InsightsPanel", () => {
  test("shows the totals, the best platform and hour in words, and every chart's figures as a table", () => {
    setQueryResult(api.insights.forShop, insights());
    renderPanel();
    const totals = screen.getByLabelText("Totals");
    expect(within(totals).getByText("Page views").nextSibling).toHaveTextContent("10");
    expect(within(totals).getByText("Follows gained").nextSibling).toHaveTextContent("1");
    expect(screen.getByText("Whatnot brings the most click-throughs: 3 of 4 (75%).")).toBeInTheDocument();
    expect(screen.getByText(/Most page views come between 7 pm and 8 pm/)).toBeInTheDocument();

    const platforms = screen.getByRole("table", { name: "Click-throughs by platform, last 30 days" });
    const row = (table: HTMLElement, header: string) =>
      [...(within(table).getByText(header).closest("tr")?.children ?? [])].map((cell) => cell.textContent);
    expect(row(platforms, "Whatnot")).toEqual(["Whatnot", "3"]);
    // Page views, click-throughs, saves, follows, calendar adds, reminders, go-live notices.
    const hours = screen.getByRole("table", { name: "Counts by hour of day, last 30 days" });
    expect(row(hours, "7 pm")).toEqual(["7 pm", "8", "3", "0", "0", "0", "0", "0"]);
    const days = screen.getByRole("table", { name: "Counts by day, last 30 days" });
    expect(row(days, "Nov 25")).toEqual(["Nov 25", "6", "3", "0", "0", "0", "0", "0"]);
  });

  test("follows the live query: a new view shows at once", () => {
    setQueryResult(api.insights.forShop, insights());
    renderPanel();
    act(() => setQueryResult(api.insights.forShop, insights({ totals: { ...insights().totals, view: 11 } })));
    expect(within(screen.getByLabelText("Totals")).getByText("Page views").nextSibling).toHaveTextContent(
      "11",
    );
  });

  test("a show's insights leave out follows, which are the shop's", async () => {
    setQueryResult(api.insights.forShop, insights());
    renderPanel();
    await userEvent.selectOptions(screen.getByLabelText("Insights for"), "Denim drop");
    const totals = screen.getByLabelText("Totals");
    expect(within(totals).queryByText("Follows gained")).toBeNull();
    expect(within(totals).getByText("Saves")).toBeInTheDocument();
  });

  test("says so when the caller may not see the shop's insights", () => {
    setQueryResult(api.insights.forShop, null);
    renderPanel();
    expect(screen.getByText("These insights are not available to you.")).toBeInTheDocument();
  });
});
