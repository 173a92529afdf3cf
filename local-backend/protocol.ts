/**
 * The wire format of Convex's sync protocol (client 1.48.0), as read from
 * `node_modules/convex/src/browser/sync/protocol.ts`. Only what the server side needs.
 */
import type { JSONValue } from "convex/values";

export type QueryJournal = string | null;

export type AddQuery = {
  type: "Add";
  queryId: number;
  udfPath: string;
  args: JSONValue[];
  journal?: QueryJournal;
  componentPath?: string;
};
export type RemoveQuery = { type: "Remove"; queryId: number };

export type ClientMessage =
  | {
      type: "Connect";
      sessionId: string;
      connectionCount: number;
      lastCloseReason: string | null;
      maxObservedTimestamp?: string;
      clientTs?: number;
    }
  | {
      type: "ModifyQuerySet";
      baseVersion: number;
      newVersion: number;
      modifications: (AddQuery | RemoveQuery)[];
    }
  | { type: "Mutation"; requestId: number; udfPath: string; args: JSONValue[]; componentPath?: string }
  | { type: "Action"; requestId: number; udfPath: string; args: JSONValue[]; componentPath?: string }
  | {
      type: "Authenticate";
      tokenType: "User" | "None" | "Admin";
      value?: string;
      baseVersion: number;
      impersonating?: unknown;
    }
  | { type: "Event"; eventType: string; event: unknown };

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

  /** Never hand out a timestamp at or below one a client has already seen. */
  observe(ts: bigint): void {
    if (ts > this.last) this.last = ts;
  }
}
