/**
 * What the backend's thread and an isolate (a worker thread running user code) say to each other, and
 * how an error crosses between them. Both sides import this file.
 */
import { inspect } from "node:util";
import { ConvexError, type Value } from "convex/values";
import type { IndexDefinition } from "../../database/index-catalog.ts";
import type { QueryJson } from "../../database/index-range.ts";
import type { TransactionLimits } from "../../values/limits.ts";

/** Convex's limit on a query's or mutation's own execution (`DATABASE_UDF_USER_TIMEOUT`, knobs.rs). */
export const QUERY_MUTATION_TIMEOUT_MS = 1000;

/** Convex's isolate heap (`ISOLATE_MAX_USER_HEAP_SIZE`, 64 MiB, knobs.rs), as its error says it. */
export const USER_HEAP_MB = 64;

/** Convex's words when an isolate runs out of memory (`OutOfMemoryError`, crates/isolate/src/termination.rs). */
export const OUT_OF_MEMORY_MESSAGE = `JavaScript execution ran out of memory (maximum memory usage: ${USER_HEAP_MB} MB)`;

/**
 * The largest body of an HTTP action's request or response (Convex's `HTTP_ACTION_BODY_LIMIT`): bodies
 * cross between threads whole, read up to this.
 */
export const HTTP_ACTION_BODY_BYTES = 20 * 1024 * 1024;

/**
 * The engine's own syscalls for an isolate's query streams (not Convex's), so that a query costs one
 * crossing, not three: a stream opened with its first results read ahead (`syscall`, answering
 * `{queryId, ahead}`, `ahead` as `queryStreamNext` answers), the next result of a stream and results
 * read ahead of it (`jsSyscall`), and how many of those the function has consumed and which streams it
 * has closed (`syscall`), which the backend's thread applies to the streams (their read sets, their
 * counts against the limits) before it handles the message that carries them. An isolate answers
 * `queryCleanup` itself: the stream's end goes with the call's next message.
 */
export const OPEN_STREAM = "livelocal/queryStreamOpen";
export const READ_AHEAD = "livelocal/queryStreamReadAhead";
export const CONSUMED = "livelocal/queryStreamsConsumed";

/**
 * Per query stream of a call (its id), how many results read ahead the function has consumed in all,
 * and `true` once the function has closed it (`queryCleanup`).
 */
export type Consumed = [queryId: number, total: number, closed?: true][];

/**
 * What a query or mutation may read in its isolate itself, without a crossing (decision 092): the
 * database file, at the snapshot its transaction sees, until its first syscall that crosses. Given
 * with a call that has read nothing yet.
 */
export type LocalGrant = {
  file: string;
  component: string;
  /** `getUserIdentity`'s answer, as its JSON text. */
  identity: string;
  limits: TransactionLimits;
  /** The version of the component's database indexes; `indexes` when the isolate may not have them. */
  catalogVersion: number;
  indexes?: IndexDefinition[];
};

/** A query stream an isolate read itself: its table, what it read, and whether it is still open. */
export type LocalStreamReport = {
  table: string;
  /** Its read range (`QueryStream.readRange`), keys in hex; null when it read nothing. */
  range: [indexId: number, lower: string, upper: string, upperInclusive: boolean] | null;
  documents: number;
  bytes: number;
  /**
   * Still open when the isolate stopped reading itself: the backend's thread continues it as
   * `queryId`, after the key read last (hex), `yielded` results already given.
   */
  open?: { queryId: number; query: QueryJson; after: string | null; yielded: number };
};

/** What an isolate read itself since its last message, told with its next (decision 092). */
export type LocalReport = {
  /** Documents got by id: table, id, and the size of the document (null: none in this component). */
  gets: [table: string, id: string, bytes: number | null][];
  streams: LocalStreamReport[];
  /** The function asked who is calling. */
  identity?: true;
};

/**
 * The slot of the isolate's shared flags where it adds the microseconds it spends reading the database
 * itself (decision 092), which the watchdog does not count as the function's time.
 */
export const READING_SLOT = 3;

/** A registered function's public face, as the isolate reports it (the rest stays in the isolate). */
export type FunctionShape = {
  name: string;
  isQuery: boolean;
  isMutation: boolean;
  isAction: boolean;
  isPublic: boolean;
  isInternal: boolean;
  args: string | null;
  returns: string | null;
};

/** An error as it crosses: enough to rebuild what describeError() reads, and the original if it came from here. */
export type WireError =
  | {
      thrown: "error";
      name: string;
      message: string;
      stack?: string;
      /** A ConvexError's data (or an error's `data` as `asyncSyscall` marshals it). */
      data?: Value;
      convex?: true;
      /** The backend thread's own error object, kept there, that this one stands for. */
      token?: number;
    }
  | { thrown: "value"; value: unknown };

