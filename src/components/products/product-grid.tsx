import { cn } from "@/lib/cn";

type Product = { id: string; name: string; price: string; imageUrl?: string; description?: string };

function formatPrice(price: string): string {
  const amount = Number(price);
  return Number.isFinite(amount)
    ? new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(amount)
    : price;
}

/** Products with their picture, price and description: a show's or a shop's. Buying happens on the platform. */
export function ProductGrid({ products, className }: { products: readonly Product[]; className?: string }) {
  return (
    <ul className={cn("grid gap-4 sm:grid-cols-2", className)}>
      {products.map((product) => (
        <li
          key={product.id}
          className="flex gap-4 rounded-2xl border border-slate-200 p-3 dark:border-slate-800"
        >
          <div className="size-20 shrink-0 overflow-hidden rounded-xl bg-slate-100 dark:bg-slate-800">
            {product.imageUrl && (
              <img
                src={product.imageUrl}
                alt={product.name}
                className="size-full object-cover"
                loading="lazy"
              />
            )}
          </div>
          <div className="min-w-0">
            <h3 className="font-medium [overflow-wrap:anywhere]">{product.name}</h3>
            <p className="text-sm font-semibold text-primary-700 dark:text-primary-100">
              {formatPrice(product.price)}
            </p>
            {product.description && (
              <p className="mt-1 line-clamp-3 text-sm text-slate-600 dark:text-slate-300">
                {product.description}
              </p>
            )}
          </div>
        </li>
      ))}
    </ul>
  );
}
