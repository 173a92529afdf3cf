import { StreamCard } from "@/components/streams/stream-card";
import { Icon } from "@/components/ui/icon";
import { useNow } from "@/lib/use-now";
import { usePageQuery } from "@/lib/page-query";
import { api } from "@convex/_generated/api";
import { formatCountdown } from "@convex/lib/time";

const FIVE_MINUTES = 5 * 60_000;

/**
 * Scheduled shows starting over the next two days, with live countdowns. The query takes "now" rounded
 * down to 5 minutes (queries cannot read the clock, and a shared value keeps one subscription for
 * everyone); shows whose start has passed since are dropped here.
 */
export function StartingSoon() {
  const now = useNow(1_000);
  const since = Math.floor(now / FIVE_MINUTES) * FIVE_MINUTES;
  const streams = usePageQuery(api.streams.listStartingSoon, { since });
  if (streams === undefined) {
    return (
      <div
        className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3"
        aria-busy="true"
        aria-label="Loading upcoming shows"
      >
        {[0, 1, 2].map((key) => (
          <div key={key} className="aspect-[4/3] animate-pulse rounded-2xl bg-slate-100 dark:bg-slate-800" />
        ))}
      </div>
    );
  }
  const upcoming = streams.filter((stream) => (stream.streamStartUTC ?? 0) > now);
  if (upcoming.length === 0) {
    return (
      <p className="rounded-2xl border border-dashed border-slate-300 p-8 text-center text-slate-600 dark:border-slate-700 dark:text-slate-300">
        No shows are scheduled for the next two days yet.
      </p>
    );
  }
  return (
    <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
      {upcoming.map((stream) => (
        <li key={stream._id} className="flex flex-col gap-2">
          <p className="inline-flex items-center gap-1.5 text-sm font-semibold text-secondary-700 dark:text-blue-300">
            <Icon name="lucide:clock" className="size-4" />
            {/* Not a live region: a screen reader would otherwise announce every tick. */}
            Starts {formatCountdown((stream.streamStartUTC ?? now) - now)}
          </p>
          <StreamCard stream={stream} />
        </li>
      ))}
    </ul>
  );
}
