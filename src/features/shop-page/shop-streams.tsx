import { PlatformLinks } from "@/components/streams/platform-links";
import { StreamCard } from "@/components/streams/stream-card";
import type { Id } from "@convex/_generated/dataModel";
import type { PlatformType } from "@convex/lib/constants";
import type { PublicShop } from "./public-shop";

type ShopStream = PublicShop["streams"]["live"][number];
/** A click-through to a platform from one show's links (seller insights). */
type OnFollow = (platform: PlatformType, streamId: Id<"streams">) => void;

function StreamGroup({
  id,
  title,
  streams,
  empty,
  onFollow,
}: {
  id: string;
  title: string;
  streams: ShopStream[];
  empty?: string;
  onFollow?: OnFollow;
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
              <PlatformLinks platforms={platforms} onFollow={(platform) => onFollow?.(platform, card._id)} />
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
export function CurrentShows({ streams, onFollow }: { streams: PublicShop["streams"]; onFollow?: OnFollow }) {
  if (streams.live.length === 0 && streams.upcoming.length === 0) return null;
  return (
    <div className="grid gap-10">
      <StreamGroup id="live-heading" title="Live now" streams={streams.live} onFollow={onFollow} />
      <StreamGroup
        id="upcoming-heading"
        title="Upcoming shows"
        streams={streams.upcoming}
        onFollow={onFollow}
      />
    </div>
  );
}

/** Past shows (their cards lead to the replays), after saying so when nothing is live or coming. */
export function LaterShows({ streams, onFollow }: { streams: PublicShop["streams"]; onFollow?: OnFollow }) {
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
      <StreamGroup
        id="past-heading"
        title="Past shows and replays"
        streams={streams.past}
        onFollow={onFollow}
      />
    </div>
  );
}
