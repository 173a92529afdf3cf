/**
 * Observes what convex-test does on behalf of each call, by wrapping the `globalThis.Convex` syscall
 * layer (installed by the first `convexTest()`) and the global `console`.
 *
 * Every call the backend makes into the engine runs inside a `CallRecord` (an AsyncLocalStorage
 * store). Syscalls made while it is active are attributed to it: tables read and written, documents
 * read and written, log lines. Work that outlives the call (a scheduled function inherits the async
 * context of the mutation that scheduled it) finds the record finished: its writes are reported to
 * the owner as background writes, its log lines printed.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { inspect } from "node:util";
import { tableFromId } from "./paths.ts";

export interface CallOwner {
  /** A table was written. `deferred` when the active call will report its writes when it ends. */
  onWrite(table: string, deferred: boolean): void;
  /** A log line from work no client is waiting for (scheduled functions, crons). */
  onBackgroundLog(line: string, udfPath: string): void;
  /** The addresses `ctx.storage.getUrl` and `generateUploadUrl` give (convex-test's name a fake host). */
  readonly fileUrls: { getUrl(storageId: string): string; uploadUrl(): string } | null;
}

export interface CallRecord {
  owner: CallOwner;
  udfPath: string;
  active: boolean;
  /** The caller reports this call's writes itself once it ends (client mutations). */
  deferWrites: boolean;
  readTables: Set<string>;
  writeTables: Set<string>;
  docsRead: number;
  docsWritten: number;
  logLines: string[];
  /** Pagination: the end cursor to reuse (from the subscription's journal). */
  journalEndCursor: string | null;
  /** Pagination: the end cursor the call settled on, to give back as its journal. */
  observedEndCursor: string | null;
  /** queryId -> table, for `queryStreamNext`. */
  streams: Map<number, string>;
}

const callStorage = new AsyncLocalStorage<CallRecord>();

export function newCallRecord(
  owner: CallOwner,
  udfPath: string,
  options: { deferWrites?: boolean; journalEndCursor?: string | null } = {},
): CallRecord {
  return {
    owner,
    udfPath,
    active: true,
    deferWrites: options.deferWrites ?? false,
    readTables: new Set(),
    writeTables: new Set(),
    docsRead: 0,
    docsWritten: 0,
    logLines: [],
    journalEndCursor: options.journalEndCursor ?? null,
    observedEndCursor: null,
    streams: new Map(),
  };
}

/** Runs `fn` with `record` as the current call; marks it finished afterwards. */
export async function runInRecord<T>(record: CallRecord, fn: () => Promise<T>): Promise<T> {
  try {
    return await callStorage.run(record, fn);
  } finally {
    record.active = false;
  }
}

export function currentRecord(): CallRecord | undefined {
  return callStorage.getStore();
}

type SyscallLayer = {
  syscall: (op: string, jsonArgs: string) => string;
  asyncSyscall: (op: string, jsonArgs: string) => Promise<string>;
  jsSyscall: (op: string, args: Record<string, unknown>) => unknown;
};

const WRAPPED = Symbol.for("livelocal.localBackend.syscallsWrapped");

type SourceJson = { type?: string; tableName?: string; indexName?: string };

function tableOfSource(source: SourceJson | undefined): string | null {
  if (!source) return null;
  if (typeof source.tableName === "string") return source.tableName;
  if (typeof source.indexName === "string") return source.indexName.split(".")[0];
  return null;
}

function markRead(record: CallRecord | undefined, table: string | null, docs: number): void {
  if (!record || !record.active) return;
  if (table) record.readTables.add(table);
  record.docsRead += docs;
}

function markWrite(record: CallRecord | undefined, table: string | null): void {
  if (!record || !table) return;
  if (record.active) {
    record.writeTables.add(table);
    record.docsWritten += 1;
  }
  record.owner.onWrite(table, record.active && record.deferWrites);
}

