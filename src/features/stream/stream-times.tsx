import { formatStreamTimeForViewer, isoDateTime, viewerTimeZone } from "@convex/lib/time";
import { TIME_ZONE_LABELS, type TimeZone } from "@convex/lib/constants";

type StreamTimesProps = {
  startUtc?: number;
  stopUtc?: number;
  timezone: TimeZone;
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

/** Start and end in the stream's own zone, and in the viewer's when that reads differently. */
export function StreamTimes({
  startUtc,
  stopUtc,
  timezone,
  viewerZone = viewerTimeZone(),
}: StreamTimesProps) {
  if (startUtc === undefined)
    return <p className="text-slate-600 dark:text-slate-300">Time to be announced.</p>;
  return (
    <dl className="grid gap-3 sm:grid-cols-2">
      <TimeRow label="Starts" utcMs={startUtc} timezone={timezone} viewerZone={viewerZone} />
      {stopUtc !== undefined && (
        <TimeRow label="Ends" utcMs={stopUtc} timezone={timezone} viewerZone={viewerZone} />
      )}
      <p className="text-xs text-slate-500 sm:col-span-2 dark:text-slate-400">
        Shop time: {TIME_ZONE_LABELS[timezone]}
      </p>
    </dl>
  );
}
