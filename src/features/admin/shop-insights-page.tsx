import { Link, useParams } from "react-router-dom";
import { AdminShell } from "./admin-shell";
import type { Id } from "@convex/_generated/dataModel";
import { InvalidIdBoundary } from "@/components/errors/invalid-id-boundary";
import { InsightsPanel } from "@/components/insights/insights-panel";
import { Icon } from "@/components/ui/icon";
import { paths } from "@/config/paths";

/** No shop at this address: a hand-edited id, or a shop deleted since the link was made. */
function NoShop() {
  return (
    <p className="text-slate-600 dark:text-slate-300">
      There is no shop here; it may have been deleted.{" "}
      <Link
        to={paths.dashboard.admin.shops.getHref()}
        className="inline-flex items-center gap-1 text-sm font-medium text-primary-700 underline underline-offset-2 dark:text-primary-100"
      >
        <Icon name="lucide:arrow-left" className="size-4" />
        Back to shops
      </Link>
    </p>
  );
}

/** `/dashboard/admin/shops/:liveShopId/insights`: any shop's insights, as its seller sees them. */
export function ShopInsightsPage() {
  const { liveShopId = "" } = useParams();
  return (
    <AdminShell title="Shop insights" description="What the seller sees on their dashboard, for this shop.">
      <InvalidIdBoundary key={liveShopId} fallback={<NoShop />}>
        <InsightsPanel liveShopId={liveShopId as Id<"liveShops">} missing={<NoShop />} />
      </InvalidIdBoundary>
    </AdminShell>
  );
}