function parse(json: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function afterSyncSyscall(op: string, args: Record<string, unknown>, result: string): void {
  const record = callStorage.getStore();
  if (!record || !record.active) return;
  if (op === "1.0/queryStream") {
    const query = args.query as { source?: SourceJson } | undefined;
    const table = tableOfSource(query?.source);
    const { queryId } = parse(result);
    if (table) {
      record.readTables.add(table);
      if (typeof queryId === "number") record.streams.set(queryId, table);
    }
  }
}

const WRITE_OPS = new Set(["1.0/insert", "1.0/shallowMerge", "1.0/replace", "1.0/remove"]);
const SCHEDULER_OPS = new Set([
  "1.0/schedule",
  "1.0/actions/schedule",
  "1.0/cancel_job",
  "1.0/actions/cancel_job",
]);

async function wrappedAsyncSyscall(
  inner: SyscallLayer["asyncSyscall"],
  op: string,
  jsonArgs: string,
): Promise<string> {
  const record = callStorage.getStore();
  if (!record) return await inner(op, jsonArgs);
  let args = parse(jsonArgs);
  if (op === "1.0/queryPage" && record.active && record.journalEndCursor !== null && args.endCursor == null) {
    args = { ...args, endCursor: record.journalEndCursor };
    jsonArgs = JSON.stringify(args);
  }
  let result = await inner(op, jsonArgs);
  switch (op) {
    case "1.0/get":
      markRead(record, (args.table as string | undefined) ?? tableFromId(args.id), result === "null" ? 0 : 1);
      break;
    case "1.0/queryStreamNext": {
      const { done } = parse(result);
      const table = record.streams.get(args.queryId as number) ?? null;
      markRead(record, table, done === false ? 1 : 0);
      break;
    }
    case "1.0/queryPage": {
      const query = args.query as { source?: SourceJson } | undefined;
      const page = parse(result);
      const rows = Array.isArray(page.page) ? page.page.length : 0;
      markRead(record, tableOfSource(query?.source), rows);
      const endCursor = args.endCursor as string | null | undefined;
      if (typeof endCursor === "string" && endCursor !== "_end_cursor" && page.continueCursor !== endCursor) {
        // convex-test reports "done" when the document at the end cursor is gone; Convex keeps the
        // page ending at that cursor so the next page still starts there.
        result = JSON.stringify({ ...page, continueCursor: endCursor, isDone: false });
        page.continueCursor = endCursor;
      }
      if (record.active && typeof page.continueCursor === "string") {
        record.observedEndCursor = page.continueCursor;
      }
      break;
    }
    case "1.0/count":
      markRead(record, (args.table as string | undefined) ?? null, 0);
      break;
    case "1.0/actions/vectorSearch": {
      const query = args.query as { indexName?: string } | undefined;
      markRead(record, query?.indexName?.split(".")[0] ?? null, 0);
      break;
    }
    case "1.0/storageDelete":
      markWrite(record, "_storage");
      break;
    case "1.0/storageGetUrl":
      if (record.owner.fileUrls && result !== "null" && typeof args.storageId === "string") {
        result = JSON.stringify(record.owner.fileUrls.getUrl(args.storageId));
      }
      break;
    case "1.0/storageGenerateUploadUrl":
      if (record.owner.fileUrls) result = JSON.stringify(record.owner.fileUrls.uploadUrl());
      break;
    default:
      if (WRITE_OPS.has(op)) {
        markWrite(record, (args.table as string | undefined) ?? tableFromId(args.id));
      } else if (SCHEDULER_OPS.has(op)) {
        markWrite(record, "_scheduled_functions");
      }
  }
  return result;
}

/**
 * Wraps `globalThis.Convex` once per process. Must run after the first `convexTest()` call, which
 * installs the layer being wrapped.
 */
export function installSyscallInstrumentation(): void {
  const g = globalThis as unknown as { Convex?: SyscallLayer & { [WRAPPED]?: true } };
  const original = g.Convex;
  if (!original) throw new Error("convex-test has not installed globalThis.Convex yet");
  if (original[WRAPPED]) return;
  const wrapped: SyscallLayer & { [WRAPPED]: true } = {
    [WRAPPED]: true,
    get syscall() {
      const inner = original.syscall;
      return (op: string, jsonArgs: string) => {
        const result = inner(op, jsonArgs);
        if (op === "1.0/queryStream") afterSyncSyscall(op, parse(jsonArgs), result);
        return result;
      };
    },
    get asyncSyscall() {
      const inner = original.asyncSyscall;
      return (op: string, jsonArgs: string) => wrappedAsyncSyscall(inner, op, jsonArgs);
    },
    get jsSyscall() {
      const inner = original.jsSyscall;
      return async (op: string, args: Record<string, unknown>) => {
        const result: unknown = await inner(op, args);
        if (op === "storage/storeBlob") markWrite(callStorage.getStore(), "_storage");
        return result;
      };
    },
  };
  g.Convex = wrapped;
}

// ---------------------------------------------------------------------------------------------
// Console capture

const LOG_PREFIXES = {
  log: "[LOG] ",
  info: "[INFO] ",
  warn: "[WARN] ",
  error: "[ERROR] ",
  debug: "[DEBUG] ",
} as const;

type LogMethod = keyof typeof LOG_PREFIXES;

export function formatLogArgs(args: unknown[]): string {
  return args
    .map((arg) => (typeof arg === "string" ? arg : inspect(arg, { depth: 4, breakLength: Infinity })))
    .join(" ");
}

const CONSOLE_WRAPPED = Symbol.for("livelocal.localBackend.consoleWrapped");

/**
 * Replaces the global console with one that, inside a call, records lines with Convex's level
 * prefixes instead of printing them. Outside calls it prints as before.
 */
export function installConsoleCapture(): void {
  const g = globalThis as unknown as { console: Console & { [CONSOLE_WRAPPED]?: true } };
  const real = g.console;
  if (real[CONSOLE_WRAPPED]) return;
  const capturing = Object.create(real) as Console & { [CONSOLE_WRAPPED]?: true };
  capturing[CONSOLE_WRAPPED] = true;
  for (const method of Object.keys(LOG_PREFIXES) as LogMethod[]) {
    const original = real[method].bind(real);
    capturing[method] = (...args: unknown[]) => {
      const record = callStorage.getStore();
      if (!record) {
        original(...args);
        return;
      }
      const line = LOG_PREFIXES[method] + formatLogArgs(args);
      if (record.active) record.logLines.push(line);
      else record.owner.onBackgroundLog(line, record.udfPath);
    };
  }
  g.console = capturing;
}
