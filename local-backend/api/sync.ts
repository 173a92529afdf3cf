/**
 * Convex's sync protocol over WebSocket (`/api/<clientVersion>/sync`), for the unmodified official
 * clients. See LOCAL-BACKEND.md and `node_modules/convex/src/browser/sync/` for the rules followed.
 */
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { convexToJson, type JSONValue } from "convex/values";
import { WebSocket, WebSocketServer, type RawData } from "ws";
import { refuseUpgrade } from "./access.ts";
import { BAD_ADMIN_KEY, actingAs } from "./admin-key.ts";
import { AuthError } from "./auth.ts";
import { inRootScope } from "../core/root-scope.ts";
import { describeError, type CallOutcome } from "../runtime/call-outcome.ts";
import type { Identity } from "../runtime/execution.ts";
import { canonicalizeUdfPath, requestPathname } from "../core/paths.ts";
import {
  decodeArgs,
  decodeTs,
  encodeTs,
  encodeVersion,
  MAX_CLIENT_MESSAGE_BYTES,
  MAX_PENDING_OPERATIONS,
  MAX_QUERY_SET_SIZE,
  parseClientMessage,
  tooManyQueries,
  type AddQuery,
  type ClientMessage,
  type ServerMessage,
  type StateVersion,
} from "../core/protocol.ts";
import type { BackendServices } from "./services.ts";
import { modificationJson, type Computation, type Subscriber } from "../live/subscriptions.ts";

export const SYNC_PATH = /^\/api\/[^/]+\/sync\/?$/;
const PING_INTERVAL_MS = 15_000;
/**
 * New queries of one connection run this many at a time, the connection yielding to everyone else
 * between slices: Convex's sync worker runs a query set update 20 at a time (`UPDATE_QUERY_CONCURRENCY`
 * in crates/sync `worker.rs`), and this engine's queries share one thread and one database lock.
 */
const QUERY_SLICE = 20;
/** Convex closes a socket that queued too much work with 1013 ("try again later"); the client reconnects. */
const CLOSE_TRY_AGAIN_LATER = 1013;
/**
 * How long a mutation's response is kept in memory for clients re-sending it after a reconnect. A
 * committed one's answer is also in the database, with its commit, for longer (decision 056); this
 * cache answers a copy re-sent while the first still runs, and a failed one's error.
 */
const MUTATION_CACHE_TTL_MS = 10 * 60_000;

type MutationResponse = Extract<ServerMessage, { type: "MutationResponse" }>;

type CachedMutation = { promise: Promise<MutationResponse>; completedAt: number | null };

type QueryEntry = { comp: Computation; sentComp: Computation | null; sentVersion: number };

function failureFields(outcome: CallOutcome & { success: false }): { result: string; errorData?: JSONValue } {
  return {
    result: outcome.errorMessage,
    ...(outcome.errorData !== undefined ? { errorData: convexToJson(outcome.errorData) } : {}),
  };
}

export class SyncServer {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: MAX_CLIENT_MESSAGE_BYTES });
  private readonly connections = new Set<SyncConnection>();
  readonly mutationCache = new Map<string, CachedMutation>();
  /**
   * Mutations re-sent after a reconnect and answered with their first run's answer (from the cache, or
   * recorded in the database) instead of running again.
   */
  resentMutations = 0;
  private readonly sweepTimer: ReturnType<typeof setInterval>;

  constructor(readonly services: BackendServices) {
    this.sweepTimer = inRootScope(() =>
      setInterval(() => {
        const cutoff = Date.now() - MUTATION_CACHE_TTL_MS;
        for (const [key, entry] of this.mutationCache) {
          if (entry.completedAt !== null && entry.completedAt < cutoff) this.mutationCache.delete(key);
        }
      }, 60_000),
    );
    this.sweepTimer.unref();
  }

  /**
   * Takes the upgrade when the path is the sync endpoint (refusing it with 403 when its Host or Origin
   * is not allowed); returns false for other paths.
   */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean {
    const pathname = requestPathname(req.url);
    if (pathname === null || !SYNC_PATH.test(pathname)) return false;
    const access = this.services.access.check(req);
    if (!access.ok) {
      refuseUpgrade(socket, access.message);
      return true;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      inRootScope(() => {
        const connection = new SyncConnection(ws, this, this.services.access.isOperator(req));
        this.connections.add(connection);
        ws.once("close", () => this.connections.delete(connection));
      });
    });
    return true;
  }

  connectionCount(): number {
    return this.connections.size;
  }

  /** Closes every connection (clients reconnect on their own). Used by tests and on stop. */
  disconnectAll(code = 1001, reason = "Server going away"): void {
    for (const connection of this.connections) connection.close(code, reason);
  }

  async close(): Promise<void> {
    clearInterval(this.sweepTimer);
    this.disconnectAll();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }
}

