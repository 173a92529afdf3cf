import { useQuery } from "convex/react";
import { useId, useState, type ReactNode } from "react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { INSIGHTS_RETENTION_DAYS } from "@convex/lib/constants";
import { DailyChart, HourChart, PlatformChart } from "./insights-charts";
import {
  bestHourWords,
  bestPlatformWords,
  METRIC_LABELS,
  SHOWN_METRICS,
  type ShopInsights,
} from "./insights-words";

/** Follows are a shop's, not a show's: a show's insights leave them out. */
const SHOW_METRICS = SHOWN_METRICS.filter((metric) => metric !== "follow");

/**
 * One shop's insights of the last 30 days, or one of its shows' (chosen here), live: totals, the best
 * platform and hour in words, and charts by day, hour and platform. For its owner and admins; the
 * query answers anyone else with null.
 */
export function InsightsPanel({
  liveShopId,
  missing = <p>These insights are not available to you.</p>,
}: {
  liveShopId: Id<"liveShops">;
  /** What the query's null means where the panel is: not one's own shop, or (for an admin) no shop. */
  missing?: ReactNode;
}) {
  const [streamId, setStreamId] = useState<Id<"streams"> | "">("");
  const insights = useQuery(api.insights.forShop, { liveShopId, ...(streamId && { streamId }) });
  const selectId = useId();
  if (insights === undefined) {
    return <p className="text-slate-500 dark:text-slate-400">Loading insights…</p>;
  }
  if (insights === null) return missing;
  const metrics = streamId ? SHOW_METRICS : SHOWN_METRICS;
  return (
    <div className="grid min-w-0 gap-6">
      <div className="flex flex-wrap items-center gap-2">
        <label htmlFor={selectId} className="text-sm font-medium">
          Insights for
        </label>
        <select
          id={selectId}
          value={streamId}
          onChange={(event) => setStreamId(event.target.value as Id<"streams"> | "")}
          className="w-full min-w-0 rounded-lg sm:w-auto sm:max-w-md border border-slate-300 bg-white px-3 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-900"
        >
          <option value="">All of {insights.liveShopName}</option>
          {insights.shows.map((show) => (
            <option key={show._id} value={show._id}>
              {show.streamTitle}
            </option>
          ))}
        </select>
        <span className="text-sm text-slate-500 dark:text-slate-400">· last 30 days</span>
      </div>
      <Totals insights={insights} metrics={metrics} />
      <ul className="grid gap-2 rounded-2xl bg-primary-50 p-4 text-primary-950 dark:bg-slate-900 dark:text-slate-100">
        <li className="flex gap-2">
          <span aria-hidden="true">★</span>
          {bestPlatformWords(insights)}
        </li>
        <li className="flex gap-2">
          <span aria-hidden="true">◷</span>
          {bestHourWords(insights)}
        </li>
      </ul>
      <div className="grid min-w-0 gap-4 lg:grid-cols-2">
        <div className="min-w-0 lg:col-span-2">
          <DailyChart insights={insights} />
        </div>
        <HourChart insights={insights} />
        <PlatformChart insights={insights} />
      </div>
      <p className="text-sm text-slate-500 dark:text-slate-400">
        Counted without knowing who: one view per visitor, show and hour; the shop owner’s own visits and
        people who turned analytics off are not counted. Counts are kept {INSIGHTS_RETENTION_DAYS} days.
      </p>
    </div>
  );
}

function Totals({
  insights,
  metrics,
}: {
  insights: ShopInsights;
  metrics: readonly (keyof ShopInsights["totals"])[];
}) {
  return (
    <dl aria-label="Totals" className="grid grid-cols-2 gap-3 sm:grid-cols-4 lg:grid-cols-7">
      {metrics.map((metric) => (
        <div key={metric} className="rounded-2xl border border-slate-200 p-3 dark:border-slate-800">
          <dt className="text-xs font-medium text-slate-600 dark:text-slate-300">{METRIC_LABELS[metric]}</dt>
          <dd className="mt-1 text-2xl font-bold tabular-nums">
            {insights.totals[metric].toLocaleString("en-US")}
          </dd>
        </div>
      ))}
    </dl>
  );
}