/** Messages to an isolate. */
export type ToIsolate =
  | {
      type: "call";
      callId: number;
      generation: number;
      file: string;
      exportName: string;
      method: "invokeQuery" | "invokeMutation" | "invokeAction";
      args: string[];
      udfPath: string;
      /** The module starts with `"use node"`: its console lines are written as Convex's Node runtime writes them. */
      node?: boolean;
      local?: LocalGrant;
    }
  | { type: "describe"; callId: number; generation: number; file: string }
  | {
      type: "http";
      callId: number;
      generation: number;
      file: string;
      /** The route as `getRoutes()` names it (`/profile/*` for a prefix) and its method. */
      route: [string, string];
      request: WireMessage & { url: string; method: string };
      udfPath: string;
    }
  | { type: "preload"; generation: number; files: string[] }
  | { type: "answer"; id: number; result?: unknown; error?: WireError };

/** The console methods an isolate forwards. */
export type ConsoleMethod = "log" | "info" | "warn" | "error" | "debug" | "time" | "timeLog" | "timeEnd";

/** Messages from an isolate. */
export type FromIsolate =
  | { type: "ready"; tid: number | null }
  | {
      type: "done";
      callId: number;
      result?: unknown;
      error?: WireError;
      consumed?: Consumed;
      local?: LocalReport;
    }
  | {
      type: "syscall";
      id: number;
      callId: number;
      kind: "async" | "js";
      op: string;
      args: unknown;
      consumed?: Consumed;
      local?: LocalReport;
    }
  | {
      type: "log";
      callId: number | null;
      method: ConsoleMethod;
      /** Already formatted (`formatLogArgs`): what the backend thread's console is called with. */
      args: string[];
    }
  | { type: "vite"; id: number; payload: unknown };

/** What a module tells of itself: its registered functions, and the routes of its default export if a router. */
export type ModuleShape = { functions: FunctionShape[]; routes: [string, string][] | null };

/** An HTTP request's or response's head and body, as they cross (the body read whole). */
export type WireMessage = { headers: [string, string][]; body: Uint8Array<ArrayBuffer> | null };
export type WireResponse = WireMessage & { status: number; statusText: string };

/** `body` read whole, up to Convex's limit on an HTTP action's bodies. */
export async function readWhole(
  body: ReadableStream<Uint8Array> | null,
): Promise<Uint8Array<ArrayBuffer> | null> {
  if (!body) return null;
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > HTTP_ACTION_BODY_BYTES) {
      await body.cancel().catch(() => undefined);
      // Convex's words (crates/isolate/src/environment/action/mod.rs).
      throw new Error("HttpResponseTooLarge: HTTP actions support responses up to 20 MiB");
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

export async function responseToWire(response: Response): Promise<WireResponse> {
  return {
    status: response.status,
    statusText: response.statusText,
    headers: [...response.headers],
    body: await readWhole(response.body),
  };
}

/** Statuses whose response has no body (`new Response` refuses one). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

export function responseFromWire(wire: WireResponse): Response {
  return new Response(NULL_BODY.has(wire.status) ? null : wire.body, {
    status: wire.status,
    statusText: wire.statusText,
    headers: wire.headers,
  });
}

/** A synchronous syscall, sent on the isolate's second port while the isolate waits (`Atomics.wait`). */
export type SyncRequest = {
  callId: number;
  op: string;
  json: string;
  consumed?: Consumed;
  local?: LocalReport;
};
export type SyncAnswer = { result?: string; error?: WireError };

const CONVEX_ERROR = Symbol.for("ConvexError");
const TOKEN = Symbol.for("livelocal.isolate.errorToken");

/** `error` to send; `token` names the original when the receiver may hand it back. */
export function toWire(error: unknown, token?: number): WireError {
  if (!(error instanceof Error)) {
    try {
      return { thrown: "value", value: structuredClone(error) };
    } catch {
      // Something no message can carry (a function, a class instance with one): its description.
      return { thrown: "value", value: inspect(error) };
    }
  }
  const own = (error as Error & { [TOKEN]?: number })[TOKEN];
  const wire: WireError = {
    thrown: "error",
    name: error.name,
    message: error.message,
    stack: error.stack,
    token: token ?? own,
  };
  if (CONVEX_ERROR in error) wire.convex = true;
  // A ConvexError's data, or the JSON of it on an error marshalled for `asyncSyscall`.
  if ("data" in error) wire.data = (error as Error & { data: Value }).data;
  return wire;
}

/** The error `wire` describes; `original` gives back an object the receiver sent earlier. */
export function fromWire(wire: WireError, original?: (token: number) => unknown): unknown {
  if (wire.thrown === "value") return wire.value;
  if (wire.token !== undefined && original) {
    const kept = original(wire.token);
    if (kept !== undefined) return kept;
  }
  const error = wire.convex ? new ConvexError(wire.data ?? null) : new Error(wire.message);
  error.message = wire.message;
  error.name = wire.name;
  if (wire.stack !== undefined) error.stack = wire.stack;
  if (!wire.convex && wire.data !== undefined) Object.assign(error, { data: wire.data });
  if (wire.token !== undefined) Object.defineProperty(error, TOKEN, { value: wire.token, enumerable: false });
  return error;
}
