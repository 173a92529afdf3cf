import { paths } from "@/config/paths";
import { CATEGORIES } from "@convex/lib/data/categories";

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
 * "Live now" opens the streams list unfiltered: the server orders it live first, so the live shows
 * lead, and unlike an anchor on the home page it keeps going with upcoming shows and filters.
 */
export const liveNowLink: HeaderLink = {
  label: "Live now",
  href: paths.explore.streams.getHref(),
  icon: "lucide:radio",
};

export const dashboardLink: HeaderLink = {
  label: "Dashboard",
  href: paths.dashboard.root.getHref(),
  icon: "lucide:layout-dashboard",
};
