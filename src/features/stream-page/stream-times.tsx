import { formatTimeForViewer, isoDateTime } from "@convex/lib/time";
import { TIME_ZONE_LABELS, type StreamStatus, type TimeZone } from "@convex/lib/constants";
import { shownStreamTimes, type StreamTimeFields } from "@convex/lib/shownTimes";
import { useKnownViewerTimeZone } from "@/lib/viewer-time-zone";

type StreamTimesProps = { stream: StreamTimeFields & { timezone: TimeZone } };

function TimeRow({
  label,
  utcMs,
  timezone,
  viewerZone,
}: {
  label: string;
  utcMs: number;
  timezone: TimeZone;
  viewerZone: string;
}) {
  const { inViewerZone, inShopZone } = formatTimeForViewer(utcMs, viewerZone, timezone);
  return (
    <div>
      <dt className="text-sm font-medium text-slate-500 dark:text-slate-400">{label}</dt>
      {/* Room for the shop's time from the start: the server cannot know whether the viewer's zone shows
          it (decision 040), and the line appearing after hydration would move what is below. */}
      <dd className="mt-0.5 min-h-11">
        <time dateTime={isoDateTime(utcMs)}>{inViewerZone}</time>
        {inShopZone && (
          <span className="block text-sm text-slate-600 dark:text-slate-300">
            Shop time: <time dateTime={isoDateTime(utcMs)}>{inShopZone}</time>
          </span>
        )}
      </dd>
    </div>
  );
}

/**
 * What the start and stop are called as the show stands: to come, under way, over, or called off. A show
 * that went live and was cancelled while paused started and ended; one cancelled before never did.
 */
export function streamTimeLabels(
  status: StreamStatus,
  happened: { started: boolean; ended: boolean },
): { start: string; stop: string } {
  if (status === "CANCELLED" && !happened.started) return { start: "Was to start", stop: "Was to end" };
  return {
    start: happened.started ? "Started" : "Starts",
    stop: happened.ended ? "Ended" : "Ends",
  };
}

/**
 * Start and end in the viewer's zone (issue 17 item 3), and in the shop's when that reads differently:
 * a pickup or a local drop follows the shop's clock.
 */
export function StreamTimes({ stream }: StreamTimesProps) {
  // Server HTML cannot know the viewer's zone: it shows the shop's, and says so (decision 040).
  const knownZone = useKnownViewerTimeZone();
  const { timezone } = stream;
  const viewerZone = knownZone ?? timezone;
  // What happened, and the plan for what has not (decision 058).
  const shown = shownStreamTimes(stream);
  const { start: startUtc, stop: stopUtc } = shown;
  const labels = streamTimeLabels(stream.streamStatus, shown);
  if (startUtc === undefined)
    return <p className="text-slate-600 dark:text-slate-300">Time to be announced.</p>;
  return (
    // The note is outside the list: a <dl> may hold only its terms and descriptions (axe, Lighthouse).
    <div className="grid gap-3">
      <dl className="grid gap-3 sm:grid-cols-2">
        <TimeRow label={labels.start} utcMs={startUtc} timezone={timezone} viewerZone={viewerZone} />
        {stopUtc !== undefined && (
          <TimeRow label={labels.stop} utcMs={stopUtc} timezone={timezone} viewerZone={viewerZone} />
        )}
      </dl>
      <p className="text-xs text-slate-500 dark:text-slate-400">
        {knownZone
          ? `In your time zone; the shop is on ${TIME_ZONE_LABELS[timezone]} time.`
          : `In the shop’s time zone (${TIME_ZONE_LABELS[timezone]} time).`}
      </p>
    </div>
  );
}
