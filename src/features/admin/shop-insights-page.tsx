import { useParams } from "react-router-dom";
import { AdminBackLink, AdminShell } from "./admin-shell";
import type { Id } from "@convex/_generated/dataModel";
import { InvalidIdBoundary } from "@/components/errors/invalid-id-boundary";
import { InsightsPanel } from "@/components/insights/insights-panel";
import { paths } from "@/config/paths";

/** No shop at this address: a hand-edited id, or a shop deleted since the link was made. */
function NoShop() {
  return (
    <p className="text-slate-600 dark:text-slate-300">
      There is no shop here; it may have been deleted.{" "}
      <AdminBackLink to={paths.dashboard.admin.shops.getHref()}>Back to shops</AdminBackLink>
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
