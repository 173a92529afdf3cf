import { memo } from "react";
import { useParams } from "react-router-dom";
import { NotFoundPage } from "@/components/errors/not-found-page";
import { JsonLdScript } from "@/components/json-ld-script";
import { PageLoading } from "@/components/layout/page-loading";
import { TrailerSection } from "@/components/media/video-or-link";
import { useInsightsCounter } from "@/lib/insights-visit";
import { shopJsonLd } from "@/lib/json-ld";
import { shopPageMeta } from "@/lib/page-meta";
import { useSiteOrigin } from "@/lib/page-data";
import { usePageQuery } from "@/lib/page-query";
import { useDocumentMeta } from "@/lib/use-document-meta";
import { api } from "@convex/_generated/api";
import { ShopDetails } from "./shop-details";
import { ShopFaq } from "./shop-faq";
import { ShopHero } from "./shop-hero";
import type { PublicShop } from "./public-shop";
import { PreviewBanner } from "./preview-banner";
import { ShopAbout, ShopProducts } from "./shop-products";
import { CurrentShows, LaterShows } from "./shop-streams";
import { shopThemeStyle } from "./shop-theme";

/**
 * `/live-shop/:idOrSlug`: a shop's public page; unknown or not public reads as not found, except to its
 * owner and admins, who see it as a preview.
 */
export function LiveShopPage() {
  const { idOrSlug = "" } = useParams();
  const shop = usePageQuery(api.liveShops.getPublicShop, { idOrSlug });
  if (shop === undefined) return <PageLoading label="Loading the shop…" />;
  if (shop === null) return <NotFoundPage />;
  return <LiveShopView shop={shop} />;
}

/** Memoised: the subscription's first answer, the same as the server's, draws nothing again (decision 040). */
const LiveShopView = memo(function LiveShopView({ shop }: { shop: PublicShop }) {
  const meta = shopPageMeta(shop);
  const origin = useSiteOrigin();
  const count = useInsightsCounter({ liveShopId: shop._id });
  useDocumentMeta({ title: meta.title, description: meta.description, canonical: meta.path });
  return (
    <div style={shopThemeStyle(shop)} className="pb-16">
      {shop.preview ? <PreviewBanner shop={shop} /> : <JsonLdScript data={shopJsonLd(shop, origin)} />}
      <ShopHero shop={shop} />
      <div className="mx-auto mt-8 grid max-w-6xl gap-10 px-4 lg:grid-cols-[1fr_20rem]">
        <div className="grid min-w-0 content-start gap-10">
          <CurrentShows
            streams={shop.streams}
            onFollow={(platform, streamId) => count("click", platform, streamId)}
          />
          <ShopAbout shop={shop} />
          <ShopProducts shop={shop} />
          {shop.shopTrailerUrl && (
            <TrailerSection url={shop.shopTrailerUrl} label={`${shop.liveShopName} trailer`} />
          )}
          <LaterShows
            streams={shop.streams}
            onFollow={(platform, streamId) => count("click", platform, streamId)}
          />
          <ShopFaq entries={shop.faqSection} />
        </div>
        <aside className="min-w-0">
          <ShopDetails shop={shop} />
        </aside>
      </div>
    </div>
  );
});
