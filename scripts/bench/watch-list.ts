/**
 * The watch list at its limits (issue 8, decision 021): documents one `/watch-list` read costs for a
 * person with 100 saved shows and every active shop followed, on a backend already holding the 10,000
 * generated streams of scripts/bench/explore.ts. Budget: 3 per saved show (its row, the stream, its
 * shop) and 8 per followed shop (its row, the shop, up to 3 live streams, a paused one, the next show,
 * its card),
 * plus the caller's row. Part of `npm run bench`, run by explore.ts on its backend.
 */
import type { RunningLocalBackend } from "../../local-backend/start";
import { verdict } from "./stats";

const CLERK_ID = "bench_watch_list";

export async function benchmarkWatchList(backend: RunningLocalBackend): Promise<void> {
  const filled = await backend.core.call("benchData:fillWatchList", { clerkId: CLERK_ID }, {});
  if (!filled.success) throw new Error(`Filling the watch list failed: ${filled.errorMessage}`);
  const { saved, followed } = filled.value as { saved: number; followed: number };
  const docsRead = () => backend.stats().functions["watchList:myWatchList"]?.docsRead ?? 0;
  const before = docsRead();
  const started = performance.now();
  const outcome = await backend.core.call(
    "watchList:myWatchList",
    {},
    { identity: { subject: CLERK_ID, tokenIdentifier: `bench|${CLERK_ID}`, issuer: "bench" } },
  );
  const ms = performance.now() - started;
  if (!outcome.success) throw new Error(`Reading the watch list failed: ${outcome.errorMessage}`);
  const reads = docsRead() - before;
  const budget = 3 * saved + 8 * followed + 1;
  const list = outcome.value as { live: unknown[]; upcoming: unknown[]; ended: unknown[] };
  console.log(
    `Watch list at its limits (watchList:myWatchList), ${saved} saved shows, ${followed} shops followed:`,
  );
  console.log(
    `  ${reads} documents read (budget ${budget}: 3 per saved show, 8 per followed shop, 1), ${ms.toFixed(0)} ms;` +
      ` live ${list.live.length}, coming up ${list.upcoming.length}, ended ${list.ended.length}: ${verdict(reads <= budget)}`,
  );
  console.log();
}
