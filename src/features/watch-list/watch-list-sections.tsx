import type { ReactNode } from "react";
import { Link } from "react-router-dom";
import { ShopCard } from "@/components/shops/shop-card";
import { PRIORITY_CARDS, StreamCard } from "@/components/streams/stream-card";
import { Button } from "@/components/ui/button";
import { ExternalLink } from "@/components/ui/external-link";
import { Icon } from "@/components/ui/icon";
import { paths } from "@/config/paths";
import { cn } from "@/lib/cn";
import { useNow } from "@/lib/use-now";
import { useViewerTimeZone } from "@/lib/viewer-time-zone";
import { exploreViewSearch } from "@convex/lib/exploreWhen";
import { formatStreamTime } from "@convex/lib/time";
import { downloadAllShowsIcs, downloadOneShowIcs, hasStart } from "./calendar-files";
import { COUNTDOWN_TICK_MS, showCountdown, type Countdown } from "./countdown";
import type { FollowedShop, WatchStream } from "./watch-list-types";

const GRID = "grid gap-x-4 gap-y-6 sm:grid-cols-2 lg:grid-cols-3";

type WatchSectionProps = {
  id: string;
  title: string;
  icon: string;
  /** How many items the section lists, shown beside the heading. */
  count: number;
  description?: string;
  /** A button for the whole section, beside the heading. */
  action?: ReactNode;
  children: ReactNode;
};

/** One part of the watch list: a heading with its count, an optional action, the items. */
export function WatchSection({ id, title, icon, count, description, action, children }: WatchSectionProps) {
  const headingId = `${id}-heading`;
  return (
    <section id={id} aria-labelledby={headingId} className="scroll-mt-24">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="min-w-0">
          <h2 id={headingId} className="flex items-center gap-2 text-2xl font-semibold tracking-tight">
            <Icon name={icon} className="size-6 text-primary-700 dark:text-primary-100" />
            {title}
            {/* Out of the heading's name (the region's name); a list announces its own length. */}
            {count > 0 && (
              <span
                aria-hidden
                className="rounded-full bg-slate-100 px-2 py-0.5 text-sm font-medium text-slate-600 dark:bg-slate-800 dark:text-slate-300"
              >
                {count}
              </span>
            )}
          </h2>
          {description && <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{description}</p>}
        </div>
        {action}
      </div>
      <div className="mt-6">{children}</div>
    </section>
  );
}

/** A section with nothing in it: what would be here, and where to find some. */
function EmptyState({ children, href, linkLabel }: { children: ReactNode; href: string; linkLabel: string }) {
  return (
    <div className="rounded-2xl border border-dashed border-slate-300 px-6 py-8 text-center dark:border-slate-700">
      <p className="text-slate-600 dark:text-slate-300">{children}</p>
      <Link
        to={href}
        className="mt-3 inline-flex items-center gap-1.5 text-sm font-semibold text-primary-700 hover:underline dark:text-primary-100"
      >
        {linkLabel}
        <Icon name="lucide:arrow-right" className="size-4" />
      </Link>
    </div>
  );
}

/** The short line above a card saying why it is listed or when it starts. */
function CardNote({ icon, className, children }: { icon: string; className?: string; children: ReactNode }) {
  return (
    <p className={cn("inline-flex items-center gap-1.5 text-sm font-semibold", className)}>
      <Icon name={icon} className="size-4 shrink-0" />
      {children}
    </p>
  );
}

/** Saved shows live or paused, then the live shows of followed shops. */
export function LiveNowSection({ streams }: { streams: readonly WatchStream[] }) {
  return (
    <WatchSection id="live" title="Live now" icon="lucide:radio" count={streams.length}>
      {streams.length === 0 ? (
        <EmptyState
          href={paths.explore.streams.getHref(exploreViewSearch({ when: "live" }))}
          linkLabel="See who is live"
        >
          None of your saved shows or followed shops is live right now. They appear here the moment they go
          live.
        </EmptyState>
      ) : (
        <ul className={GRID}>
          {streams.map((stream, index) => (
            <li key={stream._id} className="flex flex-col gap-2">
              {stream.saved ? (
                <CardNote icon="lucide:bookmark" className="text-slate-600 dark:text-slate-300">
                  A show you saved
                </CardNote>
              ) : (
                <CardNote icon="lucide:store" className="text-slate-600 dark:text-slate-300">
                  From a shop you follow
                </CardNote>
              )}
              <StreamCard stream={stream} priority={index < PRIORITY_CARDS} />
            </li>
          ))}
        </ul>
      )}
    </WatchSection>
  );
}

const COUNTDOWN_TONES: Record<Countdown["tone"], string> = {
  soon: "text-secondary-700 dark:text-blue-300",
  now: "text-primary-700 dark:text-primary-100",
  late: "text-amber-800 dark:text-amber-200",
};

