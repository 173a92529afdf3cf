/**
 * What a call gives back (`LocalBackendEngine.call`) and how it is asked for: its result or its
 * error in a dev deployment's words (and as a client is told it), what it read and wrote, its log
 * lines and figures.
 */
import { convexToJson, jsonToConvex, type JSONValue, type Value } from "convex/values";
import type { ReadSet, WriteSet } from "../storage/read-set.ts";
import { currentRequest, newRequestId } from "../core/request-context.ts";
import { ConvexSystemError } from "../database/transaction.ts";
import { isConvexError } from "./convex-abi.ts";
import { functionFrames } from "./error-frames.ts";
import type { FunctionKind, Identity } from "./execution.ts";
import type { SessionRequest } from "./runner.ts";

/** A call's result or error; `json` is the result as Convex's JSON text, encoded once. */
export type CallResult =
  { success: true; value: Value; json: string } | { success: false; errorMessage: string; errorData?: Value };

/** The result of a call that has a value but not the function's JSON text of it. */
export function valueResult(value: Value): Extract<CallResult, { success: true }> {
  return { success: true, value, json: JSON.stringify(convexToJson(value)) };
}

export type CallOutcome = CallResult & {
  udfPath: string;
  logLines: string[];
  readTables: Set<string>;
  /** What a query read (index ranges, ids, tables): the writes that change its result. */
  reads: ReadSet;
  /** What the call's committed transactions wrote. */
  writes: WriteSet;
  /** The timestamp of its last commit (commit-log.ts; null: it committed no writes). */
  commitTs: bigint | null;
  /** A re-sent mutation answered with its first run's recorded answer: nothing ran. */
  replayed?: boolean;
  docsRead: number;
  docsWritten: number;
  /** For paginated queries: the end cursor to keep (Convex's query journal). */
  journal: string | null;
  durationMs: number;
};

export type CallOptions = {
  identity?: Identity | null;
  /** The subscription's journal, to reuse its pagination end cursor. */
  journal?: string | null;
  /** Refuse internal functions (client requests). */
  publicOnly?: boolean;
  /** Expect this kind (client requests name the kind); `undefined` runs whatever the function is. */
  kind?: FunctionKind;
  /** Called with the admin key: the CLI's system functions are available. */
  admin?: boolean;
  /** A sync client's mutation: answered once per session and request id (decision 056). */
  sessionRequest?: SessionRequest;
};

/** A ConvexError's data: functions hand it over serialized (as JSON text), as on Convex. */
function errorData(e: Error & { data: Value }): Value {
  if (typeof e.data !== "string") return e.data;
  try {
    return jsonToConvex(JSON.parse(e.data) as JSONValue);
  } catch {
    return e.data;
  }
}

/**
 * A function's error as Convex's `JsError` has it: `message` (`Uncaught Name: …`, the thrown object's own
 * name, a ConvexError subclass's too; a system error's words as they are), the frames of the function's
 * own code (error-frames.ts), a ConvexError's data.
 */
function jsError(e: unknown): { message: string; frames: string[]; data?: Value } {
  if (e instanceof ConvexSystemError) return { message: e.message, frames: [] };
  if (e instanceof Error) {
    // As V8 writes an uncaught error: `Error.prototype.toString`, after "Uncaught".
    const message = `Uncaught ${e.message ? `${e.name}: ${e.message}` : e.name}`;
    return { message, frames: functionFrames(e), ...(isConvexError(e) && { data: errorData(e) }) };
  }
  return { message: `Uncaught ${String(e)}`, frames: [] };
}

/**
 * A dev deployment's error text: the message, then the frames of the function that threw, one a line
 * (Convex's `JsError` Display, without its last line break: `clientErrorMessage` adds it back).
 * This is the bare text the CLI and the function logs show.
 */
export function describeError(e: unknown): { errorMessage: string; errorData?: Value } {
  const { message, frames, data } = jsError(e);
  return { errorMessage: [message, ...frames].join("\n"), ...(data !== undefined && { errorData: data }) };
}

/**
 * A failure as a client is told it, on the sync socket and over HTTP alike: Convex's request-id line,
 * then the error text (crates/application/src/redaction.rs, `RedactedJsError`'s Display).
 */
export function clientErrorMessage(errorMessage: string): string {
  return `[Request ID: ${requestId()}] Server Error\n${errorMessage}\n`;
}

/**
 * The id of the request the failure belongs to (its `X-Request-Id`, which the server's log line names
 * too; core/request-context.ts), or a new one in Convex's form (16 hex digits).
 */
function requestId(): string {
  return currentRequest()?.requestId ?? newRequestId();
}

/**
 * What a nested call (`runQuery`, `runMutation`, `runAction`, a component's function) throws into its
 * caller when the callee fails: the callee's whole text as the message, and its ConvexError's data, so
 * the caller's `convex/server` rethrows it as a ConvexError (or an Error) of its own, whose text then
 * holds the callee's frames, a blank line and the caller's (Convex's `nested_to_string`).
 */
export function nestedCallError(e: unknown): Error {
  const { errorMessage, errorData } = describeError(e);
  const error = new Error(`${errorMessage}\n`) as Error & { data?: JSONValue };
  if (errorData !== undefined) error.data = convexToJson(errorData);
  return error;
}

/**
 * An HTTP action's failure as Convex answers it: 500 with `{ code, trace, data }`
 * (`RedactedJsError::to_http_response_parts`).
 */
export function httpActionFailure(e: unknown): Response {
  const { message, frames, data } = jsError(e);
  return Response.json(
    {
      code: `[Request ID: ${requestId()}] Server Error: ${message}`,
      trace: `${[message, ...frames].join("\n")}\n`,
      ...(data !== undefined && { data: convexToJson(data) }),
    },
    { status: 500 },
  );
}
