import { paths } from "@/config/paths";
import { CATEGORIES } from "@convex/lib/data/categories";
import { exploreViewSearch, parseExploreView } from "@convex/lib/exploreView";

export type HeaderLink = { label: string; href: string; icon: string };

/** The Explore menu's entries: the two lists, then each category's streams. */
export const exploreLinks: readonly HeaderLink[] = [
  { label: "Streams", href: paths.explore.streams.getHref(), icon: "lucide:clapperboard" },
  { label: "Live shops", href: paths.explore.liveShops.getHref(), icon: "lucide:store" },
];

export const categoryLinks: readonly HeaderLink[] = CATEGORIES.map((category) => ({
  label: category.label,
  href: paths.explore.streams.getHref(new URLSearchParams({ category: category.id }).toString()),
  icon: category.icon,
}));

/**
 * "Live now" opens the streams list's live view (decision 031): only the shows on now, updating live,
 * and unlike an anchor on the home page it keeps the filters.
 */
export const liveNowLink: HeaderLink = {
  label: "Live now",
  href: paths.explore.streams.getHref(exploreViewSearch({ when: "live" })),
  icon: "lucide:radio",
};

/** Whether a location is the live view, where "Live now" is the current page (and nowhere else). */
export function isLiveNowLocation(location: { pathname: string; search: string }): boolean {
  return (
    location.pathname === paths.explore.streams.path && parseExploreView(location.search).when === "live"
  );
}

export const dashboardLink: HeaderLink = {
  label: "Dashboard",
  href: paths.dashboard.root.getHref(),
  icon: "lucide:layout-dashboard",
};
