import { Link } from "react-router-dom";
import { ShopStatusBadge } from "@/components/shops/shop-status-badge";
import { HiddenFromPublicTag } from "@/components/shops/shops-hidden-banner";
import { buttonVariants } from "@/components/ui/button-variants";
import { paths } from "@/config/paths";
import type { ShopStatus } from "@convex/lib/constants";
import { isShopPublic } from "@convex/lib/lifecycle";

type Shop = {
  _id: string;
  liveShopName: string;
  status: ShopStatus;
  statusReason?: string;
  hiddenFromPublic: boolean;
};

/**
 * The seller's shops at a glance: status, any note from an admin, and where to manage each. Without
 * `canRunShops` (a viewer who still owns shops) they are listed with nothing to start.
 */
export function ShopsOverview({ shops, canRunShops }: { shops: Shop[]; canRunShops: boolean }) {
  return (
    <section aria-labelledby="shops-heading">
      <div className="flex items-center justify-between gap-3">
        <h2 id="shops-heading" className="text-xl font-semibold">
          Your live shops
        </h2>
        <Link
          to={paths.dashboard.liveShops.getHref()}
          className="text-sm font-medium text-primary-700 underline dark:text-primary-100"
        >
          Manage shops
        </Link>
      </div>
      <ul className="mt-3 grid gap-3 sm:grid-cols-2">
        {shops.map((shop) => (
          <li key={shop._id} className="rounded-2xl border border-slate-200 p-4 dark:border-slate-800">
            <div className="flex items-start justify-between gap-3">
              <Link
                to={paths.dashboard.liveShop.getHref(shop._id)}
                className="min-w-0 [overflow-wrap:anywhere] font-semibold hover:underline"
              >
                {shop.liveShopName}
              </Link>
              <div className="flex shrink-0 flex-col items-end gap-1">
                <ShopStatusBadge status={shop.status} />
                {shop.hiddenFromPublic && isShopPublic(shop.status) && <HiddenFromPublicTag />}
              </div>
            </div>
            {shop.statusReason && (
              <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">
                <span className="font-semibold">Admin note:</span> {shop.statusReason}
              </p>
            )}
            <div className="mt-3 flex flex-wrap gap-2">
              {canRunShops && (
                <Link
                  to={paths.dashboard.newStream.getHref(shop._id)}
                  className={buttonVariants({ variant: "outline", size: "sm" })}
                  aria-label={`New stream for ${shop.liveShopName}`}
                >
                  New stream
                </Link>
              )}
              <Link
                to={paths.dashboard.streams.getHref(shop._id)}
                className={buttonVariants({ variant: "ghost", size: "sm" })}
                aria-label={`Streams of ${shop.liveShopName}`}
              >
                Streams
              </Link>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
