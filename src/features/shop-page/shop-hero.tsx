import { Avatar } from "@/components/layout/avatar";
import { Icon } from "@/components/ui/icon";
import { ShareButton } from "@/components/ui/share-button";
import { FollowShopButton } from "@/components/watch-list/follow-shop-button";
import { paths } from "@/config/paths";
import { useSiteOrigin } from "@/lib/page-data";
import type { PublicShop } from "./public-shop";

/**
 * Banner, logo, name, headline, the owner when they show their profile (decision 026), the follow and
 * share buttons, with the "temporarily closed" notice.
 */
export function ShopHero({ shop }: { shop: PublicShop }) {
  const origin = useSiteOrigin();
  // The page's address by slug, as links to it are written (paths.liveShop).
  const shopUrl = new URL(paths.liveShop.getHref(shop.slug), origin).href;
  return (
    <header>
      <div className="mx-auto max-w-6xl sm:px-4 sm:pt-4">
        {/* The banner whole at every width: 3:1 fills the frame, any other shape is letterboxed on the
            shop's colour, never cut (decision 032). */}
        <div className="aspect-[3/1] overflow-hidden bg-[var(--shop-theme,var(--color-primary-600))] sm:rounded-3xl">
          {shop.bannerImageUrl && (
            <img src={shop.bannerImageUrl} alt="" className="size-full object-contain" />
          )}
        </div>
      </div>
      <div className="mx-auto flex max-w-6xl flex-col gap-4 px-4 sm:flex-row sm:items-end sm:px-8">
        <div className="-mt-6 size-20 shrink-0 overflow-hidden rounded-2xl border-4 border-white bg-white shadow-md sm:-mt-12 sm:size-28 dark:border-slate-950 dark:bg-slate-900">
          {shop.logoUrl ? (
            <img src={shop.logoUrl} alt={`${shop.liveShopName} logo`} className="size-full object-cover" />
          ) : (
            <span
              className="flex size-full items-center justify-center bg-[var(--shop-theme,var(--color-primary-600))] text-3xl font-bold text-[var(--shop-theme-text,#fff)]"
              aria-hidden
            >
              {shop.liveShopName.slice(0, 1)}
            </span>
          )}
        </div>
        <div className="min-w-0 flex-1 pb-1">
          <h1 className="text-3xl font-bold tracking-tight [overflow-wrap:anywhere] sm:text-4xl">
            {shop.liveShopName}
          </h1>
          {shop.headline && (
            <p className="mt-1 text-lg text-slate-600 dark:text-slate-300">{shop.headline}</p>
          )}
          {shop.owner && (
            <p className="mt-2 flex items-center gap-2 text-sm text-slate-600 dark:text-slate-300">
              <Avatar name={shop.owner.name} url={shop.owner.avatar} className="size-7 text-xs" />
              <span className="min-w-0 [overflow-wrap:anywhere]">
                Run by{" "}
                <span className="font-medium text-slate-900 dark:text-slate-100">{shop.owner.name}</span>
              </span>
            </p>
          )}
        </div>
        {/* A preview has nobody to share it with yet, nor a page to follow. */}
        {!shop.preview && (
          <div className="flex shrink-0 flex-wrap items-center gap-3 sm:pb-2">
            <FollowShopButton liveShopId={shop._id} liveShopName={shop.liveShopName} variant="full" />
            <ShareButton
              data={{
                title: shop.liveShopName,
                text: shop.headline ? `${shop.liveShopName}: ${shop.headline}` : shop.liveShopName,
                url: shopUrl,
              }}
            />
          </div>
        )}
      </div>
      {shop.status === "maintenance" && (
        <div className="mx-auto mt-6 max-w-6xl px-4">
          <p
            role="status"
            className="flex items-start gap-3 rounded-2xl border border-amber-300 bg-amber-50 p-4 text-amber-950 dark:border-amber-700 dark:bg-amber-950/40 dark:text-amber-100"
          >
            <Icon name="lucide:construction" className="mt-0.5 size-5" />
            <span>
              <strong className="font-semibold">Temporarily closed.</strong> This shop is taking a short
              break; its shows and links may not be available right now.
            </span>
          </p>
        </div>
      )}
    </header>
  );
}
