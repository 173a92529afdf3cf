/**
 * What each call did, and its console.
 *
 * Every call the backend makes into the engine runs inside a `CallRecord` (an AsyncLocalStorage
 * store). The runner attributes to it the tables and documents read and written; the console
 * capture, its log lines. Work that outlives the call (a promise a function left running) finds the
 * record finished: its log lines are printed as background lines.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { processWide } from "../core/process-wide.ts";
import { inspect } from "node:util";
import { ReadSet, WriteSet } from "../storage/read-set.ts";
import { noUsage, type TransactionUsage } from "../values/transaction-limits.ts";

export interface CallOwner {
  /** A log line from work no client is waiting for (scheduled functions, crons). */
  onBackgroundLog(line: string, udfPath: string): void;
  /** The addresses `ctx.storage.getUrl` and `generateUploadUrl` give (this backend serves them), per component. */
  readonly fileUrls: {
    getUrl(storageId: string, component: string): string;
    uploadUrl(component: string): string;
  } | null;
}

export interface CallRecord {
  owner: CallOwner;
  udfPath: string;
  active: boolean;
  readTables: Set<string>;
  /** What the call read, precisely (index ranges, ids): which writes change its result. */
  reads: ReadSet;
  /** What the call's committed transactions wrote. */
  writes: WriteSet;
  /** The timestamp of the call's last commit (commit-log.ts; null: it committed no writes). */
  commitTs: bigint | null;
  /** A re-sent mutation answered from its first run's recorded answer, without running (decision 056). */
  replayed: boolean;
  docsRead: number;
  docsWritten: number;
  /** The most any one of its transactions used of Convex's limits (the runner fills it). */
  largestTransaction: TransactionUsage;
  /**
   * Milliseconds of its query or mutation code's own time (thread CPU time where the OS counts it),
   * what Convex's 1 s limit is measured in; the isolate pool fills it (0 where code runs in-process).
   */
  userCodeMs: number;
  /**
   * Syscalls its code sent from an isolate to the backend's thread (the isolate handle counts them; 0
   * where code runs in-process): what a call pays beyond its own work (decisions 082, 092).
   */
  crossings: number;
  logLines: string[];
  /** Pagination: the end cursor to reuse (from the subscription's journal). */
  journalEndCursor: string | null;
  /** Pagination: the end cursor the call settled on, to give back as its journal. */
  observedEndCursor: string | null;
}

const callStorage = processWide("callRecords", () => new AsyncLocalStorage<CallRecord>());

export function newCallRecord(
  owner: CallOwner,
  udfPath: string,
  options: { journalEndCursor?: string | null } = {},
): CallRecord {
  return {
    owner,
    udfPath,
    active: true,
    readTables: new Set(),
    reads: new ReadSet(),
    writes: new WriteSet(),
    commitTs: null,
    replayed: false,
    docsRead: 0,
    docsWritten: 0,
    largestTransaction: noUsage(),
    userCodeMs: 0,
    crossings: 0,
    logLines: [],
    journalEndCursor: options.journalEndCursor ?? null,
    observedEndCursor: null,
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

/** Runs `fn` with `record` as the current call, leaving it active (its caller finishes it). */
export function inRecord<T>(record: CallRecord, fn: () => T): T {
  return callStorage.run(record, fn);
}

export function currentRecord(): CallRecord | undefined {
  return callStorage.getStore();
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

/**
 * A console line of a `"use node"` module's function, as Convex's Node runtime writes it: every
 * argument through `util.inspect`, strings quoted (`'foo: 12ms' 'bar'`), as long as a log line may be.
 */
export function formatNodeLogArgs(args: unknown[]): string {
  return args.map((arg) => inspect(arg, { maxStringLength: 32_768, customInspect: true })).join(" ");
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
      logLine(record, method, args);
    };
  }
  installConsoleTimers(capturing, real);
  g.console = capturing;
}

function logLine(record: CallRecord, method: LogMethod, args: unknown[]): void {
  const line = LOG_PREFIXES[method] + formatLogArgs(args);
  if (record.active) record.logLines.push(line);
  else record.owner.onBackgroundLog(line, record.udfPath);
}

/** Each call's console timers (`console.time`), by label. */
const timersOf = new WeakMap<CallRecord, Map<string, number>>();

/**
 * `console.time`, `timeLog` and `timeEnd` inside a call give the call's log lines with Convex's words
 * (`crates/isolate/src/ops/console.rs`): `[INFO] label: 12ms`, or a `[WARN]` for a timer that already
 * exists or does not. The label defaults to `default`, as in Convex's runtime.
 */
function installConsoleTimers(capturing: Console, real: Console): void {
  const labelOf = (label: unknown) => (label === undefined ? "default" : formatLogArgs([label]));
  const withTimers =
    <A extends unknown[]>(original: (...args: A) => void, timed: (record: CallRecord, ...args: A) => void) =>
    (...args: A) => {
      const record = callStorage.getStore();
      if (!record) original(...args);
      else timed(record, ...args);
    };
  const timers = (record: CallRecord) => {
    let map = timersOf.get(record);
    if (!map) timersOf.set(record, (map = new Map<string, number>()));
    return map;
  };
  const step =
    (method: TimerMethod) =>
    (record: CallRecord, label?: unknown, ...extra: unknown[]) => {
      const line = consoleTimer(timers(record), method, labelOf(label), extra);
      if (line) logLine(record, line[0], line[1]);
    };
  capturing.time = withTimers(real.time.bind(real), step("time"));
  capturing.timeLog = withTimers(real.timeLog.bind(real), step("timeLog"));
  capturing.timeEnd = withTimers(real.timeEnd.bind(real), step("timeEnd"));
}

type TimerMethod = "time" | "timeLog" | "timeEnd";

/**
 * One `console.time*` call on a call's timers, by label: the line it logs (level and arguments), if
 * any, in Convex's words (`crates/isolate/src/ops/console.rs`, the Node executor's alike).
 */
export function consoleTimer(
  timers: Map<string, number>,
  method: TimerMethod,
  name: string,
  extra: unknown[],
): ["info" | "warn", unknown[]] | undefined {
  const started = timers.get(name);
  if (method === "time") {
    if (started === undefined) timers.set(name, Date.now());
    else return ["warn", [`Timer '${name}' already exists`]];
    return undefined;
  }
  if (started === undefined) return ["warn", [`Timer '${name}' does not exist`]];
  if (method === "timeEnd") timers.delete(name);
  return ["info", [`${name}: ${Date.now() - started}ms`, ...(method === "timeLog" ? extra : [])]];
}
