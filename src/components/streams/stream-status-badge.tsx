import { cva } from "class-variance-authority";
import type { StreamStatus } from "@convex/lib/constants";

const badge = cva("inline-flex items-center gap-1.5 rounded-full px-2.5 py-0.5 text-xs font-semibold", {
  variants: {
    status: {
      LIVE: "bg-red-600 text-white",
      PAUSED: "bg-amber-100 text-amber-900 dark:bg-amber-900/50 dark:text-amber-100",
      SCHEDULED: "bg-secondary-50 text-secondary-700 dark:bg-secondary-700/30 dark:text-blue-100",
      CREATED: "bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200",
      ENDED: "bg-slate-100 text-slate-600 dark:bg-slate-800 dark:text-slate-300",
      CANCELLED: "bg-slate-100 text-slate-500 line-through dark:bg-slate-800 dark:text-slate-400",
    },
  },
});

export const STREAM_STATUS_LABELS: Record<StreamStatus, string> = {
  LIVE: "Live",
  PAUSED: "Paused",
  SCHEDULED: "Upcoming",
  CREATED: "Draft",
  ENDED: "Ended",
  CANCELLED: "Cancelled",
};

export function StreamStatusBadge({ status }: { status: StreamStatus }) {
  return (
    <span className={badge({ status })}>
      {status === "LIVE" && <span className="size-1.5 animate-pulse rounded-full bg-white" aria-hidden />}
      {STREAM_STATUS_LABELS[status]}
    </span>
  );
}
