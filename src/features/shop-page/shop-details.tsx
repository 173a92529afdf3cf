import type { ReactNode } from "react";
import { LANGUAGE_LABELS, TIME_ZONE_LABELS } from "@convex/lib/constants";
import type { PublicShop } from "./public-shop";

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-sm font-medium text-slate-500 dark:text-slate-400">{term}</dt>
      <dd className="mt-1">{children}</dd>
    </div>
  );
}

function Chips({ items }: { items: string[] }) {
  return (
    <ul className="flex flex-wrap gap-1.5">
      {items.map((item) => (
        <li
          key={item}
          className="rounded-full bg-[var(--shop-accent,var(--color-secondary-50))] px-2.5 py-0.5 text-sm text-[var(--shop-accent-text,var(--color-secondary-700))] dark:bg-[var(--shop-accent,var(--color-slate-800))] dark:text-[var(--shop-accent-text,var(--color-slate-100))]"
        >
          {item}
        </li>
      ))}
    </ul>
  );
}

/** Languages, time zone, categories and areas served. */
export function ShopDetails({ shop }: { shop: PublicShop }) {
  const categories = shop.categories.map((c) =>
    c.subcategoryLabel ? `${c.label}: ${c.subcategoryLabel}` : c.label,
  );
  return (
    <section
      aria-labelledby="details-heading"
      className="rounded-2xl border border-slate-200 p-5 dark:border-slate-800"
    >
      <h2 id="details-heading" className="sr-only">
        About the shop
      </h2>
      <dl className="grid gap-4">
        {categories.length > 0 && (
          <Fact term="Categories">
            <Chips items={categories} />
          </Fact>
        )}
        {shop.areas.length > 0 && (
          <Fact term="Areas served">
            <Chips items={shop.areas.map((area) => area.msaLabel)} />
          </Fact>
        )}
        {shop.languages.length > 0 && (
          <Fact term="Languages">{shop.languages.map((code) => LANGUAGE_LABELS[code]).join(", ")}</Fact>
        )}
        <Fact term="Time zone">{TIME_ZONE_LABELS[shop.timezone]}</Fact>
      </dl>
    </section>
  );
}
