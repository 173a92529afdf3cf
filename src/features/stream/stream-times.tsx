import { formatStreamTimeForViewer, isoDateTime, viewerTimeZone } from "@convex/lib/time";
import { TIME_ZONE_LABELS, type StreamStatus, type TimeZone } from "@convex/lib/constants";

type StreamTimesProps = {
  startUtc?: number;
  stopUtc?: number;
  timezone: TimeZone;
  /** Says whether the times are to come or past: "Starts" and "Ends", "Started" and "Ended". */
  status: StreamStatus;
  /** The viewer's zone; the browser's by default. */
  viewerZone?: string;
};

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
  const { inStreamZone, inViewerZone } = formatStreamTimeForViewer(utcMs, timezone, viewerZone);
  return (
    <div>
      <dt className="text-sm font-medium text-slate-500 dark:text-slate-400">{label}</dt>
      <dd className="mt-0.5">
        <time dateTime={isoDateTime(utcMs)}>{inStreamZone}</time>
        {inViewerZone && (
          <span className="block text-sm text-slate-600 dark:text-slate-300">
            Your time: <time dateTime={isoDateTime(utcMs)}>{inViewerZone}</time>
          </span>
        )}
      </dd>
    </div>
  );
}

/** What the start and stop are called as the show stands: to come, under way, over, or called off. */
export function streamTimeLabels(status: StreamStatus): { start: string; stop: string } {
  switch (status) {
    case "LIVE":
    case "PAUSED":
      return { start: "Started", stop: "Ends" };
    case "ENDED":
      return { start: "Started", stop: "Ended" };
    case "CANCELLED":
      return { start: "Was to start", stop: "Was to end" };
    default:
      return { start: "Starts", stop: "Ends" };
  }
}

/** Start and end in the stream's own zone, and in the viewer's when that reads differently. */
export function StreamTimes({
  startUtc,
  stopUtc,
  timezone,
  status,
  viewerZone = viewerTimeZone(),
}: StreamTimesProps) {
  const labels = streamTimeLabels(status);
  if (startUtc === undefined)
    return <p className="text-slate-600 dark:text-slate-300">Time to be announced.</p>;
  return (
    <dl className="grid gap-3 sm:grid-cols-2">
      <TimeRow label={labels.start} utcMs={startUtc} timezone={timezone} viewerZone={viewerZone} />
      {stopUtc !== undefined && (
        <TimeRow label={labels.stop} utcMs={stopUtc} timezone={timezone} viewerZone={viewerZone} />
      )}
      <p className="text-xs text-slate-500 sm:col-span-2 dark:text-slate-400">
        Shop time: {TIME_ZONE_LABELS[timezone]}
      </p>
    </dl>
  );
}
