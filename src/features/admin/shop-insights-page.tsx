import { useParams } from "react-router-dom";
import { AdminShell } from "./admin-shell";
import type { Id } from "@convex/_generated/dataModel";
import { InsightsPanel } from "@/components/insights/insights-panel";

/** `/dashboard/admin/shops/:liveShopId/insights`: any shop's insights, as its seller sees them. */
export function ShopInsightsPage() {
  const { liveShopId = "" } = useParams();
  return (
    <AdminShell title="Shop insights" description="What the seller sees on their dashboard, for this shop.">
      <InsightsPanel liveShopId={liveShopId as Id<"liveShops">} />
    </AdminShell>
  );
}
