import { useMutation, usePaginatedQuery } from "convex/react";
import type { FunctionReturnType } from "convex/server";
import { useState } from "react";
import { Link } from "react-router-dom";
import { SHOP_STATUS_LABELS } from "@/components/shops/shop-status-badge";
import { StreamStatusBadge } from "@/components/streams/stream-status-badge";
import { Button } from "@/components/ui/button";
import type { ConfirmOptions } from "@/components/ui/use-confirm";
import { useReasonedAction } from "@/components/ui/use-reasoned-action";
import { paths } from "@/config/paths";
import { useViewerTimeZone } from "@/lib/viewer-time-zone";
import { api } from "@convex/_generated/api";
import type { StreamStatus } from "@convex/lib/constants";
import { allowedStreamTransitions, isShopPublic, type StreamAction } from "@convex/lib/lifecycle";
import { shownStreamTimes } from "@convex/lib/shownTimes";
import { formatShowForViewer } from "@convex/lib/time";
import { AdminShell } from "./admin-shell";
import { ADMIN_PAGE_SIZE, ListEmpty, ListLoading, LoadMore, NoticeArea } from "./admin-list";
import { MODERATOR, type Notice } from "./shop-moderation-actions";

type ModeratedStream = FunctionReturnType<typeof api.admin.listStreams>["page"][number];
type ModeratedStatus = "LIVE" | "PAUSED" | "SCHEDULED";

const SECTIONS: { status: ModeratedStatus; heading: string; empty: string; loading: string }[] = [
  {
    status: "LIVE",
    heading: "Live now",
    empty: "No stream is live right now.",
    loading: "Loading live streams…",
  },
  { status: "PAUSED", heading: "Paused", empty: "No stream is paused.", loading: "Loading paused streams…" },
  {
    status: "SCHEDULED",
    heading: "Upcoming",
    empty: "No stream is scheduled.",
    loading: "Loading upcoming streams…",
  },
];

const linkClass = "font-medium text-primary-700 underline underline-offset-2 dark:text-primary-100";

/**
 * Every admin move asks first: it acts on someone else's show, in front of their viewers. Ending and
 * cancelling also ask why (lifecycle `streamMoveNeedsReason`): the seller reads the reason.
 */
function question(action: StreamAction, title: string): ConfirmOptions {
  switch (action) {
    case "end":
      return {
        title: `End “${title}” now?`,
        description:
          "It leaves the live lists at once and its page shows it as ended. The seller cannot restart it, and sees your reason on it.",
        confirmLabel: "End stream",
        cancelLabel: "Keep it live",
        destructive: true,
      };
    case "pause":
      return {
        title: `Pause “${title}”?`,
        description: "It shows as paused until its seller resumes it.",
        confirmLabel: "Pause stream",
        cancelLabel: "Keep it live",
      };
    default:
      return {
        title: `Cancel “${title}”?`,
        description:
          "Its page will show it as cancelled. This cannot be undone; the seller sees your reason on it.",
        confirmLabel: "Cancel stream",
        cancelLabel: "Keep it",
        destructive: true,
      };
  }
}

const BUTTON_LABELS: Partial<Record<StreamAction, string>> = {
  end: "End stream",
  pause: "Pause",
  cancel: "Cancel stream",
};

const DONE: Partial<Record<StreamAction, string>> = { end: "ended", pause: "paused", cancel: "cancelled" };

/**
 * `/dashboard/admin/streams`: streams live, paused and upcoming, each with what an admin may do to
 * someone else's show (end, pause, cancel), asked first and recorded in the activity log.
 */
export function AdminStreamsPage() {
  const [notice, setNotice] = useState<Notice | null>(null);
  return (
    <AdminShell
      title="Streams"
      description="End, pause or cancel a stream that breaks the rules. Sellers see the change at once."
    >
      <NoticeArea notice={notice} />
      <div className="space-y-12">
        {SECTIONS.map((section) => (
          <StreamSection key={section.status} {...section} onNotice={setNotice} />
        ))}
      </div>
    </AdminShell>
  );
}

function StreamSection({
  status: streamStatus,
  heading,
  empty,
  loading,
  onNotice,
}: (typeof SECTIONS)[number] & { onNotice: (notice: Notice) => void }) {
  const { results, status, loadMore } = usePaginatedQuery(
    api.admin.listStreams,
    { status: streamStatus },
    { initialNumItems: ADMIN_PAGE_SIZE },
  );
  const headingId = `streams-${streamStatus.toLowerCase()}`;
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId} className="text-xl font-semibold">
        {heading}
      </h2>
      {status === "LoadingFirstPage" ? (
        <ListLoading>{loading}</ListLoading>
      ) : results.length === 0 ? (
        <ListEmpty>{empty}</ListEmpty>
      ) : (
        <ul
          aria-labelledby={headingId}
          className="mt-4 divide-y divide-slate-200 rounded-2xl border border-slate-200 dark:divide-slate-800 dark:border-slate-800"
        >
          {results.map((stream) => (
            <StreamRow key={stream._id} stream={stream} onNotice={onNotice} />
          ))}
        </ul>
      )}
      <LoadMore status={status} onLoadMore={() => loadMore(ADMIN_PAGE_SIZE)} />
    </section>
  );
}

