import { ProductGrid } from "@/components/products/product-grid";
import type { PublicStream } from "./stream-types";

/** What the show features; buying happens on the platform. */
export function StreamProducts({ products }: { products: PublicStream["products"] }) {
  if (products.length === 0) return null;
  return (
    <section aria-labelledby="products-heading">
      <h2 id="products-heading" className="text-xl font-semibold tracking-tight">
        In this show
      </h2>
      <ProductGrid products={products} className="mt-4" />
    </section>
  );
}
