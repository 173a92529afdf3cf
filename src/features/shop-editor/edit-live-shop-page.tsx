import { useQuery } from "convex/react";
import { useState } from "react";
import { Link, useLocation, useParams } from "react-router-dom";
import { InvalidIdBoundary } from "@/components/errors/invalid-id-boundary";
import { FormAlert } from "@/components/forms/form-alert";
import { DashboardShell } from "@/components/layout/dashboard-shell";
import { PageLoading } from "@/components/layout/page-loading";
import { ShopStatusBadge } from "@/components/shops/shop-status-badge";
import { HiddenFromPublicTag } from "@/components/shops/shops-hidden-banner";
import { buttonVariants } from "@/components/ui/button-variants";
import { Icon } from "@/components/ui/icon";
import { paths } from "@/config/paths";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { isShopPublic, mayRunShops } from "@convex/lib/lifecycle";
import { LiveShopForm } from "./live-shop-form";
import { shopDraftFromDoc } from "./shop-draft";
import { ShopLifecycleActions } from "./shop-lifecycle-actions";

function ShopNotFound() {
  return (
    <DashboardShell title="Shop not found">
      <p className="text-slate-600 dark:text-slate-300">
        This shop does not exist, or it is not yours.{" "}
        <Link
          to={paths.dashboard.liveShops.getHref()}
          className="font-medium text-primary-700 underline dark:text-primary-100"
        >
          See your shops
        </Link>
        .
      </p>
    </DashboardShell>
  );
}

/** `/dashboard/liveshops/:liveShopId`: the owner's form for one shop, and its lifecycle actions. */
export function EditLiveShopPage() {
  const { liveShopId = "" } = useParams();
  return (
    <InvalidIdBoundary key={liveShopId} fallback={<ShopNotFound />}>
      <EditLiveShop liveShopId={liveShopId} />
    </InvalidIdBoundary>
  );
}

function EditLiveShop({ liveShopId }: { liveShopId: string }) {
  const location = useLocation();
  const justCreated = (location.state as { created?: boolean } | null)?.created === true;
  const viewer = useQuery(api.users.viewer, {});
  const shop = useQuery(api.liveShops.getMyShop, { liveShopId: liveShopId as Id<"liveShops"> });
  const [dirty, setDirty] = useState(false);

  if (shop === undefined || viewer === undefined) return <PageLoading label="Loading your shop…" />;
  if (shop === null || viewer === null) return <ShopNotFound />;
  const isOwner = shop.userId === viewer._id;
  // A viewer who still owns the shop sees it but changes nothing (decision 025; the banner says why).
  const readOnly = isOwner && !mayRunShops(viewer.role);
  // Shown where the status alone would make the shop public.
  const hiddenByOwner = (shop.ownerRestricted || shop.ownerIsViewer) && isShopPublic(shop.status);

  return (
    <DashboardShell
      title={shop.liveShopName}
      description={
        <div className="space-y-2">
          <p className="flex flex-wrap items-center gap-2">
            <ShopStatusBadge status={shop.status} />
            {hiddenByOwner && <HiddenFromPublicTag />}
          </p>
          {!isOwner && hiddenByOwner && (
            <p className="text-sm">
              {shop.ownerRestricted
                ? "Its owner's processing is restricted (a privacy request), so nobody but them and admins sees it."
                : "Its owner is a viewer and only sellers run shops, so nobody but them and admins sees it."}
            </p>
          )}
          {shop.statusReason && (
            <p className="text-sm">
              <span className="font-semibold">Note from the LiveLocal team:</span> {shop.statusReason}
            </p>
          )}
        </div>
      }
      actions={
        <>
          {/* A shop nobody else sees yet opens as a preview for its owner and admins. */}
          <Link
            to={paths.liveShop.getHref(shop.slug)}
            className={buttonVariants({ variant: "outline", size: "sm" })}
          >
            <Icon name="lucide:external-link" className="size-4" />
            {isShopPublic(shop.status) && !hiddenByOwner ? "View page" : "Preview page"}
          </Link>
          <Link
            to={paths.dashboard.streams.getHref(shop._id)}
            className={buttonVariants({ variant: "outline", size: "sm" })}
          >
            <Icon name="lucide:video" className="size-4" />
            Streams of this shop
          </Link>
        </>
      }
    >
      {justCreated && shop.status === "draft" && (
        <div className="mb-6">
          <FormAlert tone="success" message="Your shop is created as a draft." />
        </div>
      )}
      {readOnly ? (
        <p className="text-slate-600 dark:text-slate-300">
          Only sellers can change a shop. This one is kept as it was, hidden from the public.
        </p>
      ) : (
        <>
          <ShopLifecycleActions
            shop={shop}
            actor={{ isOwner, isAdmin: viewer.role === "admin" }}
            dirty={dirty}
          />
          <LiveShopForm
            key={shop._id}
            initial={shopDraftFromDoc(shop)}
            liveShopId={shop._id}
            onDirtyChange={setDirty}
          />
        </>
      )}
    </DashboardShell>
  );
}
