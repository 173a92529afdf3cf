/**
 * The watch list at its limits (issue 8, decision 021; issue 15): a person with 100 saved shows and
 * every active shop followed reads `/watch-list`. Issue 8's budget is the documents one read costs:
 * 3 per saved show (its row, the stream, its shop) and 8 per followed shop (its row, the shop, up to 3
 * live streams, a paused one, the next show, its card), plus the caller's row. Issue 15's is its wall
 * time (scripts/bench/scale.ts): ≤ 50 ms with 10,000 streams, and ≤ 1.5 × its time on a small table.
 */
import { api } from "../../convex/_generated/api";
import type { BackendProcess } from "./backend-process";

const CLERK_ID = "bench_watch_list";
/** The identity the admin key acts as (`ctx.auth` sees its subject, as with a token). */
const IDENTITY = { subject: CLERK_ID, issuer: "bench" };

export type WatchListFill = { saved: number; followed: number };

/** Makes the bench user (once) and fills their watch list to its limits (`benchData:fillWatchList`). */
export async function fillWatchList(backend: BackendProcess): Promise<WatchListFill> {
  return (await backend.runMutation("benchData:fillWatchList", { clerkId: CLERK_ID })) as WatchListFill;
}

/** Reads `watchList:myWatchList` as the bench user; `describe` says what the list holds. */
export async function watchListReader(
  backend: BackendProcess,
): Promise<{ read: () => Promise<unknown>; description: string }> {
  const client = backend.admin(IDENTITY);
  const read = () => client.query(api.watchList.myWatchList, {});
  const list = await read();
  if (!list) throw new Error("The bench user has no watch list.");
  return {
    read,
    description: `live ${list.live.length}, coming up ${list.upcoming.length}, ended ${list.ended.length}`,
  };
}

/** Issue 8's budget for the documents one read of a full watch list costs. */
export function watchListReadBudget({ saved, followed }: WatchListFill): number {
  return 3 * saved + 8 * followed + 1;
}
