import { ProductGrid } from "@/components/products/product-grid";
import type { PublicShop } from "./public-shop";

/** The shop's cover picture beside its description. */
export function ShopAbout({ shop }: { shop: PublicShop }) {
  if (!shop.description && !shop.coverImageUrl) return null;
  return (
    <section aria-labelledby="about-heading">
      <h2 id="about-heading" className="text-xl font-semibold tracking-tight">
        About
      </h2>
      <div className="mt-3 grid gap-4 sm:grid-cols-[1fr_minmax(0,16rem)] sm:items-start">
        {shop.coverImageUrl && (
          // Whole at 4:3, the shape the form asks for; any other is letterboxed, never cut.
          <img
            src={shop.coverImageUrl}
            alt=""
            className="aspect-[4/3] w-full rounded-2xl bg-[var(--shop-theme,var(--color-primary-600))] object-contain sm:order-last"
            loading="lazy"
          />
        )}
        {shop.description && (
          <p className="whitespace-pre-line text-slate-700 [overflow-wrap:anywhere] dark:text-slate-300">
            {shop.description}
          </p>
        )}
      </div>
    </section>
  );
}

/** What the shop sells: its summary and its products. */
export function ShopProducts({ shop }: { shop: PublicShop }) {
  if (!shop.productsSummary && shop.products.length === 0) return null;
  return (
    <section aria-labelledby="shop-products-heading">
      <h2 id="shop-products-heading" className="text-xl font-semibold tracking-tight">
        What we sell
      </h2>
      {shop.productsSummary && (
        <p className="mt-3 whitespace-pre-line text-slate-700 [overflow-wrap:anywhere] dark:text-slate-300">
          {shop.productsSummary}
        </p>
      )}
      {shop.products.length > 0 && <ProductGrid products={shop.products} className="mt-4" />}
    </section>
  );
}
