/**
 * A sync connection's query set: the queries it subscribed to (`ModifyQuerySet`), rebound to a new
 * caller (`Authenticate`), and their results sent as Transitions from one state version to the next,
 * including the Transition a mutation's answer waits for.
 */
import { canonicalizeUdfPath } from "../core/paths.ts";
import {
  decodeArgs,
  encodeVersion,
  MAX_QUERY_SET_SIZE,
  tooManyQueries,
  type AddQuery,
  type ClientMessage,
  type StateVersion,
} from "../core/protocol.ts";
import type { Identity } from "../runtime/execution.ts";
import type { BackendServices } from "./services.ts";
import { modificationJson, type Computation, type Subscriber } from "../live/subscriptions.ts";

/**
 * New queries of one connection run this many at a time, the connection yielding to everyone else
 * between slices: Convex's sync worker runs a query set update 20 at a time (`UPDATE_QUERY_CONCURRENCY`
 * in crates/sync `worker.rs`), and this engine's queries share one thread and one database lock.
 */
const QUERY_SLICE = 20;

type QueryEntry = { comp: Computation; sentComp: Computation | null; sentVersion: number };

/** What a query set needs from its connection (`sync.ts`). */
export interface QuerySetOwner {
  readonly services: BackendServices;
  /** Null until the client's `Connect`: such a socket is told nothing. */
  readonly sessionId: string | null;
  readonly identity: Identity | null;
  readonly admin: boolean;
  readonly closed: boolean;
  fatal(error: string): void;
  /** Whether the socket is open (and the connection not closed). */
  canSend(): boolean;
  sendText(text: string): void;
}

export class QuerySet implements Subscriber {
  private version: StateVersion = { querySet: 0, identity: 0, ts: 0n };
  private readonly queries = new Map<number, QueryEntry>();
  private pendingRemovals: number[] = [];
  /** A Transition reaching this ts is owed (a mutation's response was sent). */
  private pendingTs: bigint | null = null;
  /**
   * The ts of the last subscription pass this client's queries were current in, told or not (a pass
   * with nothing new for it sends nothing, yet its view holds at that ts); never below `version.ts`.
   */
  private currentTs = 0n;
  private readonly services: BackendServices;

  constructor(private readonly connection: QuerySetOwner) {
    this.services = connection.services;
  }

  /** Queries in the set. */
  get size(): number {
    return this.queries.size;
  }

  /** Releases every query (the connection closed). */
  releaseAll(): void {
    for (const entry of this.queries.values()) this.services.subscriptions.release(entry.comp);
    this.queries.clear();
  }

  async modify(message: Extract<ClientMessage, { type: "ModifyQuerySet" }>): Promise<void> {
    if (message.baseVersion !== this.version.querySet) {
      this.connection.fatal(
        `Base version ${message.baseVersion} passed up doesn't match the current version ${this.version.querySet}`,
      );
      return;
    }
    const subscriptions = this.services.subscriptions;
    const queryIds = new Set(this.queries.keys());
    for (const modification of message.modifications) {
      if (modification.type === "Add") queryIds.add(modification.queryId);
      else queryIds.delete(modification.queryId);
    }
    if (queryIds.size > MAX_QUERY_SET_SIZE) {
      this.connection.fatal(tooManyQueries(queryIds.size));
      return;
    }
    const added = new Map<number, Computation>();
    const removed: number[] = [];
    for (const modification of message.modifications) {
      if (modification.type === "Add") {
        const replaced = added.get(modification.queryId);
        if (replaced) subscriptions.release(replaced);
        added.set(modification.queryId, this.acquire(modification));
      } else if (modification.type === "Remove") {
        const pending = added.get(modification.queryId);
        if (pending) {
          subscriptions.release(pending);
          added.delete(modification.queryId);
        } else {
          removed.push(modification.queryId);
        }
      }
    }
    await this.computeInSlices([...added.values()]);
    if (this.connection.closed) {
      for (const comp of added.values()) subscriptions.release(comp);
      return;
    }
    for (const queryId of removed) {
      const entry = this.queries.get(queryId);
      if (!entry) continue;
      subscriptions.release(entry.comp);
      this.queries.delete(queryId);
      this.pendingRemovals.push(queryId);
    }
    for (const [queryId, comp] of added) {
      const previous = this.queries.get(queryId);
      if (previous) subscriptions.release(previous.comp);
      this.queries.set(queryId, { comp, sentComp: null, sentVersion: -1 });
    }
    this.pushTransition({ ...this.version, querySet: message.newVersion }, true);
  }