/** Saved scheduled shows, soonest first, each with a countdown and its own calendar file. */
export function ComingUpSection({ streams }: { streams: readonly WatchStream[] }) {
  const now = useNow(COUNTDOWN_TICK_MS);
  const timed = streams.filter(hasStart);
  return (
    <WatchSection
      id="upcoming"
      title="Coming up"
      icon="lucide:calendar-clock"
      count={streams.length}
      action={
        streams.length > 0 && (
          <Button
            variant="outline"
            disabled={timed.length === 0}
            onClick={() => downloadAllShowsIcs(streams, window.location.origin, Date.now())}
          >
            <Icon name="lucide:calendar-plus" className="size-4" />
            Add all to calendar
          </Button>
        )
      }
    >
      {streams.length === 0 ? (
        <EmptyState href={paths.explore.streams.getHref()} linkLabel="Find upcoming shows">
          No upcoming shows saved yet. Save a show from its page or any card to get a countdown here and add
          it to your calendar.
        </EmptyState>
      ) : (
        <ul className={GRID}>
          {streams.map((stream, index) => {
            const countdown = hasStart(stream) ? showCountdown(stream.streamStartUTC, now) : null;
            return (
              <li key={stream._id} className="flex flex-col gap-2">
                {/* Not a live region: a screen reader would otherwise announce every tick. */}
                {countdown ? (
                  <CardNote icon="lucide:clock" className={COUNTDOWN_TONES[countdown.tone]}>
                    {countdown.label}
                  </CardNote>
                ) : (
                  <CardNote icon="lucide:clock" className="text-slate-600 dark:text-slate-300">
                    Start time to be announced
                  </CardNote>
                )}
                <StreamCard stream={stream} priority={index < PRIORITY_CARDS} />
                {hasStart(stream) && (
                  <Button
                    variant="outline"
                    size="sm"
                    className="self-start"
                    onClick={() => downloadOneShowIcs(stream, window.location.origin, Date.now())}
                  >
                    <Icon name="lucide:calendar-plus" className="size-4" />
                    Add to calendar<span className="sr-only">: {stream.streamTitle}</span>
                  </Button>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </WatchSection>
  );
}

/** Where a followed shop's next show is: live now, the soonest scheduled one, or none planned. */
function NextShow({ next }: { next: FollowedShop["nextStream"] }) {
  const viewerZone = useViewerTimeZone();
  if (!next) {
    return (
      <p className="flex items-center gap-1.5 text-sm text-slate-500 dark:text-slate-400">
        <Icon name="lucide:calendar-x" className="size-4 shrink-0" />
        No show planned
      </p>
    );
  }
  const link = (
    <Link
      to={paths.stream.getHref(next._id)}
      className="font-semibold text-primary-700 hover:underline dark:text-primary-100"
    >
      {next.streamTitle}
    </Link>
  );
  if (next.streamStatus === "LIVE" || next.streamStatus === "PAUSED") {
    return (
      <p className="flex items-start gap-1.5 text-sm">
        <span className="mt-1.5 size-2 shrink-0 animate-pulse rounded-full bg-red-600" aria-hidden />
        <span>
          {next.streamStatus === "LIVE" ? "Live now" : "Paused"}: {link}
        </span>
      </p>
    );
  }
  return (
    <p className="flex items-start gap-1.5 text-sm text-slate-700 dark:text-slate-200">
      <Icon name="lucide:calendar-clock" className="mt-0.5 size-4 shrink-0" />
      <span>
        Next: {link}
        {next.streamStartUTC !== undefined && <>, {formatStreamTime(next.streamStartUTC, viewerZone)}</>}
      </span>
    </p>
  );
}

/** Followed shops by name, each with its next show. */
export function FollowedShopsSection({ shops }: { shops: readonly FollowedShop[] }) {
  return (
    <WatchSection id="shops" title="Shops you follow" icon="lucide:store" count={shops.length}>
      {shops.length === 0 ? (
        <EmptyState href={paths.explore.liveShops.getHref()} linkLabel="Browse live shops">
          You don’t follow any shops yet. Follow a shop to see its next show here and hear when it goes live.
        </EmptyState>
      ) : (
        <ul className={GRID}>
          {shops.map(({ shop, nextStream }) => (
            <li key={shop._id} className="flex flex-col gap-3">
              {/* Cards in a row share a height, so the next-show lines line up under them. */}
              <div className="flex-1">
                <ShopCard shop={shop} />
              </div>
              <div className="rounded-xl bg-slate-50 px-3 py-2 dark:bg-slate-900/60">
                <NextShow next={nextStream} />
              </div>
            </li>
          ))}
        </ul>
      )}
    </WatchSection>
  );
}

/** Saved shows that ended (with the replay when there is one) or were cancelled, latest first. */
export function EndedSection({ streams }: { streams: readonly WatchStream[] }) {
  return (
    <WatchSection
      id="ended"
      title="Ended"
      icon="lucide:circle-play"
      count={streams.length}
      description="Saved shows that are over, with their replays when the seller shares one."
    >
      {streams.length === 0 ? (
        <EmptyState
          href={paths.explore.streams.getHref(exploreViewSearch({ when: "replays" }))}
          linkLabel="Explore replays"
        >
          Shows you saved appear here after they end, so you can catch the replay.
        </EmptyState>
      ) : (
        <ul className={GRID}>
          {streams.map((stream) => (
            <li key={stream._id} className="flex flex-col gap-2">
              <StreamCard stream={stream} />
              {stream.streamStatus === "CANCELLED" ? (
                <CardNote icon="lucide:calendar-x" className="text-slate-600 dark:text-slate-300">
                  Cancelled
                </CardNote>
              ) : stream.replayVideoUrl ? (
                <ExternalLink
                  external
                  href={stream.replayVideoUrl}
                  className="inline-flex items-center gap-1.5 self-start text-sm font-semibold text-primary-700 hover:underline dark:text-primary-100"
                >
                  <Icon name="lucide:square-play" className="size-4" />
                  Watch the replay<span className="sr-only">: {stream.streamTitle}</span>
                </ExternalLink>
              ) : (
                <CardNote icon="lucide:clock" className="font-normal text-slate-500 dark:text-slate-400">
                  No replay yet
                </CardNote>
              )}
            </li>
          ))}
        </ul>
      )}
    </WatchSection>
  );
}
