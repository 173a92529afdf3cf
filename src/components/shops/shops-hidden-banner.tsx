import { useQuery } from "convex/react";
import { Link, useLocation } from "react-router-dom";
import { Icon } from "@/components/ui/icon";
import { paths } from "@/config/paths";
import { formatDate } from "@/lib/format-date";
import { api } from "@convex/_generated/api";
import { mayRunShops } from "@convex/lib/lifecycle";

/** The dashboard's pages where a seller works on shops and streams. */
function isSellerPage(pathname: string): boolean {
  return (
    pathname === paths.dashboard.root.path ||
    pathname.startsWith(paths.dashboard.streams.path) ||
    pathname.startsWith(paths.dashboard.liveShops.path)
  );
}

/** Beside a shop or stream whose status looks public but which nobody else sees (the banner says why). */
export function HiddenFromPublicTag() {
  return (
    <span className="inline-flex items-center gap-1 rounded-full bg-amber-100 px-2.5 py-0.5 text-xs font-semibold text-amber-900 dark:bg-amber-900/50 dark:text-amber-100">
      <Icon name="lucide:eye-off" className="size-3" />
      Hidden from the public
    </span>
  );
}

/**
 * Across the seller's pages while their shops are off every public surface because of their account
 * rather than the shops' own status (convex/model/restriction.ts), since the dashboard otherwise looks
 * as usual ("Active", "Live now" and their buttons): why, what they can still do, and what lifts it.
 */
export function ShopsHiddenBanner() {
  const viewer = useQuery(api.users.viewer, {});
  const shops = useQuery(api.liveShops.listMyShops, {});
  const { pathname } = useLocation();
  if (!viewer || !shops || shops.length === 0 || !isSellerPage(pathname)) return null;
  const isViewer = !mayRunShops(viewer.role);
  const { restrictedAt } = viewer;
  if (!isViewer && restrictedAt === undefined) return null;
  return (
    <div
      role="region"
      aria-label="Your shops are hidden"
      className="mt-4 flex gap-3 rounded-xl bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:bg-amber-950/50 dark:text-amber-100"
    >
      <Icon name="lucide:eye-off" className="mt-0.5 size-4 shrink-0" />
      <div className="space-y-1">
        <p className="font-semibold">Your shops and their shows are hidden from the public.</p>
        {restrictedAt !== undefined && (
          <p>
            Processing of your data has been restricted at your request since {formatDate(restrictedAt)}, so
            nobody else sees your shops or streams: not on their pages, the home page, explore, live now or
            watch lists. They look as usual here and you can keep working on them, but a show you take live
            reaches no one. They are shown again when a LiveLocal admin lifts the restriction.{" "}
            <Link
              to={`${paths.dashboard.settings.getHref()}#privacy-requests`}
              className="font-semibold underline underline-offset-2 hover:no-underline"
            >
              Your privacy requests
            </Link>
          </p>
        )}
        {isViewer && (
          <p>
            An admin made your account a viewer, and only sellers run shops. Your shops are kept as they are,
            but nobody else sees them and you cannot change them. They come back when an admin makes you a
            seller again.
          </p>
        )}
      </div>
    </div>
  );
}
