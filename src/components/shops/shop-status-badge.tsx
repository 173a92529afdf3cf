import { cva } from "class-variance-authority";
import type { ShopStatus } from "@convex/lib/constants";

const badge = cva("inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold", {
  variants: {
    status: {
      draft: "bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200",
      pending_verification: "bg-amber-100 text-amber-900 dark:bg-amber-900/50 dark:text-amber-100",
      active: "bg-primary-50 text-primary-700 dark:bg-primary-900/40 dark:text-primary-100",
      maintenance: "bg-secondary-50 text-secondary-700 dark:bg-secondary-700/30 dark:text-blue-100",
      suspended: "bg-red-100 text-red-800 dark:bg-red-900/40 dark:text-red-100",
      inactive: "bg-slate-100 text-slate-500 dark:bg-slate-800 dark:text-slate-400",
    },
  },
});

export const SHOP_STATUS_LABELS: Record<ShopStatus, string> = {
  draft: "Draft",
  pending_verification: "Awaiting verification",
  active: "Active",
  maintenance: "Temporarily closed",
  suspended: "Suspended",
  inactive: "Closed",
};

export function ShopStatusBadge({ status }: { status: ShopStatus }) {
  return <span className={badge({ status })}>{SHOP_STATUS_LABELS[status]}</span>;
}
