import { useQuery } from "convex/react";
import { useNavigate, useSearchParams } from "react-router-dom";
import { controlClass } from "@/components/forms/field";
import { DashboardShell } from "@/components/layout/dashboard-shell";
import { PageLoading } from "@/components/layout/page-loading";
import { paths } from "@/config/paths";
import { api } from "@convex/_generated/api";
import { mayRunShops } from "@convex/lib/lifecycle";
import { newStreamDraftForShop } from "./stream-draft";
import { StreamForm } from "./stream-form";

/** `/dashboard/streams/new?shop=…`: a new draft stream in one of the caller's shops, in that shop's zone. */
export function NewStreamPage() {
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const viewer = useQuery(api.users.viewer, {});
  const shops = useQuery(api.liveShops.listMyShops, {});
  const requested = params.get("shop");
  const shopId = (
    shops?.find((shop) => shop._id === requested) ?? (shops?.length === 1 ? shops[0] : undefined)
  )?._id;
  const shop = useQuery(api.liveShops.getMyShop, shopId ? { liveShopId: shopId } : "skip");

  if (shops === undefined || viewer === undefined) return <PageLoading label="Loading your shops…" />;
  // A viewer who still owns shops cannot add to them (decision 025; the banner says why).
  if (viewer && !mayRunShops(viewer.role) && shops.length > 0) {
    return (
      <DashboardShell title="New stream">
        <p className="text-slate-600 dark:text-slate-300">Only sellers can create streams.</p>
      </DashboardShell>
    );
  }
  return (
    <DashboardShell
      title="New stream"
      description="Streams start as drafts. Schedule one once it has a title, a start and a stop."
    >
      {shops.length === 0 && (
        <p className="text-slate-600 dark:text-slate-300">
          Open a live shop first: streams belong to a shop.
        </p>
      )}
      {shops.length > 1 && (
        <div className="mb-6 max-w-xs">
          <label htmlFor="new-stream-shop" className="text-sm font-medium">
            Shop
          </label>
          <select
            id="new-stream-shop"
            value={shopId ?? ""}
            onChange={(event) => setParams({ shop: event.target.value }, { replace: true })}
            className={controlClass}
          >
            <option value="" disabled>
              Choose a shop
            </option>
            {shops.map((option) => (
              <option key={option._id} value={option._id}>
                {option.liveShopName}
              </option>
            ))}
          </select>
        </div>
      )}
      {shopId && shop === undefined && (
        <p className="text-slate-500 dark:text-slate-400">Loading the shop…</p>
      )}
      {shopId && shop && (
        <StreamForm
          key={shop._id}
          initial={newStreamDraftForShop(shop)}
          linksFrom={shop.liveShopName}
          timezone={shop.timezone}
          target={{ liveShopId: shopId }}
          onCreated={(streamId) =>
            void navigate(paths.dashboard.stream.getHref(streamId), {
              replace: true,
              state: { created: true },
            })
          }
        />
      )}
    </DashboardShell>
  );
}
