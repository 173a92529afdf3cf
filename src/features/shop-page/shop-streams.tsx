import { PlatformLinks } from "@/components/streams/platform-links";
import { StreamCard } from "@/components/streams/stream-card";
import type { PublicShop } from "./public-shop";

type ShopStream = PublicShop["streams"]["live"][number];

function StreamGroup({
  id,
  title,
  streams,
  empty,
}: {
  id: string;
  title: string;
  streams: ShopStream[];
  empty?: string;
}) {
  if (streams.length === 0 && !empty) return null;
  return (
    <section aria-labelledby={id}>
      <h2 id={id} className="text-xl font-semibold tracking-tight">
        {title}
      </h2>
      {streams.length === 0 ? (
        <p className="mt-3 text-slate-600 dark:text-slate-300">{empty}</p>
      ) : (
        <ul className="mt-4 grid gap-4 sm:grid-cols-2">
          {streams.map(({ platforms, ...card }) => (
            <li key={card._id} className="flex flex-col gap-2">
              <StreamCard stream={card} />
              <PlatformLinks platforms={platforms} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * Live now and the next shows, first under the shop's name: on a phone they come before the About text,
 * not under it.
 */
export function CurrentShows({ streams }: { streams: PublicShop["streams"] }) {
  if (streams.live.length === 0 && streams.upcoming.length === 0) return null;
  return (
    <div className="grid gap-10">
      <StreamGroup id="live-heading" title="Live now" streams={streams.live} />
      <StreamGroup id="upcoming-heading" title="Upcoming shows" streams={streams.upcoming} />
    </div>
  );
}

/** Past shows (their cards lead to the replays), after saying so when nothing is live or coming. */
export function LaterShows({ streams }: { streams: PublicShop["streams"] }) {
  return (
    <div className="grid gap-10">
      {streams.live.length === 0 && streams.upcoming.length === 0 && (
        <StreamGroup
          id="upcoming-heading"
          title="Upcoming shows"
          streams={[]}
          empty="No shows scheduled yet."
        />
      )}
      <StreamGroup id="past-heading" title="Past shows and replays" streams={streams.past} />
    </div>
  );
}
