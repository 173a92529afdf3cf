/**
 * The wire format of Convex's sync protocol (client 1.48.0), as read from
 * `node_modules/convex/src/browser/sync/protocol.ts`. Only what the server side needs.
 */
import { jsonToConvex, type JSONValue, type Value } from "convex/values";
import { z } from "zod";

/**
 * The largest message a client may send on the sync socket: 16 MiB, the frame limit of the WebSocket
 * library Convex's sync socket runs on (tungstenite's default `max_frame_size`, not overridden in
 * `crates/common/src/http/websocket.rs`), and Convex's `FUNCTION_MAX_ARGS_SIZE`. Bigger frames close the
 * socket (code 1009) before they are buffered (decision 057).
 */
export const MAX_CLIENT_MESSAGE_BYTES = 16 * 1024 * 1024;
/**
 * Queries one connection may subscribe to at once, and operations (mutations waiting to run, actions
 * running) it may have in flight: Convex's per-socket `OPERATION_QUEUE_BUFFER_SIZE` (crates/sync
 * `worker.rs`). Convex bounds a query set only by the frame size; this engine runs every query on one
 * thread, so it bounds the set by the same number (decision 057).
 */
export const MAX_QUERY_SET_SIZE = 1000;
export const MAX_PENDING_OPERATIONS = 1000;
/** Modifications in one `ModifyQuerySet`: enough to replace a full query set. */
export const MAX_QUERY_SET_MODIFICATIONS = 2 * MAX_QUERY_SET_SIZE;

// Every client message is checked against these before use: the socket is the network's input, and
// anything that does not fit ends that connection with a FatalError (as Convex's own backend does),
// never the process. Unknown extra fields are ignored, as serde does for Convex.
const u32 = z
  .number()
  .int()
  .min(0)
  .max(2 ** 32 - 1);
const udfPath = z.string().min(1).max(1024);
/**
 * Function arguments as sent: one JSON value per argument (the official clients send one object). The
 * frame came from JSON.parse, so its items are JSON already; `decodeArgs` reads them.
 */
const wireArgs = z.array(z.custom<JSONValue>(() => true));
const journal = z
  .string()
  .max(64 * 1024)
  .nullable();

const addQuery = z.object({
  type: z.literal("Add"),
  queryId: u32,
  udfPath,
  args: wireArgs,
  journal: journal.optional(),
  componentPath: z.string().optional(),
});
const removeQuery = z.object({ type: z.literal("Remove"), queryId: u32 });

const clientMessage = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("Connect"),
    sessionId: z.guid(),
    connectionCount: u32,
    lastCloseReason: z
      .string()
      .max(64 * 1024)
      .nullable(),
    maxObservedTimestamp: z.string().max(64).optional(),
    clientTs: z.number().optional(),
  }),
  z.object({
    type: z.literal("ModifyQuerySet"),
    baseVersion: u32,
    newVersion: u32,
    modifications: z.array(z.discriminatedUnion("type", [addQuery, removeQuery])),
  }),
  z.object({
    type: z.literal("Mutation"),
    requestId: u32,
    udfPath,
    args: wireArgs,
    componentPath: z.string().optional(),
  }),
  z.object({
    type: z.literal("Action"),
    requestId: u32,
    udfPath,
    args: wireArgs,
    componentPath: z.string().optional(),
  }),
  z.object({
    type: z.literal("Authenticate"),
    tokenType: z.enum(["User", "None", "Admin"]),
    value: z
      .string()
      .max(64 * 1024)
      .optional(),
    baseVersion: u32,
    impersonating: z.unknown().optional(),
  }),
  z.object({ type: z.literal("Event"), eventType: z.string(), event: z.unknown() }),
]);

export type QueryJournal = string | null;
export type AddQuery = z.infer<typeof addQuery>;
export type ClientMessage = z.infer<typeof clientMessage>;

/** One sentence for the first problem zod found: where it is and what was wrong. */
export function describeIssue(error: z.ZodError, subject: string): string {
  const issue = error.issues[0];
  const where = issue.path.length > 0 ? ` at \`${issue.path.map(String).join(".")}\`` : "";
  return `Invalid ${subject}${where}: ${issue.message}`;
}

export function tooManyModifications(count: number): string {
  return `TooManyQuerySetModifications: A ModifyQuerySet may carry at most ${MAX_QUERY_SET_MODIFICATIONS.toLocaleString("en-US")} modifications; this one has ${count.toLocaleString("en-US")}.`;
}

export function tooManyQueries(count: number): string {
  return `TooManyQueries: A connection may subscribe to at most ${MAX_QUERY_SET_SIZE.toLocaleString("en-US")} queries at once; this ModifyQuerySet would make it ${count.toLocaleString("en-US")}.`;
}

