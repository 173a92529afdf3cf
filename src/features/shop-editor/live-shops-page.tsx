import { useQuery } from "convex/react";
import { Link } from "react-router-dom";
import { DashboardShell } from "@/components/layout/dashboard-shell";
import { ShopStatusBadge } from "@/components/shops/shop-status-badge";
import { HiddenFromPublicTag } from "@/components/shops/shops-hidden-banner";
import { buttonVariants } from "@/components/ui/button-variants";
import { Icon } from "@/components/ui/icon";
import { paths } from "@/config/paths";
import { formatDate } from "@/lib/format-date";
import { api } from "@convex/_generated/api";
import { isShopPublic, mayRunShops } from "@convex/lib/lifecycle";
import { LIMITS } from "@convex/lib/validation";

/**
 * `/dashboard/liveshops`: the caller's shops, each leading to its form and its streams. A viewer who
 * still owns shops (decision 025) sees them without a way to open another or to edit.
 */
export function LiveShopsPage() {
  const viewer = useQuery(api.users.viewer, {});
  const shops = useQuery(api.liveShops.listMyShops, {});
  const atLimit = shops !== undefined && shops.length >= LIMITS.shopsPerUser;
  const canRunShops = viewer ? mayRunShops(viewer.role) : true;
  // A viewer's first shop makes them a seller; one who owns shops already was made a viewer by an admin.
  const canOpenShop = !atLimit && (canRunShops || shops?.length === 0);
  return (
    <DashboardShell
      title="Live shops"
      actions={
        canOpenShop && (
          <Link to={paths.dashboard.newLiveShop.getHref()} className={buttonVariants({ size: "sm" })}>
            <Icon name="lucide:plus" className="size-4" />
            New live shop
          </Link>
        )
      }
    >
      {shops === undefined && <p className="text-slate-500 dark:text-slate-400">Loading your shops…</p>}
      {shops?.length === 0 && (
        <p className="rounded-2xl border border-dashed border-slate-300 p-8 text-slate-600 dark:border-slate-700 dark:text-slate-300">
          You have no live shop yet. Open one to list your shows on LiveLocal.
        </p>
      )}
      {atLimit && (
        <p className="mb-4 text-sm text-slate-500 dark:text-slate-400">
          You have {LIMITS.shopsPerUser} shops, the most one person may own.
        </p>
      )}
      <ul className="grid gap-4 sm:grid-cols-2">
        {shops?.map((shop) => (
          <li
            key={shop._id}
            className="flex flex-col gap-3 rounded-2xl border border-slate-200 p-4 dark:border-slate-800"
          >
            <div className="flex items-start justify-between gap-3">
              <h2 className="min-w-0 [overflow-wrap:anywhere] font-semibold">{shop.liveShopName}</h2>
              <div className="flex shrink-0 flex-col items-end gap-1">
                <ShopStatusBadge status={shop.status} />
                {shop.hiddenFromPublic && isShopPublic(shop.status) && <HiddenFromPublicTag />}
              </div>
            </div>
            <p className="text-sm text-slate-500 [overflow-wrap:anywhere] dark:text-slate-400">
              /live-shop/{shop.slug} · updated {formatDate(shop.updatedAt)}
            </p>
            {shop.statusReason && (
              <p className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-900/30 dark:text-amber-100">
                <span className="font-semibold">Note from the LiveLocal team:</span> {shop.statusReason}
              </p>
            )}
            <div className="mt-auto flex flex-wrap gap-2">
              <Link
                to={paths.dashboard.liveShop.getHref(shop._id)}
                className={buttonVariants({ variant: "outline", size: "sm" })}
                aria-label={`${canRunShops ? "Edit" : "View"} ${shop.liveShopName}`}
              >
                <Icon name={canRunShops ? "lucide:pencil" : "lucide:eye"} className="size-4" />
                {canRunShops ? "Edit" : "View"}
              </Link>
              <Link
                to={paths.dashboard.streams.getHref(shop._id)}
                className={buttonVariants({ variant: "ghost", size: "sm" })}
                aria-label={`Streams of ${shop.liveShopName}`}
              >
                <Icon name="lucide:video" className="size-4" />
                Streams
              </Link>
            </div>
          </li>
        ))}
      </ul>
    </DashboardShell>
  );
}
