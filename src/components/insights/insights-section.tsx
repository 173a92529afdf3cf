import { useId, useState } from "react";
import type { Id } from "@convex/_generated/dataModel";
import { InsightsPanel } from "./insights-panel";

type Shop = { _id: Id<"liveShops">; liveShopName: string };

/** The dashboard's insights: one of the seller's shops at a time (decision 089). */
export function InsightsSection({ shops }: { shops: Shop[] }) {
  const [chosen, setChosen] = useState<Id<"liveShops"> | undefined>(undefined);
  const selectId = useId();
  const liveShopId = chosen ?? shops[0]?._id;
  if (!liveShopId) return null;
  return (
    <section aria-labelledby="insights-heading" className="grid min-w-0 gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="insights-heading" className="text-xl font-semibold">
          Insights
        </h2>
        {shops.length > 1 && (
          <div className="flex items-center gap-2">
            <label htmlFor={selectId} className="text-sm font-medium">
              Shop
            </label>
            <select
              id={selectId}
              value={liveShopId}
              onChange={(event) => setChosen(event.target.value as Id<"liveShops">)}
              className="rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-900"
            >
              {shops.map((shop) => (
                <option key={shop._id} value={shop._id}>
                  {shop.liveShopName}
                </option>
              ))}
            </select>
          </div>
        )}
      </div>
      {/* Keyed by shop, so a show chosen in one shop is never asked of another. */}
      <InsightsPanel key={liveShopId} liveShopId={liveShopId} />
    </section>
  );
}