/** A sync-socket text frame → the message, or the sentence saying why it is not one. */
export function parseClientMessage(
  text: string,
): { ok: true; message: ClientMessage } | { ok: false; error: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, error: "Invalid message: not JSON" };
  }
  // Counted before the schema check, which would otherwise walk every one of them first.
  const modifications = (json as { type?: unknown; modifications?: unknown } | null)?.modifications;
  if (
    (json as { type?: unknown } | null)?.type === "ModifyQuerySet" &&
    Array.isArray(modifications) &&
    modifications.length > MAX_QUERY_SET_MODIFICATIONS
  ) {
    return { ok: false, error: tooManyModifications(modifications.length) };
  }
  const parsed = clientMessage.safeParse(json);
  return parsed.success
    ? { ok: true, message: parsed.data }
    : { ok: false, error: describeIssue(parsed.error, "message") };
}

/**
 * A function's arguments as they arrive (one JSON value per argument) → the single argument, or the
 * error Convex returns for them (the call then fails like a function would; nothing runs). Whether
 * that argument is an object is the engine's check, for every caller.
 */
export function decodeArgs(args: readonly JSONValue[], udfPath: string): Value | Error {
  if (args.length !== 1) {
    return new Error(
      `ArgumentValidationError: Expected to receive a single object as the function's argument. Instead received ${args.length} arguments: ${JSON.stringify(args).slice(0, 200)}`,
    );
  }
  try {
    return jsonToConvex(args[0]);
  } catch (e) {
    return new Error(`Invalid arguments for ${udfPath}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

export type StateVersion = { querySet: number; identity: number; ts: bigint };
type EncodedStateVersion = { querySet: number; identity: number; ts: string };

export type StateModification =
  | { type: "QueryUpdated"; queryId: number; value: JSONValue; logLines: string[]; journal: QueryJournal }
  | {
      type: "QueryFailed";
      queryId: number;
      errorMessage: string;
      logLines: string[];
      errorData?: JSONValue;
      journal: QueryJournal;
    }
  | { type: "QueryRemoved"; queryId: number };

export type ServerMessage =
  | {
      type: "Transition";
      startVersion: EncodedStateVersion;
      endVersion: EncodedStateVersion;
      modifications: StateModification[];
    }
  | {
      type: "MutationResponse";
      requestId: number;
      success: true;
      result: JSONValue;
      ts: string;
      logLines: string[];
    }
  | {
      type: "MutationResponse";
      requestId: number;
      success: false;
      result: string;
      logLines: string[];
      errorData?: JSONValue;
    }
  | { type: "ActionResponse"; requestId: number; success: true; result: JSONValue; logLines: string[] }
  | {
      type: "ActionResponse";
      requestId: number;
      success: false;
      result: string;
      logLines: string[];
      errorData?: JSONValue;
    }
  | { type: "AuthError"; error: string; baseVersion: number; authUpdateAttempted: boolean }
  | { type: "FatalError"; error: string }
  | { type: "Ping" };

/** A u64 as Convex sends it: 8 bytes little-endian, standard padded base64. */
export function encodeTs(ts: bigint): string {
  const bytes = Buffer.alloc(8);
  bytes.writeBigUInt64LE(BigInt.asUintN(64, ts));
  return bytes.toString("base64");
}

export function decodeTs(encoded: string): bigint {
  const bytes = Buffer.from(encoded, "base64");
  if (bytes.length !== 8) throw new Error(`Invalid timestamp ${JSON.stringify(encoded)}`);
  return bytes.readBigUInt64LE();
}

export function encodeVersion(version: StateVersion): EncodedStateVersion {
  return { querySet: version.querySet, identity: version.identity, ts: encodeTs(version.ts) };
}

/**
 * Strictly increasing timestamps in nanoseconds since the epoch, so they stay ahead of anything a
 * client observed before a restart.
 */
/** How far ahead of the wall clock a client-reported timestamp may be (a skewed restart): one day. */
const MAX_OBSERVED_AHEAD_NS = 24n * 3600n * 1_000_000_000n;

export class Clock {
  private last = 0n;

  next(): bigint {
    const now = BigInt(Date.now()) * 1_000_000n;
    this.last = now > this.last ? now : this.last + 1n;
    return this.last;
  }

  current(): bigint {
    return this.last;
  }

  /**
   * Never hand out a timestamp at or below one a client has already seen. A client's claim further
   * ahead of this machine's clock than `MAX_OBSERVED_AHEAD_NS` is ignored: timestamps that far out
   * were never handed out here, and taking them would let one client push every other client's
   * timestamps towards the u64 limit.
   */
  observe(ts: bigint): void {
    const limit = BigInt(Date.now()) * 1_000_000n + MAX_OBSERVED_AHEAD_NS;
    if (ts > this.last && ts <= limit) this.last = ts;
  }
}
