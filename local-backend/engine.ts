/**
 * The engine: the project's Convex functions run in-process by convex-test, with what Convex adds
 * around a call (public/internal checks, canonical paths, error shapes, log lines, statistics).
 *
 * convex-test keeps its database in private state. `captureInternals` reaches it (pinned to
 * convex-test 0.0.60) so that the documents can be snapshotted, restored and carried into a fresh
 * engine when the schema changes.
 */
import { AsyncLocalStorage, AsyncResource } from "node:async_hooks";
import { convexTest } from "convex-test";
import {
  makeFunctionReference,
  type GenericSchema,
  type SchemaDefinition,
  type UserIdentity,
} from "convex/server";
import { convexToJson, type Value } from "convex/values";
import {
  installConsoleCapture,
  installSyscallInstrumentation,
  newCallRecord,
  runInRecord,
  type CallOwner,
  type CallRecord,
} from "./instrument.ts";
import { canonicalizeUdfPath, splitUdfPath, tableFromId } from "./paths.ts";

export type ModuleLoader = () => Promise<Record<string, unknown>>;
/** Keys like `/convex/messages.ts`, including the `_generated` files. */
export type ModulesMap = Record<string, ModuleLoader>;
export type AnySchema = SchemaDefinition<GenericSchema, boolean>;

export type FunctionKind = "query" | "mutation" | "action";
export type FunctionInfo = { kind: FunctionKind; visibility: "public" | "internal" };
export type Identity = Partial<UserIdentity> & Record<string, unknown>;

export type CallOutcome = (
  { success: true; value: Value } | { success: false; errorMessage: string; errorData?: Value }
) & {
  udfPath: string;
  logLines: string[];
  readTables: Set<string>;
  writeTables: Set<string>;
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
  /** The caller reports the call's writes when it ends (instead of on each write). */
  deferWrites?: boolean;
  /** Refuse internal functions (client requests). */
  publicOnly?: boolean;
  /** Expect this kind (client requests name the kind); `undefined` runs whatever the function is. */
  kind?: FunctionKind;
};

export type FunctionStats = {
  kind: FunctionKind | "http" | "scheduled";
  calls: number;
  errors: number;
  totalMs: number;
  maxMs: number;
  docsRead: number;
  docsWritten: number;
  maxDocsRead: number;
  readTables: string[];
  writeTables: string[];
};

export type EngineStats = { functions: Record<string, FunctionStats> };

/** A copy of the engine's committed data (documents are shared, never mutated in place). */
export type EngineState = {
  documents: Record<string, Record<string, Value>>;
  nextDocId: number;
  lastCreationTime: number;
  lastCommitTs: bigint;
  storage: Record<string, Blob>;
};

/** What the engine committed since it was last asked: documents and stored files (null: deleted). */
export type EngineChanges = {
  documents: Map<string, Record<string, Value> | null>;
  storage: Map<string, Blob | null>;
  counters: Pick<EngineState, "nextDocId" | "lastCreationTime" | "lastCommitTs">;
};

/** `target` behind a proxy that reports every key set or deleted (convex-test commits by assignment). */
function tracked<T>(target: Record<string, T>, onChange: (key: string) => void): Record<string, T> {
  return new Proxy(target, {
    set(object, key, value: T) {
      object[key as string] = value;
      if (typeof key === "string") onChange(key);
      return true;
    },
    deleteProperty(object, key) {
      delete object[key as string];
      if (typeof key === "string") onChange(key);
      return true;
    },
  });
}

export type EngineOptions = {
  schema?: AnySchema;
  modules: ModulesMap;
  /** Enforce Convex's per-transaction limits (default true). */
  transactionLimits?: boolean;
  /** Restore this data before the first call. */
  state?: EngineState;
};

type DatabaseInternals = {
  _documents: Record<string, Record<string, Value>>;
  _storage: Record<string, Blob>;
  _nextDocId: number;
  _lastCreationTime: number;
};
type ConvexGlobalInternals = {
  components: Record<string, { db: DatabaseInternals }>;
  transactionManager: { _lastCommitTs: bigint };
  scheduler: unknown;
};

