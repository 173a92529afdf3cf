/**
 * The commits' publication: each committed transaction's writes are published here once, by the
 * transaction layer, with the timestamp the commit is known by; whoever needs to hear of commits
 * (the subscriptions) subscribes. Convex's write log plays this part for its subscription worker.
 */
import type { Clock } from "../core/protocol.ts";
import type { WriteSet } from "../storage/read-set.ts";

export type CommitListener = (writes: WriteSet, ts: bigint) => void;

/** Hears how long a commit took to be on disk, from its COMMIT to its WAL flushed (ms). */
export type DurableListener = (ms: number) => void;

export class CommitLog {
  private readonly listeners = new Set<CommitListener>();
  private readonly durableListeners = new Set<DurableListener>();

  /** `clock` times the commits: the same clock times the subscription passes that cover them. */
  constructor(private readonly clock: Clock) {}

  /** Calls `listener` with every commit from now on; returns what stops it. */
  subscribe(listener: CommitListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Publishes a commit's writes (not empty); returns its timestamp, above every one handed out
   * before, so a pass that starts later (and takes a later one) covers it.
   */
  publish(writes: WriteSet): bigint {
    const ts = this.clock.next();
    for (const listener of this.listeners) listener(writes, ts);
    return ts;
  }

  /** Calls `listener` with each commit's time to disk from now on (the metrics); returns what stops it. */
  timeCommits(listener: DurableListener): () => void {
    this.durableListeners.add(listener);
    return () => this.durableListeners.delete(listener);
  }

  /** A commit that wrote something is on disk, `ms` after its COMMIT began (the transaction layer). */
  durable(ms: number): void {
    for (const listener of this.durableListeners) listener(ms);
  }
}
