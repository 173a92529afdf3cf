import { Link } from "react-router-dom";
import { Icon } from "@/components/ui/icon";
import { paths } from "@/config/paths";
import type { PublicShop } from "./public-shop";

const NOT_YET: Partial<Record<PublicShop["status"], string>> = {
  draft: "It is a draft: submit it for verification when it is ready.",
  pending_verification: "An admin is verifying it; it becomes public once approved.",
};

/** Tells the owner (or an admin) that nobody else sees this page, and why. */
export function PreviewBanner({ shop }: { shop: PublicShop }) {
  const notYet = NOT_YET[shop.status];
  return (
    <div className="mx-auto max-w-6xl px-4 pt-4">
      <div
        role="status"
        className="flex flex-wrap items-start gap-x-3 gap-y-1 rounded-2xl border border-amber-300 bg-amber-50 p-4 text-amber-950 dark:border-amber-700 dark:bg-amber-950/40 dark:text-amber-100"
      >
        <Icon name="lucide:eye" className="mt-0.5 size-5 shrink-0" />
        <p className="min-w-0 flex-1">
          <strong className="font-semibold">
            {notYet ? "Preview: not public yet." : "Preview: not public."}
          </strong>{" "}
          {notYet ?? "Its status or its owner's account keeps it off LiveLocal."} Only its owner and
          LiveLocal's admins see this page.{" "}
          <Link to={paths.dashboard.liveShop.getHref(shop._id)} className="font-medium underline">
            Edit the shop
          </Link>
        </p>
      </div>
    </div>
  );
}
