/**
 * The request a piece of work belongs to (decision 094): an HTTP request's id (its `X-Request-Id`), or a
 * sync message's, with the connection it came on. The id is the one a client is shown in a failed
 * call's `[Request ID: …] Server Error` and in the server's log lines about it, so an operator finds
 * the one from the other. Work started outside any request (timers, subscription passes: root-scope.ts)
 * has none.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { randomBytes } from "node:crypto";
import { processWide } from "./process-wide.ts";

export type RequestContext = {
  requestId: string;
  /** The sync connection the message came on (its number in this process), for a socket's calls. */
  connection?: number;
};

const storage = processWide("requestContext", () => new AsyncLocalStorage<RequestContext>());

/** Runs `work` (and whatever it starts and awaits) as part of `context`. */
export function withRequestContext<T>(context: RequestContext, work: () => T): T {
  return storage.run(context, work);
}

/** The request the running work belongs to, if any. */
export function currentRequest(): RequestContext | undefined {
  return storage.getStore();
}

/** Random bytes drawn 4 KiB at a time: `randomBytes(8)` per request cost 18 µs, more than the rest of its bookkeeping. */
let pool = Buffer.alloc(0);
let offset = 0;

/** A new request id in Convex's form: 16 hex digits. */
export function newRequestId(): string {
  if (offset + 8 > pool.length) {
    pool = randomBytes(4096);
    offset = 0;
  }
  offset += 8;
  return pool.toString("hex", offset - 8, offset);
}

/** An id a trusted proxy sent (`X-Request-Id`): short, of characters safe in a log line and a header. */
export function isAcceptableRequestId(value: string): boolean {
  return /^[A-Za-z0-9._-]{1,64}$/.test(value);
}
