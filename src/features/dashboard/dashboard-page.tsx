import { useQuery } from "convex/react";
import { StreamStatusBadge } from "@/components/streams/stream-status-badge";
import { useDocumentTitle } from "@/lib/use-document-title";
import { api } from "@convex/_generated/api";
import type { StreamStatus } from "@convex/lib/constants";
import { formatStreamTime } from "@convex/lib/time";
import { StreamStatusControls } from "./stream-status-controls";

const GROUPS: { title: string; statuses: StreamStatus[] }[] = [
  { title: "Live now", statuses: ["LIVE", "PAUSED"] },
  { title: "Upcoming", statuses: ["SCHEDULED"] },
  { title: "Drafts", statuses: ["CREATED"] },
  { title: "Ended and cancelled", statuses: ["ENDED", "CANCELLED"] },
];

export function DashboardPage() {
  useDocumentTitle("Dashboard");
  const viewer = useQuery(api.users.viewer, {});
  const shops = useQuery(api.streams.listMyStreams, {});
  if (viewer === undefined || shops === undefined || viewer === null) {
    return <p className="mx-auto max-w-5xl px-4 py-12 text-slate-500">Loading your dashboard…</p>;
  }
  const actor = { isOwner: true, isAdmin: viewer.role === "admin" };

  return (
    <div className="mx-auto max-w-5xl px-4 py-10">
      <h1 className="text-3xl font-bold tracking-tight">Dashboard</h1>
      <p className="mt-2 text-slate-600 dark:text-slate-300">
        Signed in as {viewer.name ?? viewer.email} · {viewer.role}
      </p>

      {shops.length === 0 && (
        <p className="mt-8 rounded-2xl border border-dashed border-slate-300 p-8 text-slate-600 dark:border-slate-700 dark:text-slate-300">
          You have no live shop yet. Sellers run their shops and take their streams live from here.
        </p>
      )}

      {shops.map((shop) => (
        <section key={shop.liveShopId} className="mt-10" aria-labelledby={`shop-${shop.liveShopId}`}>
          <h2 id={`shop-${shop.liveShopId}`} className="text-xl font-semibold">
            {shop.liveShopName} <span className="text-sm font-normal text-slate-500">· {shop.status}</span>
          </h2>
          {GROUPS.map((group) => {
            const streams = shop.streams.filter((stream) => group.statuses.includes(stream.streamStatus));
            if (streams.length === 0) return null;
            return (
              <div key={group.title} className="mt-5">
                <h3 className="text-sm font-semibold uppercase tracking-wide text-slate-500">
                  {group.title}
                </h3>
                <ul className="mt-2 divide-y divide-slate-200 rounded-2xl border border-slate-200 dark:divide-slate-800 dark:border-slate-800">
                  {streams.map((stream) => (
                    <li
                      key={stream._id}
                      className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between"
                    >
                      <div className="min-w-0">
                        <p className="flex items-center gap-2 font-medium">
                          <StreamStatusBadge status={stream.streamStatus} />
                          <span className="truncate">{stream.streamTitle}</span>
                        </p>
                        <p className="mt-1 text-sm text-slate-500">
                          {stream.streamStartUTC === undefined
                            ? "No start time yet"
                            : formatStreamTime(stream.streamStartUTC, stream.timezone)}
                        </p>
                      </div>
                      <StreamStatusControls
                        streamId={stream._id}
                        streamTitle={stream.streamTitle}
                        status={stream.streamStatus}
                        actor={actor}
                      />
                    </li>
                  ))}
                </ul>
              </div>
            );
          })}
        </section>
      ))}
    </div>
  );
}
