import { useQuery } from "convex/react";
import { useLocation } from "react-router-dom";
import { Icon } from "@/components/ui/icon";
import { paths } from "@/config/paths";
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

/**
 * Across the seller's pages while their shops are off every public surface because of their account
 * rather than the shops' own status (model/restriction.ts): the dashboard otherwise looks as usual.
 * Says why, what they can still do, and what lifts it.
 */
export function ShopsHiddenBanner() {
  const viewer = useQuery(api.users.viewer, {});
  const shops = useQuery(api.liveShops.listMyShops, {});
  const { pathname } = useLocation();
  if (!viewer || !shops || shops.length === 0 || !isSellerPage(pathname)) return null;
  if (mayRunShops(viewer.role)) return null;
  return (
    <div
      role="region"
      aria-label="Your shops are hidden"
      className="mt-4 flex gap-3 rounded-xl bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:bg-amber-950/50 dark:text-amber-100"
    >
      <Icon name="lucide:eye-off" className="mt-0.5 size-4 shrink-0" />
      <div className="space-y-1">
        <p className="font-semibold">Your shops and their shows are hidden from the public.</p>
        <p>
          An admin made your account a viewer, and only sellers run shops. Your shops are kept as they are,
          but nobody else sees them and you cannot change them. They come back when an admin makes you a
          seller again.
        </p>
      </div>
    </div>
  );
}
