import { PRIORITY_CARDS, StreamCard } from "@/components/streams/stream-card";
import { usePageQuery } from "@/lib/page-query";
import { api } from "@convex/_generated/api";

/** The live-now board: a Convex subscription, so it changes without reload as streams go live or end. */
export function LiveNow() {
  const streams = usePageQuery(api.streams.listLiveNow, {});
  if (streams === undefined) {
    return (
      <div
        className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3"
        aria-busy="true"
        aria-label="Loading live shows"
      >
        {[0, 1, 2].map((key) => (
          <div key={key} className="aspect-[4/3] animate-pulse rounded-2xl bg-slate-100 dark:bg-slate-800" />
        ))}
      </div>
    );
  }
  if (streams.length === 0) {
    return (
      <p className="rounded-2xl border border-dashed border-slate-300 p-8 text-center text-slate-600 dark:border-slate-700 dark:text-slate-300">
        Nobody is live right now. Check back soon.
      </p>
    );
  }
  return (
    <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-live="polite">
      {streams.map((stream, index) => (
        <li key={stream._id}>
          <StreamCard stream={stream} priority={index < PRIORITY_CARDS} />
        </li>
      ))}
    </ul>
  );
}