type Accessor = ReturnType<ReturnType<typeof convexTest>["withIdentity"]>;

/** Server-side work (timers) starts from here, outside any convex-test context (LOCAL-BACKEND.md). */
const rootScope = new AsyncResource("livelocal-local-backend");

export function inRootScope<T>(fn: () => T): T {
  return rootScope.runInAsyncScope(fn);
}

/** Timers further out than this do not keep the process alive on their own. */
const LONG_TIMER_MS = 60_000;

/**
 * convex-test starts one Node timer per scheduled function (through `globalThis.setTimeout`), never
 * unref'd. A job days away (a data export's expiry) would then keep a process alive after its servers
 * closed; the store keeps the job and a restart resumes it (`resumeScheduledFunctions`). So timers that
 * far out are unref'd; shorter ones, and everything vitest's fake timers install, are left alone.
 */
function unrefLongTimers(): void {
  const nodeSetTimeout = globalThis.setTimeout;
  if ((nodeSetTimeout as { livelocalUnrefsLong?: true }).livelocalUnrefsLong) return;
  const wrapped = ((callback: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
    const timer = nodeSetTimeout(callback, ms, ...args);
    if ((ms ?? 0) > LONG_TIMER_MS) timer.unref?.();
    return timer;
  }) as typeof setTimeout;
  Object.assign(wrapped, nodeSetTimeout, { livelocalUnrefsLong: true });
  globalThis.setTimeout = wrapped;
}

const CONVEX_ERROR = Symbol.for("ConvexError");

function isConvexError(e: unknown): e is Error & { data: Value } {
  return typeof e === "object" && e !== null && CONVEX_ERROR in e;
}

