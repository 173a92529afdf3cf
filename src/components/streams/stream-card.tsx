import type { FunctionReturnType } from "convex/server";
import { memo } from "react";
import { Link } from "react-router-dom";
import { CARD_LINK_CLASS } from "@/components/ui/card-link";
import { CardPicture } from "@/components/ui/card-picture";
import { SaveStreamButton } from "@/components/watch-list/save-stream-button";
import { paths } from "@/config/paths";
import { useNow } from "@/lib/use-now";
import { useViewerTimeZone } from "@/lib/viewer-time-zone";
import type { api } from "@convex/_generated/api";
import type { StreamStatus } from "@convex/lib/constants";
import { shownStreamTimes, type StreamTimeFields } from "@convex/lib/shownTimes";
import { formatStreamTime, isFormattableTime } from "@convex/lib/time";
import { StreamStatusBadge } from "./stream-status-badge";

export type StreamCardData = FunctionReturnType<typeof api.streams.listLiveNow>[number];

/**
 * The words before a card's start time (`shownStreamTimes`, decision 058): "Started" once it went live,
 * "Starts" while it is to come, "Planned for" a start that passed with the show still waiting or called
 * off. A show that went live early before starts were recorded shows its plan, still ahead: never
 * "Started" in the future, but a live (or paused) one says so (issue 16 item 9).
 */
export function streamStartLabel(
  status: StreamStatus,
  started: boolean,
  startUtc: number,
  now: number,
): string {
  if (startUtc <= now) return started ? "Started" : "Planned for";
  if (status === "SCHEDULED") return "Starts";
  if (status === "LIVE") return "Live now, planned for";
  if (status === "PAUSED") return "Paused, planned for";
  return "Planned for";
}

/**
 * A card's time line, in `zone` (the viewer's; the shop's for the card's shop-time hint): its shown start
 * with streamStartLabel's words, and for a show that ended, when it did. A time no date can show (stored
 * before times were bounded) is left out, as a missing one is; null when nothing is left.
 */
export function streamCardTime(stream: StreamTimeFields, now: number, zone: string): string | null {
  const { start, stop, started, ended } = shownStreamTimes(stream);
  const parts: string[] = [];
  if (start !== undefined && isFormattableTime(start)) {
    parts.push(
      `${streamStartLabel(stream.streamStatus, started, start, now)} ${formatStreamTime(start, zone)}`,
    );
  }
  if (ended && stop !== undefined && isFormattableTime(stop)) {
    parts.push(`Ended ${formatStreamTime(stop, zone)}`);
  }
  return parts.length > 0 ? parts.join(" · ") : null;
}

/** Cards in the first row of a grid (three columns on desktop) load their pictures eagerly. */
export const PRIORITY_CARDS = 3;

/**
 * `priority`: the card is among the first on screen (CardPicture). Memoised: a list whose subscription
 * answers with the same shows (the server-rendered page's, decision 040) does not draw its cards again.
 */
export const StreamCard = memo(function StreamCard({
  stream,
  priority = false,
}: {
  stream: StreamCardData;
  priority?: boolean;
}) {
  const now = useNow();
  // Server HTML shows the shop's own time (named), the viewer's from the render after hydrating.
  const viewerZone = useViewerTimeZone(stream.timezone);
  // In the viewer's zone (issue 17 item 3); the shop's own time on hover, where it reads differently.
  const time = streamCardTime(stream, now, viewerZone);
  const shopTime = streamCardTime(stream, now, stream.timezone);
  return (
    <article className="relative overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900">
      <div className="relative aspect-video bg-slate-100 dark:bg-slate-800">
        {stream.imageUrl && <CardPicture src={stream.imageUrl} priority={priority} />}
        <span className="absolute right-3 top-3">
          <StreamStatusBadge status={stream.streamStatus} />
        </span>
      </div>
      <div className="p-4">
        <div className="flex items-start gap-2">
          <h3 className="line-clamp-2 min-w-0 flex-1 font-semibold">
            {/* The whole card is the link's target area (the ::after covers it); the name stays the title. */}
            <Link to={paths.stream.getHref(stream._id)} className={CARD_LINK_CLASS}>
              {stream.streamTitle}
            </Link>
          </h3>
          {/* Beside the title, off the picture's own text; above the link's ::after overlay (z-10). */}
          <span className="relative z-10 -mt-2 -mr-2 shrink-0">
            <SaveStreamButton streamId={stream._id} streamTitle={stream.streamTitle} />
          </span>
        </div>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
          {stream.liveShopName}
          {stream.locationLabel && <> · {stream.locationLabel}</>}
        </p>
        {time && (
          <p
            className="mt-2 text-xs text-slate-500 dark:text-slate-400"
            title={shopTime && shopTime !== time ? `Shop time: ${shopTime}` : undefined}
          >
            {time}
          </p>
        )}
      </div>
    </article>
  );
});
