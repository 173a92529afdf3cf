/**
 * `/api/query_at_ts` (the HTTP client's `consistentQuery`): a query's answer as of a timestamp, or
 * Convex's refusal when that state is no longer known (decision 080). The store keeps only the latest
 * documents, so a query at `ts` is answered (1) with the answer given before for the same query,
 * arguments, caller and `ts` (the state at a past timestamp never changes), else (2) with a run on the
 * latest state when no commit after `ts` wrote into what it read, else (3) refused.
 */
import type { CallOutcome } from "../runtime/call-outcome.ts";
import { HISTORY_WINDOW_NS, type RecentCommits } from "../database/recent-commits.ts";
import { HttpError } from "./http.ts";

/** At most this many answers are kept (for the window's length). */
const MAX_KEPT = 1_000;

/** What Convex answers when the timestamp is outside its snapshots (`ErrorMetadata::out_of_retention`). */
function outOfRetention(): HttpError {
  return new HttpError(500, "InternalServerError", "Your request couldn't be completed. Try again later.");
}

export class QueryAtTs {
  /** Answers given, by timestamp and query; the oldest first. */
  private readonly answers = new Map<string, { ts: bigint; outcome: CallOutcome }>();

  constructor(
    private readonly commits: RecentCommits,
    private readonly latestTs: () => bigint,
  ) {}

  /** `call` runs the query on the latest state; `key` names the query, its arguments and its caller. */
  async run(ts: bigint, key: string, call: () => Promise<CallOutcome>): Promise<CallOutcome> {
    if (ts > this.latestTs()) throw outOfRetention();
    this.forgetOld();
    const answerKey = `${ts}\0${key}`;
    const kept = this.answers.get(answerKey);
    if (kept) return kept.outcome;
    const outcome = await call();
    if (!outcome.success) return outcome;
    if (this.commits.changedSince(ts, outcome.reads) !== false) throw outOfRetention();
    this.answers.set(answerKey, { ts, outcome });
    if (this.answers.size > MAX_KEPT) this.answers.delete(this.answers.keys().next().value!);
    return outcome;
  }

  private forgetOld(): void {
    const oldest = this.latestTs() - HISTORY_WINDOW_NS;
    for (const [key, { ts }] of this.answers) {
      if (ts >= oldest) break;
      this.answers.delete(key);
    }
  }
}