/** A dev deployment's error text: `Uncaught Error: message` and the frames inside the functions. */
export function describeError(e: unknown): { errorMessage: string; errorData?: Value } {
  if (isConvexError(e)) {
    return { errorMessage: `Uncaught ConvexError: ${e.message}`, errorData: e.data };
  }
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

/** A function's single argument must be a plain object (Convex checks this before running anything). */
function isArgumentsObject(args: Value): args is Record<string, Value> {
  if (typeof args !== "object" || args === null || Array.isArray(args)) return false;
  const proto: unknown = Object.getPrototypeOf(args);
  return proto === Object.prototype || proto === null;
}

function displayValue(value: Value): string {
  let text: string;
  try {
    text = JSON.stringify(convexToJson(value));
  } catch {
    text = typeof value;
  }
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

function notFound(udfPath: string): string {
  return `Could not find public function for '${udfPath}'. Did you forget to run \`npx convex dev\` or \`npx convex deploy\`?`;
}

const KIND_NAMES: Record<FunctionKind, string> = { query: "Query", mutation: "Mutation", action: "Action" };

/** Captures convex-test's per-instance state by watching its AsyncLocalStorage.run. */
async function captureInternals(t: Accessor): Promise<ConvexGlobalInternals> {
  // eslint-disable-next-line @typescript-eslint/unbound-method -- put back below, always called with its `this`
  const originalRun = AsyncLocalStorage.prototype.run;
  let captured: ConvexGlobalInternals | undefined;
  AsyncLocalStorage.prototype.run = function <R>(
    this: AsyncLocalStorage<unknown>,
    store: unknown,
    callback: (...args: unknown[]) => R,
    ...args: unknown[]
  ): R {
    if (
      captured === undefined &&
      typeof store === "object" &&
      store !== null &&
      "components" in store &&
      "transactionManager" in store &&
      "scheduler" in store
    ) {
      captured = store as ConvexGlobalInternals;
    }
    return originalRun.call(this, store, callback, ...args) as R;
  };
  try {
    await t.finishInProgressScheduledFunctions();
  } finally {
    AsyncLocalStorage.prototype.run = originalRun;
  }
  const db = captured?.components[""]?.db;
  if (
    !captured ||
    !db ||
    typeof db._documents !== "object" ||
    typeof db._nextDocId !== "number" ||
    typeof captured.transactionManager._lastCommitTs !== "bigint"
  ) {
    throw new Error(
      "local-backend: convex-test's internal state is not where 0.0.60 keeps it; pin convex-test to 0.0.60 or update engine.ts",
    );
  }
  return captured;
}

export class LocalBackendEngine implements CallOwner {
  readonly schema: AnySchema | undefined;
  private readonly modulesByPath: Map<string, ModuleLoader>;
  private readonly stats = new Map<string, FunctionStats>();
  private readonly resumedTimers = new Set<ReturnType<typeof setTimeout>>();
  private writeListener: ((table: string, deferred: boolean) => void) | null = null;
  private logListener: (line: string, udfPath: string) => void = (line, udfPath) => {
    process.stdout.write(`[convex ${udfPath}] ${line}\n`);
  };
  private disposed = false;
  private readonly changedDocuments = new Set<string>();
  private readonly changedFiles = new Set<string>();
  private changeListener: (() => void) | null = null;
  fileUrls: CallOwner["fileUrls"] = null;

  private constructor(
    readonly t: Accessor,
    private readonly internals: ConvexGlobalInternals,
    schema: AnySchema | undefined,
    modules: ModulesMap,
  ) {
    this.schema = schema;
    this.modulesByPath = indexModules(modules);
  }

  static async create(options: EngineOptions): Promise<LocalBackendEngine> {
    const t: Accessor = convexTest({
      schema: options.schema,
      modules: options.modules,
      transactionLimits: options.transactionLimits ?? true,
    });
    installSyscallInstrumentation();
    installConsoleCapture();
    unrefLongTimers();
    const internals = await captureInternals(t);
    const engine = new LocalBackendEngine(t, internals, options.schema, options.modules);
    if (options.state) engine.importState(options.state);
    engine.trackChanges();
    return engine;
  }

  private get db(): DatabaseInternals {
    return this.internals.components[""].db;
  }

  /**
   * From now on, every document and stored file convex-test commits (client calls, scheduled functions,
   * HTTP actions, this engine's own bookkeeping) is remembered until `takeChanges`, and `listener` is
   * told (once per burst) so that background work is persisted too.
   */
  private trackChanges(): void {
    const db = this.db;
    db._documents = tracked(db._documents, (id) => this.noteChange(this.changedDocuments, id));
    db._storage = tracked(db._storage, (id) => this.noteChange(this.changedFiles, id));
  }

  private noteChange(set: Set<string>, id: string): void {
    const first = this.changedDocuments.size === 0 && this.changedFiles.size === 0;
    set.add(id);
    if (first && this.changeListener) {
      const listener = this.changeListener;
      inRootScope(() => setImmediate(listener));
    }
  }

  setChangeListener(listener: () => void): void {
    this.changeListener = listener;
  }

  /** The committed changes since the last call (each document's current value), and forgets them. */
  takeChanges(): EngineChanges | null {
    if (this.changedDocuments.size === 0 && this.changedFiles.size === 0) return null;
    const db = this.db;
    const documents = new Map<string, Record<string, Value> | null>();
    for (const id of this.changedDocuments) documents.set(id, db._documents[id] ?? null);
    const storage = new Map<string, Blob | null>();
    for (const id of this.changedFiles) storage.set(id, db._storage[id] ?? null);
    this.changedDocuments.clear();
    this.changedFiles.clear();
    return {
      documents,
      storage,
      counters: {
        nextDocId: db._nextDocId,
        lastCreationTime: db._lastCreationTime,
        lastCommitTs: this.internals.transactionManager._lastCommitTs,
      },
    };
  }

  /** Called for every table written (see CallOwner). */
  setWriteListener(listener: (table: string, deferred: boolean) => void): void {
    this.writeListener = listener;
  }

  setLogListener(listener: (line: string, udfPath: string) => void): void {
    this.logListener = listener;
  }

  onWrite(table: string, deferred: boolean): void {
    if (!this.disposed) this.writeListener?.(table, deferred);
  }

  onBackgroundLog(line: string, udfPath: string): void {
    this.logListener(line, udfPath);
  }

  hasModule(modulePath: string): boolean {
    return this.modulesByPath.has(modulePath);
  }

  async loadModule(modulePath: string): Promise<Record<string, unknown> | null> {
    const loader = this.modulesByPath.get(modulePath);
    return loader ? await loader() : null;
  }

  /** What a function is, or null when there is no such Convex function. */
  async describe(udfPath: string): Promise<FunctionInfo | null> {
    const { modulePath, exportName } = splitUdfPath(udfPath);
    if (modulePath.startsWith("_generated") || modulePath === "schema") return null;
    let module: Record<string, unknown> | null;
    try {
      module = await this.loadModule(modulePath);
    } catch (e) {
      throw new Error(`Failed to load convex/${modulePath}: ${e instanceof Error ? e.message : String(e)}`, {
        cause: e,
      });
    }
    const fn = module?.[exportName] as
      | {
          isQuery?: boolean;
          isMutation?: boolean;
          isAction?: boolean;
          isPublic?: boolean;
          isInternal?: boolean;
        }
      | undefined;
    if (!fn || (typeof fn !== "function" && typeof fn !== "object")) return null;
    const kind: FunctionKind | null = fn.isQuery
      ? "query"
      : fn.isMutation
        ? "mutation"
        : fn.isAction
          ? "action"
          : null;
    if (!kind) return null;
    return { kind, visibility: fn.isPublic ? "public" : "internal" };
  }

  /** Runs a Convex function by path. Never throws for a function's own failure. */
  async call(udfPath: string, args: Value, options: CallOptions = {}): Promise<CallOutcome> {
    const canonical = canonicalizeUdfPath(udfPath);
    const record = newCallRecord(this, canonical, {
      deferWrites: options.deferWrites,
      journalEndCursor: journalEndCursor(options.journal ?? null),
    });
    const started = performance.now();
    let outcome:
      { success: true; value: Value } | { success: false; errorMessage: string; errorData?: Value };
    let kind: FunctionKind | null = null;
    try {
      const system = SYSTEM_FUNCTIONS[canonical];
      const info = system ? null : await this.describe(canonical);
      if (system && !options.publicOnly) {
        // What the Convex CLI asks an admin-authenticated deployment (`npx convex data`).
        kind = "query";
        const value = await runInRecord(record, () => system(this, args));
        outcome = { success: true, value };
      } else if (!info || (options.publicOnly && info.visibility !== "public")) {
        outcome = { success: false, errorMessage: notFound(canonical) };
      } else if (options.kind && options.kind !== info.kind) {
        outcome = {
          success: false,
          errorMessage: `Trying to execute ${canonical} as ${KIND_NAMES[options.kind]}, but it is defined as ${KIND_NAMES[info.kind]}.`,
        };
      } else if (!isArgumentsObject(args)) {
        outcome = {
          success: false,
          errorMessage: `ArgumentValidationError: Expected to receive an object as the function's argument. Instead received: ${displayValue(args)}`,
        };
      } else {
        kind = info.kind;
        const accessor = options.identity ? this.t.withIdentity(options.identity) : this.t;
        const fnKind = info.kind;
        const value = await runInRecord(record, () => runByKind(accessor, fnKind, canonical, args));
        outcome = { success: true, value };
      }
    } catch (e) {
      outcome = { success: false, ...describeError(e) };
    } finally {
      record.active = false;
    }
    const durationMs = performance.now() - started;
    if (kind) this.recordStats(canonical, kind, record, durationMs, !outcome.success);
    return {
      ...outcome,
      udfPath: canonical,
      logLines: record.logLines,
      readTables: record.readTables,
      writeTables: record.writeTables,
      docsRead: record.docsRead,
      docsWritten: record.docsWritten,
      journal:
        record.observedEndCursor === null ? null : JSON.stringify({ endCursor: record.observedEndCursor }),
      durationMs,
    };
  }

  /**
   * Stores an uploaded file as `ctx.storage.store` does (a `_storage` document and its blob), with the
   * upload's content type in the document as Convex keeps it. Returns the storage id.
   */
  async storeUpload(bytes: Uint8Array, contentType: string | null): Promise<string> {
    const record = newCallRecord(this, "storage upload");
    const started = performance.now();
    const blob = new Blob([new Uint8Array(bytes)], contentType ? { type: contentType } : {});
    const storageId = await runInRecord(record, () =>
      this.t.run(async (ctx) => (await ctx.storage.store(blob)) as unknown as string),
    );
    if (contentType) {
      await this.t.run(() => {
        const doc = this.db._documents[storageId];
        if (doc) this.db._documents[storageId] = { ...doc, contentType };
        return Promise.resolve();
      });
    }
    this.recordStats(record.udfPath, "http", record, performance.now() - started, false);
    return storageId;
  }

  /** The app's tables: those the schema declares and any holding documents (not system tables). */
  tableNames(): string[] {
    const names = new Set(Object.keys(this.schema?.tables ?? {}));
    for (const id of Object.keys(this.db._documents)) {
      const table = tableFromId(id);
      if (table && !table.startsWith("_")) names.add(table);
    }
    return [...names].sort();
  }

  /** A stored file and its content type, or null when there is no such file. */
  storedFile(storageId: string): { blob: Blob; contentType: string | null } | null {
    const doc = this.db._documents[storageId];
    const blob = this.db._storage[storageId];
    if (!doc || tableFromId(storageId) !== "_storage" || !blob) return null;
    return { blob, contentType: typeof doc.contentType === "string" ? doc.contentType : null };
  }

  /** Runs an HTTP action from `convex/http.ts`. `pathAndQuery` starts with `/`. */
  async fetchHttp(pathAndQuery: string, init: RequestInit, identity: Identity | null): Promise<Response> {
    const record = newCallRecord(this, `http ${init.method ?? "GET"} ${pathAndQuery.split("?")[0]}`);
    const started = performance.now();
    let failed = false;
    try {
      const accessor = identity ? this.t.withIdentity(identity) : this.t;
      return await runInRecord(record, () => accessor.fetch(pathAndQuery, init));
    } catch (e) {
      failed = true;
      const { errorMessage } = describeError(e);
      record.logLines.push(`[ERROR] ${errorMessage}`);
      return new Response(errorMessage, { status: 500 });
    } finally {
      this.recordStats(record.udfPath, "http", record, performance.now() - started, failed);
      for (const line of record.logLines) this.logListener(line, record.udfPath);
    }
  }

  private recordStats(
    udfPath: string,
    kind: FunctionStats["kind"],
    record: CallRecord,
    durationMs: number,
    failed: boolean,
  ): void {
    let stats = this.stats.get(udfPath);
    if (!stats) {
      stats = {
        kind,
        calls: 0,
        errors: 0,
        totalMs: 0,
        maxMs: 0,
        docsRead: 0,
        docsWritten: 0,
        maxDocsRead: 0,
        readTables: [],
        writeTables: [],
      };
      this.stats.set(udfPath, stats);
    }
    stats.calls += 1;
    if (failed) stats.errors += 1;
    stats.totalMs += durationMs;
    stats.maxMs = Math.max(stats.maxMs, durationMs);
    stats.docsRead += record.docsRead;
    stats.docsWritten += record.docsWritten;
    stats.maxDocsRead = Math.max(stats.maxDocsRead, record.docsRead);
    stats.readTables = [...new Set([...stats.readTables, ...record.readTables])].sort();
    stats.writeTables = [...new Set([...stats.writeTables, ...record.writeTables])].sort();
  }

  getStats(): EngineStats {
    return { functions: Object.fromEntries([...this.stats].map(([path, s]) => [path, { ...s }])) };
  }

  resetStats(): void {
    this.stats.clear();
  }

  /** A consistent copy of the committed data, taken while no transaction runs. */
  async exportState(): Promise<EngineState> {
    // Read inside `run` (no transaction in between) but handed out by closure: `run` converts what it
    // returns to Convex values, and stored files are Blobs.
    let state: EngineState | undefined;
    await this.t.run(() => {
      state = this.readState();
      return Promise.resolve(null);
    });
    return state!;
  }

  private readState(): EngineState {
    const db = this.db;
    return {
      documents: { ...db._documents },
      nextDocId: db._nextDocId,
      lastCreationTime: db._lastCreationTime,
      lastCommitTs: this.internals.transactionManager._lastCommitTs,
      storage: { ...db._storage },
    };
  }

  private importState(state: EngineState): void {
    const db = this.db;
    db._documents = { ...state.documents };
    db._nextDocId = Math.max(db._nextDocId, state.nextDocId);
    db._lastCreationTime = Math.max(db._lastCreationTime, state.lastCreationTime);
    db._storage = { ...state.storage };
    const tm = this.internals.transactionManager;
    if (state.lastCommitTs > tm._lastCommitTs) tm._lastCommitTs = state.lastCommitTs;
  }

  /**
   * Restored scheduled functions have no timers in this engine: start them (keeping their ids), and
   * fail the ones that were running when the data was saved.
   */
  resumeScheduledFunctions(): void {
    const db = this.db;
    for (const [id, doc] of Object.entries(db._documents)) {
      if (tableFromId(id) !== "_scheduled_functions") continue;
      const state = doc.state as { kind?: string } | undefined;
      if (state?.kind === "inProgress") {
        db._documents[id] = { ...doc, state: { kind: "failed" }, completedTime: Date.now() };
      } else if (state?.kind === "pending") {
        const delay = Math.max(0, Number(doc.scheduledTime) - Date.now());
        inRootScope(() => {
          const timer = setTimeout(() => {
            this.resumedTimers.delete(timer);
            void this.runResumedJob(id);
          }, delay);
          timer.unref?.();
          this.resumedTimers.add(timer);
        });
      }
    }
  }

  private async runResumedJob(jobId: string): Promise<void> {
    if (this.disposed) return;
    const db = this.db;
    const job = await this.t.run(() => {
      const doc = db._documents[jobId];
      if (!doc || (doc.state as { kind?: string }).kind !== "pending") return Promise.resolve(null);
      db._documents[jobId] = { ...doc, state: { kind: "inProgress" } };
      return Promise.resolve(doc);
    });
    if (!job) return;
    this.onWrite("_scheduled_functions", false);
    const name = typeof job.name === "string" ? job.name : "";
    const args = ((job.args as Value[] | undefined) ?? [{}])[0] ?? {};
    const outcome = await this.call(name, args);
    if (!outcome.success) this.logListener(`[ERROR] ${outcome.errorMessage}`, name);
    for (const line of outcome.logLines) this.logListener(line, name);
    await this.t.run(() => {
      const doc = db._documents[jobId];
      if (doc) {
        db._documents[jobId] = outcome.success
          ? { ...doc, state: { kind: "success" } }
          : { ...doc, state: { kind: "failed" }, completedTime: Date.now() };
      }
      return Promise.resolve();
    });
    this.onWrite("_scheduled_functions", false);
  }

  /**
   * Stops this engine before a replacement takes over its data: waits for running scheduled
   * functions, then cancels (in this engine only) the ones still pending so their timers do nothing.
   */
  async dispose(beforeCancel?: () => Promise<void>): Promise<void> {
    await this.t.finishInProgressScheduledFunctions();
    this.disposed = true;
    // The last changes go to disk now (`beforeCancel`); the cancellations below are this engine's
    // alone (the jobs stay pending in the store, and the next engine or start resumes them).
    await beforeCancel?.();
    this.changeListener = null;
    for (const timer of this.resumedTimers) clearTimeout(timer);
    this.resumedTimers.clear();
    await this.t.run(() => {
      const db = this.db;
      for (const [id, doc] of Object.entries(db._documents)) {
        if (
          tableFromId(id) === "_scheduled_functions" &&
          (doc.state as { kind?: string }).kind === "pending"
        ) {
          db._documents[id] = { ...doc, state: { kind: "canceled" } };
        }
      }
      return Promise.resolve();
    });
    this.changedDocuments.clear();
    this.changedFiles.clear();
  }

  /** Waits until scheduled functions that already started have finished. */
  async finishInProgressScheduledFunctions(): Promise<void> {
    await this.t.finishInProgressScheduledFunctions();
  }
}

type SystemFunction = (engine: LocalBackendEngine, args: Value) => Promise<Value>;

/** The system queries the Convex CLI runs with an admin key, by canonical path. */
const SYSTEM_FUNCTIONS: Partial<Record<string, SystemFunction>> = {
  "_system/cli/tables:default": (engine) => {
    const page = engine.tableNames().map((name) => ({ name }));
    return Promise.resolve({ page, isDone: true, continueCursor: "_end_cursor" });
  },
  "_system/cli/tableData:default": async (engine, args) => {
    const { table, order, paginationOpts } = (args ?? {}) as {
      table?: unknown;
      order?: unknown;
      paginationOpts?: { cursor: string | null; numItems: number };
    };
    if (typeof table !== "string" || !engine.tableNames().includes(table)) {
      throw new Error(`There is no table ${JSON.stringify(table)}.`);
    }
    const direction = order === "asc" ? "asc" : "desc";
    const opts = {
      cursor: paginationOpts?.cursor ?? null,
      numItems: Math.min(paginationOpts?.numItems ?? 100, 8192),
    };
    return (await engine.t.run(
      async (ctx) =>
        await ctx.db
          .query(table as never)
          .order(direction)
          .paginate(opts),
    )) as unknown as Value;
  },
};

function runByKind(accessor: Accessor, kind: FunctionKind, udfPath: string, args: Value): Promise<Value> {
  const fnArgs = args as Record<string, Value>;
  switch (kind) {
    case "query":
      return accessor.query(makeFunctionReference<"query", Record<string, Value>, Value>(udfPath), fnArgs);
    case "mutation":
      return accessor.mutation(
        makeFunctionReference<"mutation", Record<string, Value>, Value>(udfPath),
        fnArgs,
      );
    case "action":
      return accessor.action(makeFunctionReference<"action", Record<string, Value>, Value>(udfPath), fnArgs);
  }
}

function journalEndCursor(journal: string | null): string | null {
  if (!journal) return null;
  try {
    const parsed = JSON.parse(journal) as { endCursor?: unknown };
    return typeof parsed.endCursor === "string" ? parsed.endCursor : null;
  } catch {
    return null;
  }
}

/** `/convex/dir/file.ts` -> `dir/file`, relative to the folder holding `_generated`. */
function indexModules(modules: ModulesMap): Map<string, ModuleLoader> {
  const keys = Object.keys(modules);
  const generated = keys.find((key) => key.includes("_generated"));
  if (generated === undefined) {
    throw new Error('local-backend: the modules map has no "_generated" files (run `npm run codegen`).');
  }
  const prefix = generated.split("_generated", 2)[0];
  const index = new Map<string, ModuleLoader>();
  for (const key of keys) {
    if (!key.startsWith(prefix)) continue;
    index.set(key.slice(prefix.length).replace(/\.[^./]+$/, ""), modules[key]);
  }
  return index;
}

/** Creates the engine (the brief's name for it). */
export async function createLocalBackend(options: EngineOptions): Promise<LocalBackendEngine> {
  return await LocalBackendEngine.create(options);
}