  /**
   * First results for a connection's new queries, a slice at a time with a turn of the event loop
   * between slices: other connections' reads queue for the database between them instead of behind
   * the whole set. Stops early when the connection closes (the caller releases what it acquired).
   */
  private async computeInSlices(computations: Computation[]): Promise<void> {
    for (let start = 0; start < computations.length && !this.connection.closed; start += QUERY_SLICE) {
      if (start > 0) await new Promise<void>((resolve) => setImmediate(resolve));
      await this.services.subscriptions.ensureComputed(computations.slice(start, start + QUERY_SLICE));
    }
  }

  private acquire(add: AddQuery): Computation {
    const udfPath = canonicalizeUdfPath(add.udfPath);
    return this.services.subscriptions.acquire(
      udfPath,
      decodeArgs(add.args, udfPath),
      this.connection.identity,
      add.journal ?? null,
      this.connection.admin,
    );
  }

  *computations(): Iterable<Computation> {
    for (const entry of this.queries.values()) yield entry.comp;
  }

  /** Called after each subscription pass. */
  pushUpdates(ts: bigint): void {
    if (this.connection.closed || this.connection.sessionId === null) return;
    if (ts > this.currentTs) this.currentTs = ts;
    const owed = this.pendingTs !== null && this.pendingTs <= ts;
    const modifications = this.collectModifications(false);
    if (modifications.length === 0 && !owed) return;
    if (owed) this.pendingTs = null;
    const endVersion = { ...this.version, ts: ts > this.version.ts ? ts : this.version.ts };
    this.sendTransition(endVersion, modifications);
  }

  /** Sends the changed results with `endVersion` (same ts: only pushUpdates advances ts). */
  private pushTransition(endVersion: StateVersion, always: boolean): void {
    const modifications = this.collectModifications(true);
    if (modifications.length === 0 && !always) return;
    this.sendTransition(endVersion, modifications);
  }

  /** The modifications to send, as JSON text (a result is serialized once for all its clients). */
  private collectModifications(includeRemovals: boolean): string[] {
    const modifications: string[] = [];
    if (includeRemovals) {
      for (const queryId of this.pendingRemovals)
        modifications.push(`{"type":"QueryRemoved","queryId":${queryId}}`);
      this.pendingRemovals = [];
    }
    for (const [queryId, entry] of this.queries) {
      const { comp } = entry;
      const result = comp.result;
      if (!result || (entry.sentComp === comp && entry.sentVersion === comp.version)) continue;
      entry.sentComp = comp;
      entry.sentVersion = comp.version;
      modifications.push(modificationJson(queryId, result));
    }
    return modifications;
  }

  private sendTransition(endVersion: StateVersion, modifications: string[]): void {
    if (!this.connection.canSend()) return;
    const start = JSON.stringify(encodeVersion(this.version));
    const end = JSON.stringify(encodeVersion(endVersion));
    this.connection.sendText(
      `{"type":"Transition","startVersion":${start},"endVersion":${end},"modifications":[${modifications.join(",")}]}`,
    );
    this.version = endVersion;
  }

  /**
   * The same queries as the connection's new caller (after `Authenticate`), then a Transition to
   * `identityVersion`.
   */
  async rebind(identityVersion: number): Promise<void> {
    const subscriptions = this.services.subscriptions;
    const rebound = new Map<number, Computation>();
    for (const [queryId, entry] of this.queries) {
      const { comp } = entry;
      rebound.set(
        queryId,
        subscriptions.acquire(
          comp.udfPath,
          comp.argsValue(),
          this.connection.identity,
          comp.currentJournal(),
          this.connection.admin,
        ),
      );
    }
    await this.computeInSlices([...rebound.values()]);
    if (this.connection.closed) {
      for (const comp of rebound.values()) subscriptions.release(comp);
      return;
    }
    for (const [queryId, comp] of rebound) {
      const entry = this.queries.get(queryId);
      if (!entry) {
        subscriptions.release(comp);
        continue;
      }
      subscriptions.release(entry.comp);
      entry.comp = comp;
    }
    this.pushTransition({ ...this.version, identity: identityVersion }, true);
  }

  /**
   * A client resolves a mutation at the first Transition reaching its answer's ts. If a pass that
   * covered the commit has already found this client's queries current (or it shows none), that
   * Transition (empty) goes now; otherwise the next pass that does owes it one.
   */
  resolveWhenCurrent(ts: bigint): void {
    // A socket that never sent Connect is told nothing, as `pushUpdates` tells it nothing.
    if (this.connection.sessionId === null) return;
    if (this.queries.size === 0 && ts > this.currentTs) this.currentTs = ts;
    if (this.currentTs >= ts) {
      this.sendTransition({ ...this.version, ts: this.currentTs }, []);
      return;
    }
    if (this.pendingTs === null || ts > this.pendingTs) this.pendingTs = ts;
    this.services.subscriptions.requestFlush();
  }
}
