import type { FunctionReturnType } from "convex/server";
import type { api } from "@convex/_generated/api";
import { PLATFORMS, type InsightMetric } from "@convex/lib/constants";

export type ShopInsights = NonNullable<FunctionReturnType<typeof api.insights.forShop>>;

/** What each count is called on the dashboard, in the order it shows them. */
export const METRIC_LABELS: Record<InsightMetric, string> = {
  view: "Page views",
  click: "Click-throughs",
  save: "Saves",
  follow: "Follows gained",
  calendar: "Calendar adds",
  reminder: "Reminders sent",
  goLive: "Go-live notices sent",
};

/** "7 pm", "12 am": an hour of the day as people say it. */
export function hourLabel(hour: number): string {
  const h = hour % 12 === 0 ? 12 : hour % 12;
  return `${h} ${hour < 12 ? "am" : "pm"}`;
}

/** "New York time" for America/New_York. */
export function zoneLabel(timeZone: string): string {
  return `${(timeZone.split("/").at(-1) ?? timeZone).replaceAll("_", " ")} time`;
}

const share = (part: number, whole: number) => `${part} of ${whole} (${Math.round((part / whole) * 100)}%)`;

/** The platform that brings the most click-throughs, said in words. */
export function bestPlatformWords(insights: Pick<ShopInsights, "platforms" | "totals">): string {
  const [best] = insights.platforms;
  if (!best) return "No one has clicked through to a platform yet in the last 30 days.";
  return `${PLATFORMS[best.platform].label} brings the most click-throughs: ${share(best.clicks, insights.totals.click)}.`;
}

/** The counts in the order the dashboard shows them: the visitors' first, then what LiveLocal sent. */
export const SHOWN_METRICS = Object.keys(METRIC_LABELS) as InsightMetric[];

/** The hour of day with the most page views, said in words (the earliest of equals). */
export function bestHourWords(insights: Pick<ShopInsights, "byHour" | "totals" | "timeZone">): string {
  const best = insights.byHour.reduce((top, hour) => (hour.view > top.view ? hour : top));
  if (best.view === 0) return "No page views yet in the last 30 days.";
  return `Most page views come between ${hourLabel(best.hour)} and ${hourLabel((best.hour + 1) % 24)} (${zoneLabel(insights.timeZone)}): ${share(best.view, insights.totals.view)}.`;
}

/** "Nov 25" for 2026-11-25, read as a calendar day (no zone shift). */
export function dayLabel(day: string): string {
  const [year, month, date] = day.split("-").map(Number);
  return new Date(Date.UTC(year ?? 1970, (month ?? 1) - 1, date ?? 1)).toLocaleDateString("en-US", {
    month: "short",
    day: "numeric",
    timeZone: "UTC",
  });
}
