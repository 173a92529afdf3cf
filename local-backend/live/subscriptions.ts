/**
 * Query subscriptions shared by all connections: identical subscriptions (same function, arguments,
 * identity and journal) are one computation, run once per change. After writes, a pass re-runs only
 * the computations whose read set (index ranges, ids, tables: read-set.ts) a write landed in, then
 * lets every connection push what changed.
 */
import { convexToJson, type JSONValue, type Value } from "convex/values";
import { stringify } from "safe-stable-stringify";
import { inRootScope } from "../core/root-scope.ts";
import { clientErrorMessage, type CallOptions, type CallOutcome } from "../runtime/call-outcome.ts";
import type { Identity } from "../runtime/execution.ts";
import type { Clock, QueryJournal } from "../core/protocol.ts";
import { ReadSet, WriteSet } from "../storage/read-set.ts";
import type { CommitLog } from "../database/commit-log.ts";

export type QueryResult =
  /** `valueJson`: the result as Convex's JSON text, as the function encoded it. */
  | { success: true; valueJson: string; logLines: string[]; journal: QueryJournal }
  | {
      success: false;
      errorMessage: string;
      errorData?: JSONValue;
      logLines: string[];
      journal: QueryJournal;
    };

/** Anything that shows subscription results to a client (a WebSocket connection). */
export interface Subscriber {
  /** Push changed results; `ts` is the pass's timestamp. */
  pushUpdates(ts: bigint): void;
  /** The computations whose results this subscriber shows. */
  computations(): Iterable<Computation>;
}

/**
 * Which affected query a pass re-runs first. A pass runs them one at a time: they run in this process
 * and wait on nothing but the CPU, so running several together only interleaves them and makes each
 * finish as late as all of them. First comes the one telling the most subscribers per millisecond of
 * its last run (weighted shortest job first, which minimizes the clients' total wait); a query not run
 * yet counts as taking a millisecond.
 */
function passPriority(group: Computation[]): number {
  const refs = group.reduce((sum, c) => sum + c.refs, 0);
  return refs / Math.max(group[0].lastRunMs ?? 1, 0.01);
}

/** JSON with sorted object keys, so equal arguments give equal keys. */
export function stableStringify(value: unknown): string {
  return stringify(value) ?? "null";
}

export function identityKey(identity: Identity | null): string {
  return identity ? stableStringify(identity) : "anonymous";
}

/** A result's modification body (everything after `queryId`), serialized once however many clients get it. */
const encodedResults = new WeakMap<QueryResult, string>();

/**
 * The `QueryUpdated` or `QueryFailed` modification for `queryId`, as JSON text. A failure is told as
 * Convex tells it (a request id per run: a re-run failing alike is not news, `resultKey`).
 */
export function modificationJson(queryId: number, result: QueryResult): string {
  let body = encodedResults.get(result);
  if (body === undefined) {
    body = result.success
      ? `"type":"QueryUpdated","value":${result.valueJson}`
      : `"type":"QueryFailed","errorMessage":${JSON.stringify(clientErrorMessage(result.errorMessage))}${
          result.errorData !== undefined ? `,"errorData":${JSON.stringify(result.errorData)}` : ""
        }`;
    body += `,"logLines":${JSON.stringify(result.logLines)},"journal":${JSON.stringify(result.journal)}`;
    encodedResults.set(result, body);
  }
  return `{"queryId":${queryId},${body}}`;
}

/** What tells two results apart (log lines aside): an equal key sends nothing new. */
function resultKey(result: QueryResult): string {
  return result.success
    ? `${JSON.stringify(result.journal)}:${result.valueJson}`
    : JSON.stringify({ ...result, logLines: undefined });
}

export class Computation {
  refs = 0;
  result: QueryResult | null = null;
  /** Bumped whenever `result` changes. */
  version = 0;
  /** What the last run read; null before the first run. */
  reads: ReadSet | null = null;
  private running: Promise<void> | null = null;
  /**
   * Writes committed while a run was under way (it may have read before them): the run is repeated
   * only if what it read overlaps them, so a query Convex would fail (past its time limit, say) runs
   * once, not again for every unrelated commit meanwhile. `true`: everything (functions reloaded).
   */
  private missed: WriteSet | true | null = null;
  private resultKey = "";
  private journal: QueryJournal;

  constructor(
    private readonly manager: SubscriptionManager,
    readonly key: string,
    /** The key without the identity: computations that differ only in who asks. */
    readonly sharedKey: string,
    readonly udfPath: string,
    private readonly args: Value | Error,
    readonly identity: Identity | null,
    journal: QueryJournal,
    /** Run with an admin key: internal queries too. */
    readonly admin = false,
  ) {
    this.journal = journal;
  }

  /** How long its last run took (null before the first): the pass runs cheap queries first. */
  lastRunMs: number | null = null;

  /** A run is under way. */
  get busy(): boolean {
    return this.running !== null;
  }

