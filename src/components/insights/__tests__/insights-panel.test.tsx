import { TZDate } from "@date-fns/tz";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, test } from "vitest";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { INSIGHT_METRICS, type InsightMetric, type PlatformType } from "@convex/lib/constants";
import { convexBackend } from "@/test/convex-backend";
import { seedShop, seedStream } from "@/test/convex-seed";
import { renderInRouter } from "@/test/render-in-router";
import { InsightsPanel } from "../insights-panel";
import { bestHourWords, bestPlatformWords, dayLabel, hourLabel, type ShopInsights } from "../insights-words";

const convex = convexBackend();

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

const ZONE = "America/New_York";
const DAY_MS = 24 * 60 * 60 * 1000;

/** `hour`:00 in New York on the New York date `daysAgo` days before today. */
function newYorkHour(daysAgo: number, hour: number): number {
  const then = new TZDate(Date.now() - daysAgo * DAY_MS, ZONE);
  return new TZDate(then.getFullYear(), then.getMonth(), then.getDate(), hour, 0, 0, ZONE).getTime();
}

/** How the panel names the New York date of `at` ("Nov 25"). */
const dayOf = (at: number) =>
  dayLabel(
    new Intl.DateTimeFormat("en-CA", {
      timeZone: ZONE,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
    }).format(at),
  );

type Count = { metric: InsightMetric; count: number; platform?: PlatformType };

/** Settled hours of counts, as the hourly sweep leaves them. */
async function countAt(liveShopId: Id<"liveShops">, hourStart: number, counts: Count[]) {
  await convex.run(async (ctx) => {
    for (const { metric, count, platform } of counts) {
      await ctx.db.insert("insightHours", {
        liveShopId,
        metric,
        ...(platform && { platform }),
        hourStart,
        count,
        settled: true,
      });
    }
  });
}

/**
 * Sarah's shop (New York) with the counts `insights()` describes: two days ago 4 views and a click
 * (9 am: 2 views, a Whatnot click and the shop's other counts; 7 pm: 2 views), yesterday at 7 pm 6 views
 * and 3 clicks (2 Whatnot, 1 TikTok).
 */
async function sarahsShopWithCounts() {
  const sarah = await convex.signInAs("seller");
  const liveShopId = await seedShop(convex, sarah, { liveShopName: "Sarah's Vintage", timezone: ZONE });
  const streamId = await seedStream(convex, liveShopId, { streamTitle: "Denim drop" });
  await countAt(liveShopId, newYorkHour(2, 9), [
    { metric: "view", count: 2 },
    { metric: "click", count: 1, platform: "whatnot" },
    { metric: "save", count: 2 },
    { metric: "follow", count: 1 },
    { metric: "calendar", count: 1 },
    { metric: "reminder", count: 5 },
    { metric: "goLive", count: 6 },
  ]);
  await countAt(liveShopId, newYorkHour(2, 19), [{ metric: "view", count: 2 }]);
  await countAt(liveShopId, newYorkHour(1, 19), [
    { metric: "view", count: 6 },
    { metric: "click", count: 2, platform: "whatnot" },
    { metric: "click", count: 1, platform: "tiktok" },
  ]);
  return { liveShopId, streamId };
}

function renderPanel(liveShopId: Id<"liveShops">) {
  return renderInRouter(
    <convex.wrapper>
      <InsightsPanel liveShopId={liveShopId} />
    </convex.wrapper>,
    { path: "/dashboard" },
  );
}

const pageViews = () => within(screen.getByLabelText("Totals")).getByText("Page views").nextSibling;

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
  test("shows the totals, the best platform and hour in words, and every chart's figures as a table", async () => {
    const { liveShopId } = await sarahsShopWithCounts();
    renderPanel(liveShopId);
    const totals = await screen.findByLabelText("Totals");
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
    expect(row(days, dayOf(newYorkHour(1, 19)))).toEqual([
      dayOf(newYorkHour(1, 19)),
      "6",
      "3",
      "0",
      "0",
      "0",
      "0",
      "0",
    ]);
  });

  test("follows the live query: a new view shows at once", async () => {
    const { liveShopId } = await sarahsShopWithCounts();
    renderPanel(liveShopId);
    await screen.findByLabelText("Totals");
    expect(pageViews()).toHaveTextContent("10");
    await countAt(liveShopId, newYorkHour(1, 20), [{ metric: "view", count: 1 }]);
    await waitFor(() => expect(pageViews()).toHaveTextContent("11"));
  });

  test("a show's insights leave out follows, which are the shop's", async () => {
    const { liveShopId, streamId } = await sarahsShopWithCounts();
    renderPanel(liveShopId);
    await userEvent.selectOptions(await screen.findByLabelText("Insights for"), "Denim drop");
    await convex.answered(api.insights.forShop, { liveShopId, streamId });
    const totals = await screen.findByLabelText("Totals");
    expect(within(totals).queryByText("Follows gained")).toBeNull();
    expect(within(totals).getByText("Saves")).toBeInTheDocument();
  });

  test("says so when the caller may not see the shop's insights", async () => {
    const { liveShopId } = await sarahsShopWithCounts();
    // Another seller: the query answers null, never the counts.
    await convex.signInAs("seller", { key: "other-seller" });
    renderPanel(liveShopId);
    expect(await screen.findByText("These insights are not available to you.")).toBeInTheDocument();
    expect(screen.queryByLabelText("Totals")).not.toBeInTheDocument();
  });
});
