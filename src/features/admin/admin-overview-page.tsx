import { useQuery } from "convex/react";
import type { FunctionReturnType } from "convex/server";
import type { ReactNode } from "react";
import { Link } from "react-router-dom";
import { Icon } from "@/components/ui/icon";
import { paths } from "@/config/paths";
import { cn } from "@/lib/cn";
import { useNow } from "@/lib/use-now";
import { api } from "@convex/_generated/api";
import { AdminShell } from "./admin-shell";

type Overview = NonNullable<FunctionReturnType<typeof api.admin.getOverview>>;
type Count = Overview["liveStreams"];

const MINUTE = 60_000;

/** "12", or "100+" when the server stopped counting. */
function countWords({ count, more }: Count): string {
  return more ? `${count}+` : String(count);
}

/**
 * `/dashboard/admin`: one card per screen of the console, with what waits there; overdue privacy
 * requests stand out. Live: the counts change as shops are submitted and requests come in.
 */
export function AdminOverviewPage() {
  // The browser's clock to the minute decides what is overdue, so every admin shares one subscription.
  const now = Math.floor(useNow(MINUTE) / MINUTE) * MINUTE;
  const overview = useQuery(api.admin.getOverview, { now });
  const loading = overview === undefined;

  return (
    <AdminShell title="Admin console" description="What waits for an admin, and where to act on it.">
      {loading && (
        <p role="status" className="sr-only">
          Loading the counts…
        </p>
      )}
      <ul aria-label="Console screens" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        <OverviewCard
          to={paths.dashboard.admin.shops.getHref()}
          icon="lucide:store"
          title="Shops"
          count={overview?.shopsAwaitingVerification}
          countLabel="awaiting verification"
          attention={(overview?.shopsAwaitingVerification.count ?? 0) > 0}
        >
          Verify new shops; suspend or reinstate any shop.
        </OverviewCard>
        <OverviewCard
          to={paths.dashboard.admin.privacyRequests.getHref()}
          icon="lucide:file-lock"
          title="Privacy requests"
          count={overview?.openPrivacyRequests}
          countLabel="open"
          attention={(overview?.openPrivacyRequests.count ?? 0) > 0}
          extra={
            overview && overview.overduePrivacyRequests.count > 0 ? (
              <span className="mt-2 inline-flex items-center gap-1.5 self-start rounded-full bg-red-100 px-2.5 py-0.5 text-sm font-semibold text-red-800 dark:bg-red-900/40 dark:text-red-100">
                <Icon name="lucide:alarm-clock" className="size-4" />
                {countWords(overview.overduePrivacyRequests)} overdue
              </span>
            ) : null
          }
        >
          Export, deletion, correction and restriction requests, answered within a month.
        </OverviewCard>
        <OverviewCard
          to={paths.dashboard.admin.streams.getHref()}
          icon="lucide:video"
          title="Streams"
          count={overview?.liveStreams}
          countLabel="live or paused now"
        >
          End, pause or cancel a stream that breaks the rules.
        </OverviewCard>
        <OverviewCard to={paths.dashboard.admin.users.getHref()} icon="lucide:users" title="Users & roles">
          Make someone a seller or an admin, or take the role back.
        </OverviewCard>
        <OverviewCard to={paths.dashboard.admin.activity.getHref()} icon="lucide:history" title="Activity">
          Every admin action and role change: who, when, what and why.
        </OverviewCard>
      </ul>
    </AdminShell>
  );
}

function OverviewCard({
  to,
  icon,
  title,
  count,
  countLabel,
  attention = false,
  extra,
  children,
}: {
  to: string;
  icon: string;
  title: string;
  /** Undefined while loading, for a card that shows a count. */
  count?: Count;
  countLabel?: string;
  /** Something waits: the count is coloured. */
  attention?: boolean;
  extra?: ReactNode;
  children: ReactNode;
}) {
  return (
    <li>
      <Link
        to={to}
        className="flex h-full flex-col rounded-2xl border border-slate-200 bg-white p-5 transition-colors hover:border-primary-600 hover:bg-primary-50/40 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary-600 dark:border-slate-800 dark:bg-slate-900 dark:hover:border-primary-500 dark:hover:bg-slate-800"
      >
        <span className="flex items-center gap-2 text-lg font-semibold">
          <Icon name={icon} className="size-5 text-primary-700 dark:text-primary-100" />
          {title}
        </span>
        {countLabel && (
          <span className="mt-3 flex items-baseline gap-2">
            <span
              className={cn(
                "text-3xl font-bold tabular-nums",
                attention ? "text-amber-700 dark:text-amber-300" : "text-slate-900 dark:text-white",
              )}
            >
              {count ? countWords(count) : "–"}
            </span>
            <span className="text-sm text-slate-600 dark:text-slate-300">{countLabel}</span>
          </span>
        )}
        {extra}
        <span className="mt-3 text-sm text-slate-600 dark:text-slate-300">{children}</span>
      </Link>
    </li>
  );
}
