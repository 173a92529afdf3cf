import { useNavigate } from "react-router-dom";
import { DashboardShell } from "@/components/layout/dashboard-shell";
import { paths } from "@/config/paths";
import { LiveShopForm } from "./live-shop-form";
import { emptyShopDraft } from "./shop-draft";

/** `/dashboard/liveshops/new`: a new draft shop; the first one makes its owner a seller. */
export function NewLiveShopPage() {
  const navigate = useNavigate();
  return (
    <DashboardShell
      title="Open a live shop"
      description="Your shop starts as a draft. Fill it in, then submit it for verification; once an admin approves it, your streams can go live."
    >
      <LiveShopForm
        initial={emptyShopDraft()}
        onCreated={(liveShopId) =>
          void navigate(paths.dashboard.liveShop.getHref(liveShopId), {
            replace: true,
            state: { created: true },
          })
        }
      />
    </DashboardShell>
  );
}
