/**
 * Convex's sync protocol over WebSocket (`/api/<clientVersion>/sync`), for the unmodified official
 * clients: the socket server, and each connection's socket, messages and limits. A connection's query
 * set and Transitions are `sync-queries.ts`'s, its mutations and actions (and the reconnect answer
 * cache) `sync-mutations.ts`'s, its caller `sync-auth.ts`'s. See local-backend/README.md (protocol) and
 * `node_modules/convex/src/browser/sync/` for the rules followed.
 */
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocket, WebSocketServer, type RawData } from "ws";
import { refuseUpgrade } from "./access.ts";
import { newRequestId, withRequestContext } from "../core/request-context.ts";
import { inRootScope } from "../core/root-scope.ts";
import { clientErrorMessage, describeError } from "../runtime/call-outcome.ts";
import type { Identity } from "../runtime/execution.ts";
import { requestPathname } from "../core/paths.ts";
import {
  decodeTs,
  MAX_CLIENT_MESSAGE_BYTES,
  MAX_PENDING_OPERATIONS,
  parseClientMessage,
  type ClientMessage,
  type ServerMessage,
} from "../core/protocol.ts";
import type { BackendServices } from "./services.ts";
import { authenticate } from "./sync-auth.ts";
import { MutationAnswers, SyncOperations, type OperationsOwner } from "./sync-mutations.ts";
import { QuerySet, type QuerySetOwner } from "./sync-queries.ts";

export const SYNC_PATH = /^\/api\/[^/]+\/sync\/?$/;
const PING_INTERVAL_MS = 15_000;
/** Convex closes a socket that queued too much work with 1013 ("try again later"); the client reconnects. */
const CLOSE_TRY_AGAIN_LATER = 1013;

export class SyncServer {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: MAX_CLIENT_MESSAGE_BYTES });
  private readonly connections = new Set<SyncConnection>();
  /** Connections are numbered in the order they open, for the log lines about their calls. */
  private opened = 0;
  /** Mutations' answers kept for copies re-sent after a reconnect. */
  readonly mutationAnswers = new MutationAnswers();
  /**
   * The server is stopping (`drain`): mutations received from now on are not run. Their clients hold
   * them unanswered and send them again once they reconnect, to the next start.
   */
  draining = false;

  constructor(readonly services: BackendServices) {}

  /** Mutations re-sent after a reconnect and answered with their first run's answer (`MutationAnswers.resent`). */
  get resentMutations(): number {
    return this.mutationAnswers.resent;
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
        this.opened += 1;
        const connection = new SyncConnection(ws, this, this.services.access.isOperator(req), this.opened);
        this.connections.add(connection);
        ws.once("close", () => this.connections.delete(connection));
      });
    });
    return true;
  }

  connectionCount(): number {
    return this.connections.size;
  }

  /**
   * Stops taking mutations and resolves once every connection's work received before has been answered
   * (its mutations, queries and actions): their clients have what was acknowledged to them.
   */
  async drain(): Promise<void> {
    this.draining = true;
    await Promise.all([...this.connections].map((connection) => connection.settled()));
  }

  /** Queries subscribed, over every connection (a query two clients ask for counts twice). */
  subscriptionCount(): number {
    let count = 0;
    for (const connection of this.connections) count += connection.subscriptionCount();
    return count;
  }

  /** Closes every connection (clients reconnect on their own). Used by tests and on stop. */
  disconnectAll(code = 1001, reason = "Server going away"): void {
    for (const connection of this.connections) connection.close(code, reason);
  }

  async close(): Promise<void> {
    this.mutationAnswers.close();
    this.disconnectAll();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }
}

class SyncConnection implements QuerySetOwner, OperationsOwner {
  /** Null until the client's `Connect`. */
  sessionId: string | null = null;
  identity: Identity | null = null;
  /** Authenticated with the admin key: internal functions too. */
  admin = false;
  closed = false;
  readonly services: BackendServices;
  private readonly queries: QuerySet;
  private readonly operations: SyncOperations;
  private queue: Promise<void> = Promise.resolve();
  /** Mutations received and not yet answered, and actions running: at most MAX_PENDING_OPERATIONS each. */
  private pendingMutations = 0;
  private runningActions = 0;
  /** The actions running, for `settled`. */
  private readonly actions = new Set<Promise<unknown>>();
  private readonly pingTimer: ReturnType<typeof setInterval>;

