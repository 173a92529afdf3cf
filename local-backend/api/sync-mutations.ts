/**
 * A sync connection's mutations and actions, run as its caller and answered, and the reconnect answer
 * cache: a mutation re-sent after a reconnect waits for, or gets, its first run's answer.
 */
import { convexToJson, type JSONValue } from "convex/values";
import { inRootScope } from "../core/root-scope.ts";
import { clientErrorMessage, describeError, type CallOutcome } from "../runtime/call-outcome.ts";
import type { Identity } from "../runtime/execution.ts";
import { decodeArgs, decodeTs, encodeTs, type ClientMessage, type ServerMessage } from "../core/protocol.ts";
import type { BackendServices } from "./services.ts";
import type { QuerySet } from "./sync-queries.ts";

/**
 * How long a mutation's response is kept in memory for clients re-sending it after a reconnect. A
 * committed one's answer is also in the database, with its commit, for longer (decision 056); this
 * cache answers a copy re-sent while the first still runs, and a failed one's error.
 */
const MUTATION_CACHE_TTL_MS = 10 * 60_000;

type MutationResponse = Extract<ServerMessage, { type: "MutationResponse" }>;

type CachedMutation = { promise: Promise<MutationResponse>; completedAt: number | null };

function failureFields(outcome: CallOutcome & { success: false }): { result: string; errorData?: JSONValue } {
  return {
    result: clientErrorMessage(outcome.errorMessage),
    ...(outcome.errorData !== undefined ? { errorData: convexToJson(outcome.errorData) } : {}),
  };
}

/** Mutation answers by session and request id, for copies re-sent after a reconnect. */
export class MutationAnswers {
  readonly cache = new Map<string, CachedMutation>();
  /**
   * Mutations re-sent after a reconnect and answered with their first run's answer (from the cache, or
   * recorded in the database) instead of running again.
   */
  resent = 0;
  private readonly sweepTimer: ReturnType<typeof setInterval>;

  constructor() {
    this.sweepTimer = inRootScope(() =>
      setInterval(() => {
        const cutoff = Date.now() - MUTATION_CACHE_TTL_MS;
        for (const [key, entry] of this.cache) {
          if (entry.completedAt !== null && entry.completedAt < cutoff) this.cache.delete(key);
        }
      }, 60_000),
    );
    this.sweepTimer.unref();
  }

  close(): void {
    clearInterval(this.sweepTimer);
  }
}

/** What a connection's mutations and actions need from it (`sync.ts`). */
export interface OperationsOwner {
  readonly services: BackendServices;
  readonly sessionId: string | null;
  readonly identity: Identity | null;
  readonly admin: boolean;
  /** Runs `task` after the connection's earlier messages (mutations answer in order). */
  enqueue(task: () => Promise<void>): void;
  send(message: ServerMessage): void;
}

export class SyncOperations {
  private readonly services: BackendServices;

  constructor(
    private readonly connection: OperationsOwner,
    private readonly queries: QuerySet,
    private readonly answers: MutationAnswers,
  ) {
    this.services = connection.services;
  }

  receiveMutation(message: Extract<ClientMessage, { type: "Mutation" }>): void {
    const cache = this.answers.cache;
    const { sessionId } = this.connection;
    const key = sessionId === null ? null : `${sessionId}:${message.requestId}`;
    const existing = key === null ? undefined : cache.get(key);
    // Registered on receipt, so a copy re-sent on a new socket waits for this one instead of running.
    const entry: CachedMutation & { settle?: (response: MutationResponse) => void } = existing ?? {
      promise: Promise.resolve(null as unknown as MutationResponse),
      completedAt: null,
    };
    if (existing) {
      this.answers.resent += 1;
    } else {
      entry.promise = new Promise<MutationResponse>((resolve) => (entry.settle = resolve));
      if (key !== null) cache.set(key, entry);
    }
    this.connection.enqueue(async () => {
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
            result: clientErrorMessage(describeError(e).errorMessage),
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
      this.connection.send(response);
      if (response.success) this.queries.resolveWhenCurrent(decodeTs(response.ts));
    });
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
        result: clientErrorMessage(args.message),
        logLines: [],
      };
    }
    const outcome = await this.services.call(message.udfPath, args, {
      identity: this.connection.identity,
      publicOnly: !this.connection.admin,
      kind: "mutation",
      ...(this.connection.sessionId === null
        ? {}
        : { sessionRequest: { sessionId: this.connection.sessionId, requestId: message.requestId } }),
    });
    // A replay ran nothing: its log lines (the first run's) were printed when it ran.
    if (outcome.replayed) this.answers.resent += 1;
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

  async runAction(
    message: Extract<ClientMessage, { type: "Action" }>,
    identity: Identity | null,
    admin: boolean,
  ): Promise<void> {
    const args = decodeArgs(message.args, message.udfPath);
    if (args instanceof Error) {
      this.connection.send({
        type: "ActionResponse",
        requestId: message.requestId,
        success: false,
        result: clientErrorMessage(args.message),
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
    this.connection.send(
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
