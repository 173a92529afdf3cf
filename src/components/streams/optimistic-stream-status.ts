import type { OptimisticLocalStore } from "convex/browser";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import type { StreamStatus } from "@convex/lib/constants";
import { timesRecordedByMove } from "@convex/lib/lifecycle";
import type { StreamTimeFields } from "@convex/lib/shownTimes";

/** What the server will write, as far as the screen needs it (convex/lib/lifecycle.ts, checkStreamTransition). */
function withStatus<T extends StreamTimeFields>(stream: T, status: StreamStatus, now: number): T {
  return {
    ...stream,
    streamStatus: status,
    ...timesRecordedByMove(stream.streamStatus, status, stream, now),
  };
}

/**
 * The seller's own status change, shown before the server answers: the dashboard's list and any open
 * stream editor move at once. Convex drops this local layer when the mutation settles, so a refusal
 * puts the old status back by itself.
 */
export function applyStreamStatusLocally(
  store: OptimisticLocalStore,
  { streamId, status }: { streamId: Id<"streams">; status: StreamStatus },
): void {
  const now = Date.now();
  const shops = store.getQuery(api.streams.listMyStreams, {});
  if (shops !== undefined) {
    store.setQuery(
      api.streams.listMyStreams,
      {},
      shops.map((shop) => ({
        ...shop,
        streams: shop.streams.map((stream) =>
          stream._id === streamId ? withStatus(stream, status, now) : stream,
        ),
      })),
    );
  }
  for (const { args, value } of store.getAllQueries(api.streams.getMyStream)) {
    if (value && value._id === streamId)
      store.setQuery(api.streams.getMyStream, args, withStatus(value, status, now));
  }
}
