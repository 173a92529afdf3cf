import { Link } from "react-router-dom";
import { CARD_LINK_CLASS } from "@/components/ui/card-link";
import { Icon } from "@/components/ui/icon";
import { CardPicture } from "@/components/ui/card-picture";
import { FollowShopButton } from "@/components/watch-list/follow-shop-button";
import { paths } from "@/config/paths";
import { CATEGORIES } from "@convex/lib/data/categories";
import { MSAS } from "@convex/lib/data/msas";
import type { ShopCard as ShopCardData } from "@convex/schema";

/**
 * A live shop in a list (explore, the watch list): banner, logo, name, headline, categories and areas,
 * live badge, and a follow button above the card-wide link.
 */
export function ShopCard({ shop, priority = false }: { shop: ShopCardData; priority?: boolean }) {
  const categories = shop.categories
    .map((id) => CATEGORIES.find((category) => category.id === id)?.label)
    .filter(Boolean);
  const areas = shop.areas.map((code) => MSAS.find((msa) => msa.cbsaCode === code)?.name).filter(Boolean);
  return (
    <article className="relative h-full overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900">
      {/* The banner whole, at the 3:1 shops are asked for; any other shape is letterboxed, never cut. */}
      <div className="relative aspect-[3/1] bg-gradient-to-br from-primary-100 to-secondary-50 dark:from-primary-900/40 dark:to-slate-800">
        {shop.bannerImageUrl && <CardPicture src={shop.bannerImageUrl} priority={priority} fit="contain" />}
        {shop.liveStatus && (
          <span className="absolute right-3 top-3 inline-flex items-center gap-1.5 rounded-full bg-red-600 px-2.5 py-0.5 text-xs font-semibold text-white">
            {shop.liveStatus === "LIVE" && (
              <span className="size-1.5 animate-pulse rounded-full bg-white" aria-hidden />
            )}
            {shop.liveStatus === "LIVE" ? "Live now" : "Paused"}
          </span>
        )}
      </div>
      <div className="p-4">
        <div className="flex items-start justify-between gap-3">
          <span className="-mt-10 grid size-14 shrink-0 place-items-center overflow-hidden rounded-xl border-2 border-white bg-slate-100 dark:border-slate-900 dark:bg-slate-800">
            {shop.logoUrl ? (
              <img src={shop.logoUrl} alt="" className="size-full object-cover" loading="lazy" />
            ) : (
              <Icon name="lucide:store" className="size-6 text-slate-500" />
            )}
          </span>
          {/* Off the banner's own text; above the link's ::after overlay (z-10). */}
          <span className="relative z-10 -mr-2 -mt-2 shrink-0">
            <FollowShopButton liveShopId={shop._id} liveShopName={shop.liveShopName} />
          </span>
        </div>
        {/* The name has the card's whole width beside nothing: two lines hold the longest demo names
            at every column width, and a longer one breaks anywhere rather than overflowing. */}
        <h3 className="mt-2 line-clamp-2 font-semibold [overflow-wrap:anywhere]">
          {/* The whole card is the link's target area (::after), with one accessible name. */}
          <Link to={paths.liveShop.getHref(shop.slug)} className={CARD_LINK_CLASS}>
            {shop.liveShopName}
          </Link>
        </h3>
        {shop.status === "maintenance" && (
          <p className="mt-2 text-xs font-medium text-amber-800 dark:text-amber-200">Temporarily closed</p>
        )}
        {shop.headline && (
          <p className="mt-2 line-clamp-2 text-sm text-slate-600 dark:text-slate-300">{shop.headline}</p>
        )}
        <p className="mt-3 text-xs text-slate-500 dark:text-slate-400">
          {[categories.join(", "), areas.join(" · ")].filter(Boolean).join(" — ")}
        </p>
      </div>
    </article>
  );
}
