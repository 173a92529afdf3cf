import type { ReactNode } from "react";
import { Icon } from "@/components/ui/icon";
import { areaExploreHref, LiveMapSection } from "@/components/live-map/live-map-section";
import { useDocumentTitle } from "@/lib/use-document-title";
import { PLATFORM_TYPES, PLATFORMS } from "@convex/lib/constants";
import { MSAS } from "@convex/lib/data/msas";
import { CategoryGrid } from "./category-grid";
import { FeaturedShops } from "./featured-shops";
import { LiveNow } from "./live-now";
import { MetroPicker } from "./metro-picker";
import { StartingSoon } from "./starting-soon";

export function HomePage() {
  useDocumentTitle("Live shopping near you");
  return (
    <div className="mx-auto max-w-6xl px-4 py-12">
      <section className="max-w-2xl">
        <p className="inline-flex items-center gap-2 rounded-full bg-primary-50 px-3 py-1 text-sm font-medium text-primary-700 dark:bg-primary-900/40 dark:text-primary-100">
          <Icon name="lucide:radio" className="size-4" />
          Local sellers, live on every platform
        </p>
        <h1 className="mt-4 text-4xl font-bold tracking-tight sm:text-5xl">
          Find the live shopping shows happening near you.
        </h1>
        <p className="mt-4 text-lg text-slate-600 dark:text-slate-300">
          LiveLocal brings together shows from sellers in {MSAS.length} metro areas across{" "}
          {PLATFORM_TYPES.length} platforms, so you can browse by category and place and click through to buy.
        </p>
      </section>

      <HomeSection
        id="live"
        title={
          <>
            <span className="size-2.5 animate-pulse rounded-full bg-red-600" aria-hidden />
            Live now
          </>
        }
      >
        <LiveNow />
      </HomeSection>
      <HomeSection
        id="map"
        title="Shows across the map"
        intro="Metro areas with shows live now, today and this week. Choose one to see its shows."
      >
        <LiveMapSection hrefFor={(cbsaCode) => areaExploreHref(cbsaCode)} />
      </HomeSection>
      <HomeSection id="soon" title="Starting soon">
        <StartingSoon />
      </HomeSection>
      {/* Not skipped while off screen: content-visibility contains its section's paint, which clipped
          the metro list that opens over the sections below (issue 41). */}
      <HomeSection id="metro" title="Choose your metro area" intro="See the shows of sellers near you.">
        <MetroPicker />
      </HomeSection>
      <HomeSection id="browse" belowTheFold title="Browse by category">
        <CategoryGrid />
      </HomeSection>
      <HomeSection id="featured" belowTheFold title="Featured shops">
        <FeaturedShops />
      </HomeSection>
      <HomeSection id="platforms" belowTheFold title="One board for every platform">
        <ul className="flex flex-wrap gap-2">
          {PLATFORM_TYPES.map((type) => (
            <li
              key={type}
              className="inline-flex items-center gap-2 rounded-full border border-slate-200 px-3 py-1.5 text-sm dark:border-slate-800"
            >
              <Icon name={PLATFORMS[type].icon} className="size-4" />
              {PLATFORMS[type].label}
            </li>
          ))}
        </ul>
      </HomeSection>
    </div>
  );
}

type HomeSectionProps = {
  id: string;
  title: ReactNode;
  intro?: string;
  children: ReactNode;
  belowTheFold?: boolean;
};

/** One part of the home page: a region named by its heading, an optional line, then its content. */
function HomeSection({ id, title, intro, children, belowTheFold = false }: HomeSectionProps) {
  return (
    <section
      // Below the fold, the browser lays out and paints a section only when it nears the screen: the
      // first paint (and the hydrating page's frames) handle the top of the page only.
      className={
        belowTheFold ? "mt-14 [contain-intrinsic-size:auto_40rem] [content-visibility:auto]" : "mt-14"
      }
      aria-labelledby={`${id}-heading`}
    >
      <h2 id={`${id}-heading`} className="flex items-center gap-2 text-2xl font-semibold tracking-tight">
        {title}
      </h2>
      {intro && <p className="mt-2 text-slate-600 dark:text-slate-300">{intro}</p>}
      <div className="mt-6">{children}</div>
    </section>
  );
}