/**
 * When the show runs, in the admin's own zone, and in its shop's when that reads differently (issue 17
 * item 3); "Since" its start when it has no stop.
 */
function streamTime(
  stream: ModeratedStream,
  viewerZone: string,
): { inViewerZone: string; inShopZone?: string } | null {
  const { start, stop } = shownStreamTimes(stream);
  if (start === undefined) return null;
  const time = formatShowForViewer(start, stop, viewerZone, stream.timezone);
  if (stop !== undefined) return time;
  return {
    inViewerZone: `Since ${time.inViewerZone}`,
    ...(time.inShopZone !== undefined && { inShopZone: `Since ${time.inShopZone}` }),
  };
}

function StreamRow({ stream, onNotice }: { stream: ModeratedStream; onNotice: (notice: Notice) => void }) {
  const setStreamStatus = useMutation(api.streams.setStreamStatus);
  const moderation = useReasonedAction<{ to: StreamStatus; action: StreamAction }>({
    run: ({ to }, reason) =>
      setStreamStatus({ streamId: stream._id, status: to, ...(reason !== undefined && { reason }) }),
    reasonQuestion: ({ action }) => ({
      ...question(action, stream.streamTitle),
      reasonLabel: "Reason, shown to the stream's seller",
      reader: "the stream's seller",
    }),
    onDone: ({ action }) =>
      onNotice({ tone: "success", text: `“${stream.streamTitle}” is ${DONE[action] ?? "updated"}.` }),
    onError: (_move, text) => onNotice({ tone: "error", text }),
  });
  const transitions = allowedStreamTransitions(stream.streamStatus, MODERATOR);
  const time = streamTime(stream, useViewerTimeZone());

  return (
    <li className="flex flex-col gap-3 p-4 sm:flex-row sm:items-start sm:justify-between">
      <div className="min-w-0">
        <p className="flex flex-wrap items-center gap-2">
          <Link
            to={paths.stream.getHref(stream._id)}
            className="[overflow-wrap:anywhere] font-semibold hover:underline"
          >
            {stream.streamTitle}
          </Link>
          <StreamStatusBadge status={stream.streamStatus} />
        </p>
        <p className="text-sm text-slate-600 dark:text-slate-300">
          {stream.shopStatus && isShopPublic(stream.shopStatus) ? (
            <Link to={paths.liveShop.getHref(stream.liveShopSlug)} className={linkClass}>
              {stream.liveShopName}
            </Link>
          ) : (
            <>
              {stream.liveShopName}
              {stream.shopStatus && (
                <span className="text-slate-500 dark:text-slate-400">
                  {" "}
                  (shop {SHOP_STATUS_LABELS[stream.shopStatus].toLowerCase()})
                </span>
              )}
            </>
          )}
        </p>
        {time && (
          <p className="text-sm text-slate-500 dark:text-slate-400">
            {time.inViewerZone}
            {time.inShopZone && <span className="block text-xs">Shop time: {time.inShopZone}</span>}
          </p>
        )}
        <p className="mt-1 text-sm">
          <Link
            to={paths.dashboard.stream.getHref(stream._id)}
            className={linkClass}
            aria-label={`Editor of ${stream.streamTitle}`}
          >
            Editor
          </Link>
        </p>
      </div>
      {transitions.length > 0 && (
        <div
          className="flex shrink-0 flex-wrap gap-2"
          role="group"
          aria-label={`Moderate ${stream.streamTitle}`}
        >
          {transitions.map(({ to, action, needsReason }) => (
            <Button
              key={to}
              size="sm"
              variant="outline"
              disabled={moderation.pending}
              className={
                action === "pause"
                  ? undefined
                  : "text-red-700 hover:bg-red-50 dark:text-red-300 dark:hover:bg-red-950/40"
              }
              onClick={() =>
                needsReason
                  ? moderation.askReason({ to, action })
                  : void moderation.perform({ to, action }, question(action, stream.streamTitle))
              }
            >
              {BUTTON_LABELS[action] ?? action}
              {needsReason && "…"}
            </Button>
          ))}
        </div>
      )}
      {moderation.dialogs}
    </li>
  );
}