  /**
   * Whether `other`'s current result is this one's too: the same query, arguments and journal, and
   * its last run never asked who is calling (so every caller's run would read and return the same).
   */
  canAdopt(other: Computation): boolean {
    return (
      other !== this &&
      other.sharedKey === this.sharedKey &&
      other.result !== null &&
      other.reads !== null &&
      !other.reads.identity &&
      !other.busy &&
      !this.busy
    );
  }

  /** Takes `other`'s result (see `canAdopt`) instead of running. */
  adopt(other: Computation): void {
    this.reads = other.reads;
    this.setResult(other.result!, other.resultKey);
  }

  /**
   * Runs the query (again). A call while a run is under way joins it; the promise settles after the
   * last run, repeated while writes committed meanwhile (`noteWrites`) overlap what it read.
   */
  refresh(): Promise<void> {
    if (this.running) return this.running;
    this.running = (async () => {
      let again: boolean;
      do {
        this.missed = new WriteSet();
        await this.runOnce();
        again = this.missedWhatItRead();
      } while (again);
    })().finally(() => {
      this.running = null;
      this.missed = null;
    });
    return this.running;
  }

  /** Whether writes committed during the run just ended overlap what it read. */
  private missedWhatItRead(): boolean {
    const missed = this.missed;
    return missed === true || (missed !== null && !missed.isEmpty && this.reads!.overlaps(missed));
  }

  /** Writes committed while a run is under way (`all`: every function reloaded): see `missed`. */
  noteWrites(writes: WriteSet, all: boolean): void {
    if (this.missed === null || this.missed === true) return;
    if (all) this.missed = true;
    else this.missed.merge(writes);
  }

  argsValue(): Value | Error {
    return this.args;
  }

  /** The journal to start from if this subscription is re-created (keeps its page boundaries). */
  currentJournal(): QueryJournal {
    return this.journal;
  }

  private async runOnce(): Promise<void> {
    const started = performance.now();
    let result: QueryResult;
    if (this.args instanceof Error) {
      result = { success: false, errorMessage: this.args.message, logLines: [], journal: this.journal };
      this.reads = new ReadSet();
    } else {
      const outcome = await this.manager.run(this.udfPath, this.args, {
        identity: this.identity,
        journal: this.journal,
        publicOnly: !this.admin,
        kind: "query",
      });
      this.reads = outcome.reads;
      if (outcome.journal !== null) this.journal = outcome.journal;
      result = outcome.success
        ? {
            success: true,
            valueJson: outcome.json,
            logLines: outcome.logLines,
            journal: this.journal,
          }
        : {
            success: false,
            errorMessage: outcome.errorMessage,
            ...(outcome.errorData !== undefined ? { errorData: convexToJson(outcome.errorData) } : {}),
            logLines: outcome.logLines,
            journal: this.journal,
          };
    }
    this.setResult(result, resultKey(result));
    this.lastRunMs = performance.now() - started;
  }

  private setResult(result: QueryResult, key: string): void {
    if (this.result === null || key !== this.resultKey) {
      this.resultKey = key;
      this.version += 1;
    }
    this.result = result;
  }
}

export class SubscriptionManager {
  private readonly computations = new Map<string, Computation>();
  /** Computations by shared key (the same query and arguments, any identity). */
  private readonly siblings = new Map<string, Set<Computation>>();
  private readonly subscribers = new Set<Subscriber>();
  private dirty = new WriteSet();
  private allDirty = false;
  private flushing = false;
  private flushAgain = false;
  private idleWaiters: (() => void)[] = [];

  constructor(
    readonly run: (udfPath: string, args: Value, options: CallOptions) => Promise<CallOutcome>,
    readonly clock: Clock,
    /** Each commit's writes: the subscriptions that read any of them re-run in the next pass. */
    commits: CommitLog,
  ) {
    // A commit's timestamp (the log's, on `clock`) is above every pass that has started and below
    // every pass that starts later (each takes its own when it starts), so a client shown a pass at
    // or after it has seen the commit.
    commits.subscribe((writes) => {
      this.dirty.merge(writes);
      this.requestFlush();
    });
  }

  addSubscriber(subscriber: Subscriber): void {
    this.subscribers.add(subscriber);
  }

  removeSubscriber(subscriber: Subscriber): void {
    this.subscribers.delete(subscriber);
  }

  /** Gets (or creates) the shared computation; call `release` when the subscription ends. */
  acquire(
    udfPath: string,
    args: Value | Error,
    identity: Identity | null,
    journal: QueryJournal,
    admin = false,
  ): Computation {
    const argsKey = args instanceof Error ? `error:${args.message}` : stableStringify(convexToJson(args));
    const sharedKey = `${udfPath}|${argsKey}|${journal ?? ""}${admin ? "|admin" : ""}`;
    const key = `${sharedKey}|${identityKey(identity)}`;
    let computation = this.computations.get(key);
    if (!computation) {
      computation = new Computation(this, key, sharedKey, udfPath, args, identity, journal, admin);
      this.computations.set(key, computation);
      let siblings = this.siblings.get(sharedKey);
      if (!siblings) this.siblings.set(sharedKey, (siblings = new Set()));
      siblings.add(computation);
    }
    computation.refs += 1;
    return computation;
  }

