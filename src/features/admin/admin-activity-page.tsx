import { usePaginatedQuery } from "convex/react";
import type { FunctionReturnType } from "convex/server";
import { Link } from "react-router-dom";
import { Avatar } from "@/components/layout/avatar";
import { paths } from "@/config/paths";
import { cn } from "@/lib/cn";
import { formatDateTime } from "@/lib/format-date";
import { api } from "@convex/_generated/api";
import { AdminShell } from "./admin-shell";
import { ADMIN_ACTION_WORDS, SEVERE_ADMIN_ACTIONS } from "./admin-action-words";
import { ADMIN_PAGE_SIZE, ListEmpty, ListLoading, LoadMore } from "./admin-list";

type Entry = FunctionReturnType<typeof api.admin.listActivity>["page"][number];

/** Where the target can be looked at: a shop's or stream's editor (admins may open any), the requests. */
function targetHref(entry: Entry): string | null {
  if (entry.targetTable === "liveShops") return paths.dashboard.liveShop.getHref(entry.targetId);
  if (entry.targetTable === "privacyRequests") return paths.dashboard.admin.privacyRequests.getHref();
  if (entry.targetTable === "streams" && entry.action !== "delete_stream")
    return paths.dashboard.stream.getHref(entry.targetId);
  return null;
}

/** `/dashboard/admin/activity`: every admin action, newest first: who, when, what, on what, why. */
export function AdminActivityPage() {
  const { results, status, loadMore } = usePaginatedQuery(
    api.admin.listActivity,
    {},
    { initialNumItems: ADMIN_PAGE_SIZE },
  );
  return (
    <AdminShell
      title="Activity"
      description="Every admin action and every role change, however it came about, newest first: who or what did it, when, on what and why. Entries cannot be changed."
    >
      {status === "LoadingFirstPage" ? (
        <ListLoading>Loading the activity log…</ListLoading>
      ) : results.length === 0 ? (
        <ListEmpty>No admin has taken an action yet.</ListEmpty>
      ) : (
        <ol
          aria-label="Admin actions, newest first"
          className="divide-y divide-slate-200 rounded-2xl border border-slate-200 dark:divide-slate-800 dark:border-slate-800"
        >
          {results.map((entry) => (
            <ActivityEntry key={entry._id} entry={entry} />
          ))}
        </ol>
      )}
      <LoadMore status={status} onLoadMore={() => loadMore(ADMIN_PAGE_SIZE)} />
    </AdminShell>
  );
}

function ActivityEntry({ entry }: { entry: Entry }) {
  const href = targetHref(entry);
  const severe = SEVERE_ADMIN_ACTIONS.has(entry.action);
  return (
    <li className="flex gap-3 p-4">
      <Avatar name={entry.adminName} className="size-8 text-xs" />
      <div className="min-w-0 flex-1">
        <p className="[overflow-wrap:anywhere]">
          <span className="font-semibold">{entry.adminName}</span>{" "}
          <span className={cn(severe && "font-medium text-red-700 dark:text-red-300")}>
            {ADMIN_ACTION_WORDS[entry.action]}
          </span>{" "}
          {href ? (
            <Link
              to={href}
              className="font-medium text-primary-700 underline underline-offset-2 dark:text-primary-100"
            >
              {entry.targetLabel}
            </Link>
          ) : (
            <span className="font-medium">{entry.targetLabel}</span>
          )}
        </p>
        {entry.reason && (
          <p className="mt-1 whitespace-pre-line [overflow-wrap:anywhere] text-sm text-slate-700 dark:text-slate-200">
            <span className="font-medium">Why:</span> {entry.reason}
          </p>
        )}
        <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">
          <time dateTime={new Date(entry.createdAt).toISOString()}>{formatDateTime(entry.createdAt)}</time>
          {entry.updatedAt - entry.createdAt >= 60_000 && (
            <>
              {" "}
              · last change{" "}
              <time dateTime={new Date(entry.updatedAt).toISOString()}>
                {formatDateTime(entry.updatedAt)}
              </time>
            </>
          )}
        </p>
      </div>
    </li>
  );
}
