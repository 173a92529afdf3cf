import { Link } from "react-router-dom";
import { CARD_LINK_CLASS } from "@/components/ui/card-link";
import { Icon } from "@/components/ui/icon";
import { FollowShopButton } from "@/components/watch-list/follow-shop-button";
import { paths } from "@/config/paths";
import { usePageQuery } from "@/lib/page-query";
import { api } from "@convex/_generated/api";
import { MSAS } from "@convex/lib/data/msas";

const MSA_NAMES = new Map(MSAS.map((msa) => [msa.cbsaCode, msa.name]));

/** A few active shops, those with the most live and upcoming shows first (liveShops.listFeaturedShops). */
export function FeaturedShops() {
  const shops = usePageQuery(api.liveShops.listFeaturedShops, {});
  if (shops === undefined) {
    return (
      <div
        className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3"
        aria-busy="true"
        aria-label="Loading featured shops"
      >
        {[0, 1, 2].map((key) => (
          <div key={key} className="h-28 animate-pulse rounded-2xl bg-slate-100 dark:bg-slate-800" />
        ))}
      </div>
    );
  }
  if (shops.length === 0) {
    return <p className="text-slate-600 dark:text-slate-300">No shops to feature yet.</p>;
  }
  return (
    <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
      {shops.map((shop) => (
        <li
          key={shop._id}
          className="relative flex gap-4 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-800 dark:bg-slate-900"
        >
          <span className="grid size-14 shrink-0 place-items-center overflow-hidden rounded-xl bg-primary-50 text-primary-700 dark:bg-primary-900/40 dark:text-primary-100">
            {shop.logoUrl ? (
              <img
                src={shop.logoUrl}
                alt=""
                className="size-full object-cover"
                loading="lazy"
                decoding="async"
              />
            ) : (
              <Icon name="lucide:store" className="size-7" />
            )}
          </span>
          <div className="min-w-0 flex-1">
            <h3 className="font-semibold">
              <Link to={paths.liveShop.getHref(shop.slug)} className={CARD_LINK_CLASS}>
                {shop.liveShopName}
              </Link>
            </h3>
            {shop.headline && (
              <p className="mt-1 line-clamp-2 text-sm text-slate-600 dark:text-slate-300">{shop.headline}</p>
            )}
            {shop.areas[0] && (
              <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">
                {MSA_NAMES.get(shop.areas[0]) ?? shop.areas[0]}
              </p>
            )}
          </div>
          {/* Above the link's ::after overlay (z-10), so it takes its own clicks. */}
          <span className="relative z-10 -mt-1 -mr-1 shrink-0">
            <FollowShopButton liveShopId={shop._id} liveShopName={shop.liveShopName} />
          </span>
        </li>
      ))}
    </ul>
  );
}