  constructor(
    private readonly ws: WebSocket,
    private readonly server: SyncServer,
    private readonly fromThisMachine: boolean,
    /** Its number in this process (core/request-context.ts). */
    private readonly number: number,
  ) {
    this.services = server.services;
    this.queries = new QuerySet(this);
    this.operations = new SyncOperations(this, this.queries, server.mutationAnswers);
    this.services.subscriptions.addSubscriber(this.queries);
    this.pingTimer = setInterval(() => this.send({ type: "Ping" }), PING_INTERVAL_MS);
    this.pingTimer.unref();
    ws.on("message", (data: RawData, isBinary: boolean) => {
      try {
        // Each message is a request of its own: what it runs, and a failure the client is told of,
        // carry its id (core/request-context.ts).
        withRequestContext({ requestId: newRequestId(), connection: this.number }, () =>
          this.onMessage(data, isBinary),
        );
      } catch (e) {
        // Nothing a client sends may stop the process: the connection alone ends.
        console.error("local-backend: sync message failed", e);
        this.fatal(e instanceof Error ? e.message : String(e));
      }
    });
    ws.on("close", () => this.onClose());
    ws.on("error", () => this.close(1011, "Socket error"));
  }

  subscriptionCount(): number {
    return this.queries.size;
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
    this.services.subscriptions.removeSubscriber(this.queries);
    this.queries.releaseAll();
  }

  canSend(): boolean {
    return !this.closed && this.ws.readyState === WebSocket.OPEN;
  }

  sendText(text: string): void {
    if (!this.canSend()) return;
    this.ws.send(text);
  }

  send(message: ServerMessage): void {
    if (!this.canSend()) return;
    this.ws.send(JSON.stringify(message));
  }

  fatal(error: string): void {
    this.send({ type: "FatalError", error });
    this.close(1011, "FatalError");
  }

  /** Resolves once the work queued so far and the actions running have finished. */
  async settled(): Promise<void> {
    for (;;) {
      const queue = this.queue;
      await queue;
      await Promise.allSettled([...this.actions]);
      if (queue === this.queue && this.actions.size === 0) return;
    }
  }

  enqueue(task: () => Promise<void>): void {
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
        this.enqueue(() => this.queries.modify(message));
        return;
      case "Authenticate":
        this.enqueue(() => this.authenticate(message));
        return;
      case "Mutation":
        // Not run, not answered: the client sends it again after it reconnects (to the next start).
        if (this.server.draining) return;
        if (this.pendingMutations >= MAX_PENDING_OPERATIONS) {
          this.close(CLOSE_TRY_AGAIN_LATER, "TooManyConcurrentMutations");
          return;
        }
        this.pendingMutations += 1;
        this.operations.receiveMutation(message);
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
          const running = this.operations
            .runAction(message, identity, admin)
            .catch((e: unknown) => {
              console.error("local-backend: action failed", e);
              this.send({
                type: "ActionResponse",
                requestId: message.requestId,
                success: false,
                result: clientErrorMessage(describeError(e).errorMessage),
                logLines: [],
              });
            })
            .finally(() => {
              this.runningActions -= 1;
              this.actions.delete(running);
            });
          this.actions.add(running);
          return Promise.resolve();
        });
        return;
      }
    }
  }

  private async authenticate(message: Extract<ClientMessage, { type: "Authenticate" }>): Promise<void> {
    const caller = await authenticate(this.services, message, this.fromThisMachine);
    if (!caller.ok) {
      this.send({
        type: "AuthError",
        error: caller.error,
        baseVersion: message.baseVersion,
        authUpdateAttempted: true,
      });
      this.close(1000, "AuthError");
      return;
    }
    this.identity = caller.identity;
    this.admin = message.tokenType === "Admin";
    await this.queries.rebind(message.baseVersion + 1);
  }
}
