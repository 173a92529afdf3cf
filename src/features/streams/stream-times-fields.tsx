import { Field, controlClass } from "@/components/forms/field";
import { TIME_ZONE_LABELS, type TimeZone } from "@convex/lib/constants";

type Props = {
  start: string;
  stop: string;
  timezone: TimeZone;
  onChange: (patch: { start?: string; stop?: string }) => void;
  errors: Record<string, string>;
};

/** Start and stop as wall-clock times in the shop's zone, which is named beside them. */
export function StreamTimesFields({ start, stop, timezone, onChange, errors }: Props) {
  const zone = `${TIME_ZONE_LABELS[timezone]} time`;
  return (
    <fieldset>
      <legend className="text-sm font-medium">When</legend>
      <p className="text-sm text-slate-500 dark:text-slate-400">
        Times are in the shop's time zone: <span className="font-medium">{zone}</span> ({timezone}). Both are
        needed to schedule the show.
      </p>
      <div className="mt-2 grid gap-4 sm:grid-cols-2">
        <Field label="Start" optional error={errors.streamStartUTC} hint={zone}>
          {(control) => (
            <input
              {...control}
              type="datetime-local"
              name="streamStartUTC"
              value={start}
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
              min={start || undefined}
              onChange={(event) => onChange({ stop: event.target.value })}
              className={controlClass}
            />
          )}
        </Field>
      </div>
    </fieldset>
  );
}
