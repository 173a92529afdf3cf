/**
 * What a call gives back (`LocalBackendEngine.call`) and how it is asked for: its result or its
 * error in a dev deployment's words, what it read and wrote, its log lines and figures.
 */
import { convexToJson, jsonToConvex, type JSONValue, type Value } from "convex/values";
import type { ReadSet, WriteSet } from "../storage/read-set.ts";
import { ConvexSystemError } from "../database/transaction.ts";
import { isConvexError } from "./convex-abi.ts";
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

/** A dev deployment's error text: `Uncaught Error: message` and the frames inside the functions. */
export function describeError(e: unknown): { errorMessage: string; errorData?: Value } {
  if (isConvexError(e)) {
    return { errorMessage: `Uncaught ConvexError: ${e.message}`, errorData: errorData(e) };
  }
  if (e instanceof ConvexSystemError) return { errorMessage: e.message };
  if (e instanceof Error) {
    const frames = (e.stack ?? "")
      .split("\n")
      .filter((line) => /^\s+at /.test(line) && /\/convex\//.test(line) && !/node_modules/.test(line))
      .slice(0, 5)
      .map((line) => line.replace(/(\(|at )(?:file:\/\/)?[^()]*\/convex\//, "$1../convex/"));
    return { errorMessage: [`Uncaught ${e.name}: ${e.message}`, ...frames].join("\n") };
  }
  return { errorMessage: `Uncaught ${String(e)}` };
}
