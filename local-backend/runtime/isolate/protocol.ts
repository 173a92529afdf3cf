/**
 * What the backend's thread and an isolate (a worker thread running user code) say to each other, and
 * how an error crosses between them. Both sides import this file.
 */
import { inspect } from "node:util";
import { ConvexError, type Value } from "convex/values";

/** Convex's limit on a query's or mutation's own execution (`DATABASE_UDF_USER_TIMEOUT`, knobs.rs). */
export const QUERY_MUTATION_TIMEOUT_MS = 1000;

/** Convex's isolate heap (`ISOLATE_MAX_USER_HEAP_SIZE`, 64 MiB, knobs.rs), as its error says it. */
export const USER_HEAP_MB = 64;

/** Convex's words when an isolate runs out of memory (`OutOfMemoryError`, crates/isolate/src/termination.rs). */
export const OUT_OF_MEMORY_MESSAGE = `JavaScript execution ran out of memory (maximum memory usage: ${USER_HEAP_MB} MB)`;

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
    }
  | { type: "describe"; callId: number; generation: number; file: string }
  | { type: "preload"; generation: number; files: string[] }
  | { type: "answer"; id: number; result?: unknown; error?: WireError };

/** Messages from an isolate. */
export type FromIsolate =
  | { type: "ready"; tid: number | null }
  | { type: "done"; callId: number; result?: unknown; error?: WireError }
  | { type: "syscall"; id: number; callId: number; kind: "async" | "js"; op: string; args: unknown }
  | { type: "log"; callId: number | null; method: "log" | "info" | "warn" | "error" | "debug"; text: string }
  | { type: "vite"; id: number; payload: unknown };

/** A synchronous syscall, sent on the isolate's second port while the isolate waits (`Atomics.wait`). */
export type SyncRequest = { callId: number; op: string; json: string };
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
