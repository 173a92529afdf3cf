/**
 * The write sets of the last seconds' commits, by timestamp: whether anything a read depends on was
 * written after a given timestamp (`/api/query_at_ts`, decision 080). The documents' past versions are
 * not kept; Convex keeps its snapshots for a window of the same length (`MAX_TRANSACTION_WINDOW`).
 */
import type { ReadSet, WriteSet } from "../storage/read-set.ts";
import type { CommitLog } from "./commit-log.ts";

/** Convex's `MAX_TRANSACTION_WINDOW`: how far back a read at a timestamp may go. */
export const HISTORY_WINDOW_NS = 10_000_000_000n;

export class RecentCommits {
  private readonly commits: { ts: bigint; writes: WriteSet }[] = [];
  /** Commits before this timestamp are not known (forgotten, or before this backend started). */
  private horizon = BigInt(Date.now()) * 1_000_000n;
  private readonly unsubscribe: () => void;

  constructor(log: CommitLog) {
    this.unsubscribe = log.subscribe((writes, ts) => {
      this.commits.push({ ts, writes });
      let drop = 0;
      while (drop < this.commits.length - 1 && ts - this.commits[drop + 1].ts > HISTORY_WINDOW_NS) drop += 1;
      if (drop > 0) this.horizon = this.commits.splice(0, drop)[drop - 1].ts;
    });
  }

  /**
   * Whether a commit after `ts` wrote into `reads` (so a read now does not show the state at `ts`);
   * null when that is no longer known (`ts` is before the commits kept).
   */
  changedSince(ts: bigint, reads: ReadSet): boolean | null {
    if (ts < this.horizon) return null;
    for (let i = this.commits.length - 1; i >= 0 && this.commits[i].ts > ts; i--) {
      if (reads.overlaps(this.commits[i].writes)) return true;
    }
    return false;
  }

  stop(): void {
    this.unsubscribe();
  }
}