class SyncConnection implements Subscriber {
  private sessionId: string | null = null;
  private version: StateVersion = { querySet: 0, identity: 0, ts: 0n };
  private identity: Identity | null = null;
  /** Authenticated with the admin key: internal functions too. */
  private admin = false;
  private readonly queries = new Map<number, QueryEntry>();
  private pendingRemovals: number[] = [];
  /** A Transition reaching this ts is owed (a mutation's response was sent). */
  private pendingTs: bigint | null = null;
  /**
   * The ts of the last subscription pass this client's queries were current in, told or not (a pass
   * with nothing new for it sends nothing, yet its view holds at that ts); never below `version.ts`.
   */
  private currentTs = 0n;
  private queue: Promise<void> = Promise.resolve();
  /** Mutations received and not yet answered, and actions running: at most MAX_PENDING_OPERATIONS each. */
  private pendingMutations = 0;
  private runningActions = 0;
  private closed = false;
  private readonly pingTimer: ReturnType<typeof setInterval>;
  private readonly services: BackendServices;

  constructor(
    private readonly ws: WebSocket,
    private readonly server: SyncServer,
    private readonly fromThisMachine: boolean,
  ) {
    this.services = server.services;
    this.services.subscriptions.addSubscriber(this);
    this.pingTimer = setInterval(() => this.send({ type: "Ping" }), PING_INTERVAL_MS);
    this.pingTimer.unref();
    ws.on("message", (data: RawData, isBinary: boolean) => {
      try {
        this.onMessage(data, isBinary);
      } catch (e) {
        // Nothing a client sends may stop the process: the connection alone ends.
        console.error("local-backend: sync message failed", e);
        this.fatal(e instanceof Error ? e.message : String(e));
      }
    });
    ws.on("close", () => this.onClose());
    ws.on("error", () => this.close(1011, "Socket error"));
  }

  close(code: number, reason: string): void {
    if (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING) {
      this.ws.close(code, reason);
    }
    this.onClose();
  }

