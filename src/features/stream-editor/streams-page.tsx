import { useQuery } from "convex/react";
import { Link, useSearchParams } from "react-router-dom";
import { controlClass } from "@/components/forms/field";
import { DashboardShell } from "@/components/layout/dashboard-shell";
import { StreamGroups } from "@/components/streams/stream-groups";
import { StreamStatusProvider } from "@/components/streams/stream-status-provider";
import { buttonVariants } from "@/components/ui/button-variants";
import { Icon } from "@/components/ui/icon";
import { paths } from "@/config/paths";
import { api } from "@convex/_generated/api";
import { mayRunShops } from "@convex/lib/lifecycle";
import { StreamActions } from "./stream-actions";

/** `/dashboard/streams`: the seller's streams, filtered by shop with `?shop=`, with their controls. */
export function StreamsPage() {
  const [params, setParams] = useSearchParams();
  const viewer = useQuery(api.users.viewer, {});
  const shops = useQuery(api.streams.listMyStreams, {});
  const requested = params.get("shop") ?? "";
  const filter = shops?.some((shop) => shop.liveShopId === requested) ? requested : "";
  const shown = filter ? (shops?.filter((shop) => shop.liveShopId === filter) ?? []) : (shops ?? []);
  const newStreamShop = filter || (shops?.length === 1 ? shops[0]?.liveShopId : undefined);
  // A viewer who still owns shops sees their streams without controls (decision 025).
  const canRunShops = viewer ? mayRunShops(viewer.role) : true;

  return (
    <DashboardShell
      title="Streams"
      actions={
        shops !== undefined &&
        shops.length > 0 &&
        canRunShops && (
          <Link
            to={paths.dashboard.newStream.getHref(newStreamShop)}
            className={buttonVariants({ size: "sm" })}
          >
            <Icon name="lucide:plus" className="size-4" />
            New stream
          </Link>
        )
      }
    >
      {(shops === undefined || viewer === undefined) && (
        <p className="text-slate-500 dark:text-slate-400">Loading your streams…</p>
      )}
      {shops?.length === 0 && (
        <p className="rounded-2xl border border-dashed border-slate-300 p-8 text-slate-600 dark:border-slate-700 dark:text-slate-300">
          Streams belong to a live shop.{" "}
          <Link
            to={paths.dashboard.newLiveShop.getHref()}
            className="font-medium text-primary-700 underline dark:text-primary-100"
          >
            Open a live shop
          </Link>{" "}
          first.
        </p>
      )}
      {shops !== undefined && shops.length > 1 && (
        <div className="mb-6 max-w-xs">
          <label htmlFor="stream-shop-filter" className="text-sm font-medium">
            Shop
          </label>
          <select
            id="stream-shop-filter"
            value={filter}
            onChange={(event) =>
              setParams(event.target.value ? { shop: event.target.value } : {}, { replace: true })
            }
            className={controlClass}
          >
            <option value="">All shops</option>
            {shops.map((shop) => (
              <option key={shop.liveShopId} value={shop.liveShopId}>
                {shop.liveShopName}
              </option>
            ))}
          </select>
        </div>
      )}
      {shops !== undefined && viewer && (
        <StreamStatusProvider>
          {shown.length > 0 && shown.every((shop) => shop.streams.length === 0) && (
            <p className="text-slate-600 dark:text-slate-300">
              {canRunShops ? "No streams yet. Create one to plan your next show." : "No streams."}
            </p>
          )}
          <StreamGroups
            shops={shown}
            actor={{ isOwner: canRunShops, isAdmin: viewer.role === "admin" }}
            actions={canRunShops ? (stream) => <StreamActions stream={stream} /> : undefined}
          />
        </StreamStatusProvider>
      )}
    </DashboardShell>
  );
}
