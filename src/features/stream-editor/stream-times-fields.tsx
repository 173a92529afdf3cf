import { Field, controlClass } from "@/components/forms/field";
import { TIME_ZONE_LABELS, type TimeZone } from "@convex/lib/constants";
import { TIME_RANGE } from "@convex/lib/limits";

type Props = {
  start: string;
  stop: string;
  timezone: TimeZone;
  onChange: (patch: { start?: string; stop?: string }) => void;
  errors: Record<string, string>;
};

/** The first and last values the inputs offer: the server's TIME_RANGE as the shop's clock reads it. */
const EARLIEST = `${TIME_RANGE.firstYear}-01-01T00:00`;
const LATEST = `${TIME_RANGE.lastYear}-12-31T23:59`;

/** Start and stop as wall-clock times in the shop's zone, which is named beside them. */
export function StreamTimesFields({ start, stop, timezone, onChange, errors }: Props) {
  const zone = `${TIME_ZONE_LABELS[timezone]} time`;
  return (
    <fieldset>
      <legend className="text-sm font-medium">When</legend>
      <p className="text-sm text-slate-500 dark:text-slate-400">
        Times are in the shop's time zone: <span className="font-medium">{zone}</span> ({timezone}). Both are
        needed to schedule the show. Dates from {TIME_RANGE.firstYear} to {TIME_RANGE.lastYear}.
      </p>
      <div className="mt-2 grid gap-4 sm:grid-cols-2">
        <Field label="Start" optional error={errors.streamStartUTC} hint={zone}>
          {(control) => (
            <input
              {...control}
              type="datetime-local"
              name="streamStartUTC"
              value={start}
              min={EARLIEST}
              max={LATEST}
              onChange={(event) => onChange({ start: event.target.value })}
              className={controlClass}
            />
          )}
        </Field>
        <Field label="Stop" optional error={errors.streamStopUTC} hint={zone}>
          {(control) => (
            <input
              {...control}
              type="datetime-local"
              name="streamStopUTC"
              value={stop}
              min={start || EARLIEST}
              max={LATEST}
              onChange={(event) => onChange({ stop: event.target.value })}
              className={controlClass}
            />
          )}
        </Field>
      </div>
    </fieldset>
  );
}