  private onClose(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.pingTimer);
    this.services.subscriptions.removeSubscriber(this);
    for (const entry of this.queries.values()) this.services.subscriptions.release(entry.comp);
    this.queries.clear();
  }

  private send(message: ServerMessage): void {
    if (this.closed || this.ws.readyState !== WebSocket.OPEN) return;
    this.ws.send(JSON.stringify(message));
  }

  private fatal(error: string): void {
    this.send({ type: "FatalError", error });
    this.close(1011, "FatalError");
  }

  private enqueue(task: () => Promise<void>): void {
    this.queue = this.queue.then(task).catch((e: unknown) => {
      console.error("local-backend: sync error", e);
      this.fatal(e instanceof Error ? e.message : String(e));
    });
  }

  private onMessage(data: RawData, isBinary: boolean): void {
    if (this.closed) return;
    if (isBinary) {
      this.fatal("Invalid message: binary frames are not part of the sync protocol");
      return;
    }
    const text = Buffer.isBuffer(data)
      ? data.toString("utf8")
      : Array.isArray(data)
        ? Buffer.concat(data).toString("utf8")
        : Buffer.from(data).toString("utf8");
    const parsed = parseClientMessage(text);
    if (!parsed.ok) {
      this.fatal(parsed.error);
      return;
    }
    const message = parsed.message;
    switch (message.type) {
      case "Connect":
        this.sessionId = message.sessionId;
        if (message.maxObservedTimestamp !== undefined) {
          let observed: bigint;
          try {
            observed = decodeTs(message.maxObservedTimestamp);
          } catch {
            this.fatal("Invalid message at `maxObservedTimestamp`: not a timestamp");
            return;
          }
          this.services.clock.observe(observed);
        }
        return;
      case "Event":
        return;
      case "ModifyQuerySet":
        this.enqueue(() => this.modifyQuerySet(message));
        return;
      case "Authenticate":
        this.enqueue(() => this.authenticate(message));
        return;
      case "Mutation":
        if (this.pendingMutations >= MAX_PENDING_OPERATIONS) {
          this.close(CLOSE_TRY_AGAIN_LATER, "TooManyConcurrentMutations");
          return;
        }
        this.pendingMutations += 1;
        this.receiveMutation(message);
        // The connection's queue runs in order: this runs once that mutation has been answered.
        this.enqueue(() => {
          this.pendingMutations -= 1;
          return Promise.resolve();
        });
        return;
      case "Action": {
        if (this.runningActions >= MAX_PENDING_OPERATIONS) {
          this.close(CLOSE_TRY_AGAIN_LATER, "TooManyInflightActionsForSingleClient");
          return;
        }
        this.runningActions += 1;
        // Started in order with the other messages (so it sees the identity set before it), not awaited.
        this.enqueue(() => {
          const { identity, admin } = this;
          this.runAction(message, identity, admin)
            .catch((e: unknown) => {
              console.error("local-backend: action failed", e);
              this.send({
                type: "ActionResponse",
                requestId: message.requestId,
                success: false,
                result: describeError(e).errorMessage,
                logLines: [],
              });
            })
            .finally(() => (this.runningActions -= 1));
          return Promise.resolve();
        });
        return;
      }
    }
  }

  // -- Queries -----------------------------------------------------------------------------

  private async modifyQuerySet(message: Extract<ClientMessage, { type: "ModifyQuerySet" }>): Promise<void> {
    if (message.baseVersion !== this.version.querySet) {
      this.fatal(
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
      this.fatal(tooManyQueries(queryIds.size));
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
    if (this.closed) {
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
    for (let start = 0; start < computations.length && !this.closed; start += QUERY_SLICE) {
      if (start > 0) await new Promise<void>((resolve) => setImmediate(resolve));
      await this.services.subscriptions.ensureComputed(computations.slice(start, start + QUERY_SLICE));
    }
  }

  private acquire(add: AddQuery): Computation {
    const udfPath = canonicalizeUdfPath(add.udfPath);
    return this.services.subscriptions.acquire(
      udfPath,
      decodeArgs(add.args, udfPath),
      this.identity,
      add.journal ?? null,
      this.admin,
    );
  }

  *computations(): Iterable<Computation> {
    for (const entry of this.queries.values()) yield entry.comp;
  }

  /** Called after each subscription pass. */
  pushUpdates(ts: bigint): void {
    if (this.closed || this.sessionId === null) return;
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
    if (this.closed || this.ws.readyState !== WebSocket.OPEN) return;
    const start = JSON.stringify(encodeVersion(this.version));
    const end = JSON.stringify(encodeVersion(endVersion));
    this.ws.send(
      `{"type":"Transition","startVersion":${start},"endVersion":${end},"modifications":[${modifications.join(",")}]}`,
    );
    this.version = endVersion;
  }

  // -- Auth --------------------------------------------------------------------------------

  private async authenticate(message: Extract<ClientMessage, { type: "Authenticate" }>): Promise<void> {
    let identity: Identity | null = null;
    if (message.tokenType === "User") {
      try {
        identity = (await this.services.auth.verify(message.value ?? "")).identity;
      } catch (e) {
        this.send({
          type: "AuthError",
          error: e instanceof AuthError ? e.message : `Authentication failed: ${String(e)}`,
          baseVersion: message.baseVersion,
          authUpdateAttempted: true,
        });
        this.close(1000, "AuthError");
        return;
      }
    } else if (message.tokenType === "Admin") {
      let refusal: string | null = null;
      if (!this.fromThisMachine) refusal = "The admin key is accepted from this machine only.";
      else if (!this.services.adminKey.matches(message.value ?? "")) refusal = BAD_ADMIN_KEY;
      else if (message.impersonating !== undefined) {
        try {
          identity = actingAs(message.impersonating);
        } catch (e) {
          refusal = `The identity to act as is not valid: ${e instanceof Error ? e.message : String(e)}`;
        }
      }
      if (refusal !== null) {
        this.send({
          type: "AuthError",
          error: refusal,
          baseVersion: message.baseVersion,
          authUpdateAttempted: true,
        });
        this.close(1000, "AuthError");
        return;
      }
    }
    const subscriptions = this.services.subscriptions;
    this.identity = identity;
    this.admin = message.tokenType === "Admin";
    const rebound = new Map<number, Computation>();
    for (const [queryId, entry] of this.queries) {
      const { comp } = entry;
      rebound.set(
        queryId,
        subscriptions.acquire(comp.udfPath, comp.argsValue(), identity, comp.currentJournal(), this.admin),
      );
    }
    await this.computeInSlices([...rebound.values()]);
    if (this.closed) {
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
    this.pushTransition({ ...this.version, identity: message.baseVersion + 1 }, true);
  }

  // -- Mutations and actions ---------------------------------------------------------------

  private receiveMutation(message: Extract<ClientMessage, { type: "Mutation" }>): void {
    const cache = this.server.mutationCache;
    const key = this.sessionId === null ? null : `${this.sessionId}:${message.requestId}`;
    const existing = key === null ? undefined : cache.get(key);
    // Registered on receipt, so a copy re-sent on a new socket waits for this one instead of running.
    const entry: CachedMutation & { settle?: (response: MutationResponse) => void } = existing ?? {
      promise: Promise.resolve(null as unknown as MutationResponse),
      completedAt: null,
    };
    if (existing) {
      this.server.resentMutations += 1;
    } else {
      entry.promise = new Promise<MutationResponse>((resolve) => (entry.settle = resolve));
      if (key !== null) cache.set(key, entry);
    }
    this.enqueue(async () => {
      if (entry.settle) {
        const settle = entry.settle;
        entry.settle = undefined;
        // Settled whatever the run ends with, so a copy re-sent after a reconnect gets the same answer.
        let response: MutationResponse;
        try {
          response = await this.runMutation(message);
        } catch (e) {
          console.error("local-backend: mutation failed", e);
          response = {
            type: "MutationResponse",
            requestId: message.requestId,
            success: false,
            result: describeError(e).errorMessage,
            logLines: [],
          };
        }
        settle(response);
        entry.completedAt = Date.now();
      }
      const response = await entry.promise;
      // The subscriptions' new results, released by the same flush to disk, go out first: the
      // mutating client does not need its answer before the others their news (decision 049).
      await new Promise<void>((resolve) => setImmediate(resolve));
      this.send(response);
      if (response.success) this.resolveWhenCurrent(decodeTs(response.ts));
    });
  }

  /**
   * A client resolves a mutation at the first Transition reaching its answer's ts. If a pass that
   * covered the commit has already found this client's queries current (or it shows none), that
   * Transition (empty) goes now; otherwise the next pass that does owes it one.
   */
  private resolveWhenCurrent(ts: bigint): void {
    // A socket that never sent Connect is told nothing, as `pushUpdates` tells it nothing.
    if (this.sessionId === null) return;
    if (this.queries.size === 0 && ts > this.currentTs) this.currentTs = ts;
    if (this.currentTs >= ts) {
      this.sendTransition({ ...this.version, ts: this.currentTs }, []);
      return;
    }
    if (this.pendingTs === null || ts > this.pendingTs) this.pendingTs = ts;
    this.services.subscriptions.requestFlush();
  }

  private async runMutation(
    message: Extract<ClientMessage, { type: "Mutation" }>,
  ): Promise<MutationResponse> {
    const args = decodeArgs(message.args, message.udfPath);
    if (args instanceof Error) {
      return {
        type: "MutationResponse",
        requestId: message.requestId,
        success: false,
        result: args.message,
        logLines: [],
      };
    }
    const outcome = await this.services.call(message.udfPath, args, {
      identity: this.identity,
      publicOnly: !this.admin,
      kind: "mutation",
      ...(this.sessionId === null
        ? {}
        : { sessionRequest: { sessionId: this.sessionId, requestId: message.requestId } }),
    });
    // A replay ran nothing: its log lines (the first run's) were printed when it ran.
    if (outcome.replayed) this.server.resentMutations += 1;
    else this.services.printLogs(outcome.udfPath, outcome.logLines);
    if (!outcome.success) {
      return {
        type: "MutationResponse",
        requestId: message.requestId,
        success: false,
        logLines: outcome.logLines,
        ...failureFields(outcome),
      };
    }
    // The writes were reported at the commit, so the affected subscriptions re-ran while it was being
    // flushed to disk (decision 041). The answer names the commit's timestamp: every pass that started
    // after the commit has a later one, so the first Transition of such a pass resolves the mutation
    // on the client (decision 049). A mutation that wrote nothing takes one now, and so does a replay
    // (decision 056): its first run committed before it was read back, so every pass from now on
    // covers it, whereas that run's timestamp, from before a restart, may be ahead of this clock.
    const ts = outcome.commitTs ?? this.services.clock.next();
    return {
      type: "MutationResponse",
      requestId: message.requestId,
      success: true,
      result: convexToJson(outcome.value),
      ts: encodeTs(ts),
      logLines: outcome.logLines,
    };
  }

  private async runAction(
    message: Extract<ClientMessage, { type: "Action" }>,
    identity: Identity | null,
    admin: boolean,
  ): Promise<void> {
    const args = decodeArgs(message.args, message.udfPath);
    if (args instanceof Error) {
      this.send({
        type: "ActionResponse",
        requestId: message.requestId,
        success: false,
        result: args.message,
        logLines: [],
      });
      return;
    }
    const outcome = await this.services.call(message.udfPath, args, {
      identity,
      publicOnly: !admin,
      kind: "action",
    });
    this.services.printLogs(outcome.udfPath, outcome.logLines);
    this.send(
      outcome.success
        ? {
            type: "ActionResponse",
            requestId: message.requestId,
            success: true,
            result: convexToJson(outcome.value),
            logLines: outcome.logLines,
          }
        : {
            type: "ActionResponse",
            requestId: message.requestId,
            success: false,
            logLines: outcome.logLines,
            ...failureFields(outcome),
          },
    );
  }
}
