/** What the protocol layers (sync, HTTP) need from the backend. */
import type { Value } from "convex/values";
import type { AccessPolicy } from "./access.ts";
import type { AdminKey } from "./admin-key.ts";
import type { LocalAuth } from "./auth.ts";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { FileUrls } from "./file-urls.ts";
import type { CallOptions, CallOutcome } from "../runtime/call-outcome.ts";
import type { Identity } from "../runtime/execution.ts";
import type { StoredFile, StoreOptions } from "../runtime/storage-syscalls.ts";
import type { Clock } from "../core/protocol.ts";
import type { SubscriptionManager } from "../live/subscriptions.ts";
import type { QueryAtTs } from "./query-at-ts.ts";

/** An admin endpoint of the Convex CLI (`cli/cli-api.ts` provides them; HTTP checks the admin key first). */
export type CliHandler = (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<void>;

export interface BackendServices {
  /** Runs a function on the current engine (waits while functions reload). */
  call(udfPath: string, args: Value, options: CallOptions): Promise<CallOutcome>;
  /**
   * Runs an HTTP action from `convex/http.ts`; an Error for the identity (a refused token) is thrown by
   * the action's `ctx.auth.getUserIdentity()`, as on Convex.
   */
  fetchHttp(pathAndQuery: string, init: RequestInit, identity: Identity | Error | null): Promise<Response>;
  /**
   * Whether a local sign-in token may be issued to `address` now: the functions' own rate limit
   * (`localAuth:limitSignIn`) when they have one.
   */
  allowSignIn(address: string): Promise<{ ok: true } | { ok: false; retryAfterMs: number }>;
  /** Prints a client call's log lines when the backend is told to. */
  printLogs(udfPath: string, logLines: string[]): void;
  /**
   * Stores an uploaded file in a component (its upload URL's), refused when it does not match the
   * `Digest` sent; resolves with its storage id once it is on disk.
   */
  storeUpload(bytes: Uint8Array, contentType: string | null, options: StoreOptions): Promise<string>;
  /** A stored file of a component, or null. */
  storedFile(storageId: string, component: string): StoredFile | null;
  readonly fileUrls: FileUrls;
  readonly auth: LocalAuth;
  /** The admin key (`npx convex` against this backend), accepted from this machine only. */
  readonly adminKey: AdminKey;
  /** Which Host and Origin headers are answered (checked on every request and upgrade). */
  readonly access: AccessPolicy;
  readonly clock: Clock;
  /** The Convex CLI's endpoints (cli/cli-api.ts), by method and path; null when there is none. */
  readonly cli: { route(method: string, pathname: string): CliHandler | null };
  readonly subscriptions: SubscriptionManager;
  /** `/api/query_at_ts`'s answers (query-at-ts.ts). */
  readonly queryAtTs: QueryAtTs;
}