  release(computation: Computation): void {
    computation.refs -= 1;
    if (computation.refs <= 0 && this.computations.get(computation.key) === computation) {
      this.computations.delete(computation.key);
      const siblings = this.siblings.get(computation.sharedKey);
      siblings?.delete(computation);
      if (siblings?.size === 0) this.siblings.delete(computation.sharedKey);
    }
  }

  computationCount(): number {
    return this.computations.size;
  }

  /**
   * Ensures the computations have a first result: a sibling's, when one is current and did not ask
   * who is calling (a signed-in viewer of the live board shares the anonymous one's run).
   */
  async ensureComputed(computations: Computation[]): Promise<void> {
    const settled = !this.flushing && this.dirty.isEmpty && !this.allDirty;
    await Promise.all(
      computations
        .filter((c) => c.result === null)
        .map((c) => {
          const sibling = settled ? this.adoptable(c) : undefined;
          if (sibling) {
            c.adopt(sibling);
            return Promise.resolve();
          }
          return c.refresh();
        }),
    );
  }

  private adoptable(computation: Computation): Computation | undefined {
    for (const sibling of this.siblings.get(computation.sharedKey) ?? []) {
      if (computation.canAdopt(sibling)) return sibling;
    }
    return undefined;
  }

  /** Re-run every subscription (functions were reloaded). */
  markAllDirty(): void {
    this.allDirty = true;
  }

  /** Schedules a pass (coalesced). */
  requestFlush(): void {
    if (this.flushing) {
      this.flushAgain = true;
      return;
    }
    this.flushing = true;
    inRootScope(() => setImmediate(() => void this.flushLoop()));
  }

  /** Resolves when no pass is running or pending. */
  async idle(): Promise<void> {
    if (!this.flushing) return;
    await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * Re-runs the affected computations, those shared by the most subscribers first, a few at a time,
   * and tells each subscriber as soon as every computation it shows is current: a client hears about
   * a change when its own queries have re-run, not after everyone's. Computations that differ only in
   * identity run once when the query does not ask who is calling; the others take that result.
   */
  private async pass(ts: bigint, isAffected: (computation: Computation) => boolean): Promise<void> {
    const groups = new Map<string, Computation[]>();
    for (const computation of this.computations.values()) {
      if (!isAffected(computation)) continue;
      const group = groups.get(computation.sharedKey);
      if (group) group.push(computation);
      else groups.set(computation.sharedKey, [computation]);
    }
    const affected = [...groups.values()].sort((a, b) => passPriority(b) - passPriority(a));
    const finished = new Map<Computation, Promise<void>>();
    const settle = new Map<Computation, () => void>();
    for (const group of affected) {
      for (const computation of group) {
        finished.set(computation, new Promise<void>((resolve) => settle.set(computation, resolve)));
      }
    }
    const refresh = async (computation: Computation) => {
      try {
        await computation.refresh();
      } finally {
        settle.get(computation)!();
      }
    };
    const running = (async () => {
      for (const [first, ...rest] of affected) {
        await refresh(first);
        for (const computation of rest) {
          if (computation.canAdopt(first)) {
            computation.adopt(first);
            settle.get(computation)!();
          } else {
            await refresh(computation);
          }
        }
      }
    })();
    await Promise.all(
      [...this.subscribers].map(async (subscriber) => {
        const waits: Promise<void>[] = [];
        for (const computation of subscriber.computations()) {
          const done = finished.get(computation);
          if (done) waits.push(done);
        }
        if (waits.length > 0) await Promise.all(waits);
        try {
          subscriber.pushUpdates(ts);
        } catch (e) {
          console.error("local-backend: failed to push updates", e);
        }
      }),
    );
    await running;
  }

  private async flushLoop(): Promise<void> {
    try {
      do {
        this.flushAgain = false;
        const dirty = this.dirty;
        const all = this.allDirty;
        this.dirty = new WriteSet();
        this.allDirty = false;
        const ts = this.clock.next();
        await this.pass(ts, (c) => {
          // A run under way decides when it ends whether these writes call for another.
          if (c.busy) {
            c.noteWrites(dirty, all);
            return false;
          }
          return all || c.reads === null || c.reads.overlaps(dirty);
        });
      } while (this.flushAgain || !this.dirty.isEmpty || this.allDirty);
    } catch (e) {
      console.error("local-backend: subscription pass failed", e);
    } finally {
      this.flushing = false;
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const resolve of waiters) resolve();
    }
  }
}
