import type { ReactNode } from "react";
import type { ShopStatus, StreamStatus } from "@convex/lib/constants";
import type { Actor } from "@convex/lib/lifecycle";
import { shownEnd, shownStart } from "@convex/lib/shownTimes";
import { StreamRow, type StreamRowData } from "./stream-row";

export type ShopWithStreams = {
  liveShopId: string;
  status: ShopStatus;
  /** Off public surfaces because of the owner's account, whatever the shop's status. */
  hiddenFromPublic?: boolean;
  streams: StreamRowData[];
};
type Listed = { stream: StreamRowData; shopStatus: ShopStatus; hiddenFromPublic: boolean };

const byStart = (a: Listed, b: Listed) => shownStart(a.stream) - shownStart(b.stream);
const latestFirst = (a: Listed, b: Listed) => shownEnd(b.stream) - shownEnd(a.stream);

const GROUPS: { title: string; statuses: StreamStatus[]; order?: (a: Listed, b: Listed) => number }[] = [
  { title: "Live now", statuses: ["LIVE", "PAUSED"], order: byStart },
  { title: "Upcoming", statuses: ["SCHEDULED"], order: byStart },
  { title: "Drafts", statuses: ["CREATED"] },
  { title: "Ended and cancelled", statuses: ["ENDED", "CANCELLED"], order: latestFirst },
];

type StreamGroupsProps = {
  shops: ShopWithStreams[];
  actor: Actor;
  actions?: (stream: StreamRowData) => ReactNode;
  /** Shows only the latest few ended shows, with a link to the rest. */
  endedLimit?: number;
  moreEnded?: ReactNode;
};

/** The seller's streams across shops, grouped live now / upcoming / drafts / ended, each with its controls. */
export function StreamGroups({ shops, actor, actions, endedLimit, moreEnded }: StreamGroupsProps) {
  const listed = shops.flatMap((shop) =>
    shop.streams.map((stream) => ({
      stream,
      shopStatus: shop.status,
      hiddenFromPublic: shop.hiddenFromPublic ?? false,
    })),
  );
  return (
    <div className="space-y-8">
      {GROUPS.map((group) => {
        const all = listed.filter(({ stream }) => group.statuses.includes(stream.streamStatus));
        if (all.length === 0) return null;
        const sorted = group.order ? [...all].sort(group.order) : all;
        const limited = group.statuses.includes("ENDED") && endedLimit !== undefined;
        const shown = limited ? sorted.slice(0, endedLimit) : sorted;
        return (
          <section key={group.title} aria-label={group.title}>
            <h3 className="text-sm font-semibold uppercase tracking-wide text-slate-500 dark:text-slate-400">
              {group.title} <span className="font-normal">({all.length})</span>
            </h3>
            <ul className="mt-2 divide-y divide-slate-200 rounded-2xl border border-slate-200 dark:divide-slate-800 dark:border-slate-800">
              {shown.map(({ stream, shopStatus, hiddenFromPublic }) => (
                <StreamRow
                  key={stream._id}
                  stream={stream}
                  actor={actor}
                  shopStatus={shopStatus}
                  hiddenFromPublic={hiddenFromPublic}
                  actions={actions?.(stream)}
                />
              ))}
            </ul>
            {limited && sorted.length > shown.length && <div className="mt-2 text-sm">{moreEnded}</div>}
          </section>
        );
      })}
    </div>
  );
}
