/**
 * The engine: the project's Convex functions run in-process by the runner (`runner.ts`) on the
 * SQLite store (`store.ts`), with what Convex adds around a call: public/internal checks, canonical
 * paths, error shapes, log lines, statistics, the system functions the Convex CLI calls.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { convexToJson, type Value } from "convex/values";
import { Clock } from "../core/protocol.ts";
import { canonicalizeUdfPath, displayUdfPath, splitUdfPath } from "../core/paths.ts";
import { SqliteStore } from "../database/store.ts";
import type { ComponentPath } from "../storage/document.ts";
import { CommitLog } from "../database/commit-log.ts";
import { ConvexSystemError } from "../database/transaction.ts";
import { installConsoleCapture, newCallRecord, runInRecord, type CallOwner } from "./instrument.ts";
import { Runner } from "./runner.ts";
import type { SchedulerBacklog } from "./scheduled-functions.ts";
import { installedComponents, loadComponentModules } from "./components.ts";
import type { HttpRouter } from "./convex-abi.ts";
import type { ComponentDefinition, FunctionKind, Identity } from "./execution.ts";
import { registerFunctionsFolder } from "./error-frames.ts";
import {
  describeError,
  httpActionFailure,
  valueResult,
  type CallOptions,
  type CallOutcome,
  type CallResult,
} from "./call-outcome.ts";
import { describeSchema, type AnySchema } from "./schema.ts";
import { FileStorageError } from "./storage-rules.ts";
import type { StoredFile, StoreOptions } from "./storage-syscalls.ts";
import { FunctionStatsTable, type EngineStats } from "./stats.ts";

export type ModuleLoader = () => Promise<Record<string, unknown>>;
/** Keys like `/convex/messages.ts`, including the `_generated` files. */
export type ModulesMap = Record<string, ModuleLoader>;

export type FunctionInfo = { kind: FunctionKind; visibility: "public" | "internal" };

export type EngineOptions = {
  schema?: AnySchema;
  modules: ModulesMap;
  /** The folder of the app's package.json, where its components' packages resolve (default: cwd). */
  appRoot?: string;
  /** The functions folder, holding `convex.config.ts` (default: `<appRoot>/convex`; null: no components). */
  functionsDir?: string | null;
  /** Where the data lives (default: a new in-memory store). */
  store?: SqliteStore;
  /** Where commits are published (default: a log of its own, on a clock of its own). */
  commits?: CommitLog;
  /**
   * Loads a component's bundled module (its file URL) whose functions are called: in isolates for a
   * served backend (isolate/pool.ts); default: `import()` on this thread.
   */
  componentModule?: (href: string) => Promise<Record<string, unknown>>;
};

/** A module imported on this thread. */
const importHere = async (href: string) => (await import(href)) as Record<string, unknown>;

/**
 * A query the layers above answer themselves (the Convex CLI's `_system/cli/…`: their state is not
 * documents), with the (pseudo) tables it reads, so a subscription to it re-runs when a commit
 * writes them.
 */
export type SystemQuery = {
  run: (args: Record<string, unknown>) => Promise<Value> | Value;
  readTables: string[];
};

/** Told of every call that ran (or was refused), once it is over; not of a re-sent one answered again. */
export type CallListener = (outcome: CallOutcome, kind: FunctionKind | undefined) => void;

/** A function's failure, whichever path ran it: its path, kind, error text, and whether it is a ConvexError. */
export type FunctionFailure = {
  udfPath: string;
  kind: FunctionKind | "http" | undefined;
  errorMessage: string;
  /** Thrown on purpose (`ConvexError`): the app's answer, not a fault. */
  convexError: boolean;
};

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

/** Convex's words (crates/udf/src/validation.rs `missing_or_internal_error`, as its tests at 57a69075 expect). */
function notFound(udfPath: string): string {
  return `Could not find public function for '${udfPath}'. Did you forget to run \`npx convex dev\`?`;
}

const KIND_NAMES: Record<FunctionKind, string> = { query: "Query", mutation: "Mutation", action: "Action" };

export class LocalBackendEngine implements CallOwner {
  schema: AnySchema | undefined;
  readonly store: SqliteStore;
  readonly runner: Runner;
  private modulesByPath: Map<string, ModuleLoader>;
  private readonly stats = new FunctionStatsTable();
  private logListener: (line: string, udfPath: string) => void = (line, udfPath) => {
    process.stdout.write(`[convex ${udfPath}] ${line}\n`);
  };
  fileUrls: CallOwner["fileUrls"] = null;
  private systemQueries: (udfPath: string) => SystemQuery | null = () => null;
  private callListener: CallListener | null = null;
  private failureListener: ((failure: FunctionFailure) => void) | null = null;

  private components = new Map<ComponentPath, ComponentDefinition>();
  private readonly appRoot: string;
  private readonly functionsDir: string | null;
  private readonly componentModule: (href: string) => Promise<Record<string, unknown>>;

  private constructor(options: EngineOptions) {
    this.componentModule = options.componentModule ?? importHere;
    this.schema = options.schema;
    this.modulesByPath = indexModules(options.modules);
    this.appRoot = options.appRoot ?? process.cwd();
    this.functionsDir =
      options.functionsDir === undefined ? path.join(this.appRoot, "convex") : options.functionsDir;
    if (this.functionsDir) registerFunctionsFolder(this.functionsDir);
    this.store = options.store ?? SqliteStore.open(null);
    this.runner = new Runner(this.store, new Map(), this, options.commits ?? new CommitLog(new Clock()));
  }

  static async create(options: EngineOptions): Promise<LocalBackendEngine> {
    installConsoleCapture();
    const engine = new LocalBackendEngine(options);
    await engine.loadComponents();
    return engine;
  }

  /**
   * The root app and the components `convex.config.ts` installs, each with its schema's tables;
   * then each component's indexes are brought in line with its schema.
   */
  private async loadComponents(): Promise<void> {
    const root: ComponentDefinition = {
      path: "",
      loadModule: (modulePath) => this.loadModule(modulePath),
      ...describeSchema(this.schema),
      children: new Map(),
    };
    const components = new Map<ComponentPath, ComponentDefinition>([["", root]]);
    const functionsDir = this.functionsDir;
    const configFile = functionsDir
      ? ["convex.config.ts", "convex.config.js"]
          .map((name) => path.join(functionsDir, name))
          .find((file) => existsSync(file))
      : undefined;
    if (configFile) {
      for (const installed of await installedComponents(configFile, this.appRoot)) {
        if (installed.path === "") {
          root.children = installed.children;
          continue;
        }
        // The schema is read here (its tables are the database's); the functions run where they load.
        const { schema: schemaModule, ...functions } = Object.fromEntries(installed.modules);
        if (schemaModule && "error" in schemaModule) throw schemaModule.error;
        const schema = schemaModule ? (await importHere(schemaModule.href)).default : undefined;
        const loaders = await loadComponentModules(
          { ...installed, modules: new Map(Object.entries(functions)) },
          this.componentModule,
        );
        components.set(installed.path, {
          path: installed.path,
          loadModule: async (modulePath) => {
            const load = loaders.get(modulePath);
            return load ? await load() : null;
          },
          ...describeSchema(schema as AnySchema | undefined),
          children: installed.children,
        });
      }
    }
    this.components = components;
    this.runner.setComponents(components);
    for (const [path, component] of components) {
      const built = this.store.syncIndexes(path, component.tables);
      if (built.length > 0 && !this.store.fresh) {
        const where = path ? ` of component ${path}` : "";
        console.log(
          `local-backend: built ${built.length === 1 ? "index" : "indexes"} ${built.join(", ")}${where}`,
        );
      }
    }
  }

  /** The installed components' paths (the root app is ""). */
  componentPaths(): string[] {
    return [...this.components.keys()];
  }

  /** Function files changed (same schema and files): calls load them anew. */
  functionsChanged(): void {
    this.runner.functionsChanged();
  }

  /** New functions and schema (a reload): indexes the schema adds or changes are built now. */
  async setFunctions(schema: AnySchema | undefined, modules: ModulesMap): Promise<void> {
    await this.runner.exclusive(() => {
      this.schema = schema;
      this.modulesByPath = indexModules(modules);
    });
    await this.loadComponents();
  }

  // -- CallOwner -----------------------------------------------------------------------------

  setLogListener(listener: (line: string, udfPath: string) => void): void {
    this.logListener = listener;
  }

  onBackgroundLog(line: string, udfPath: string): void {
    this.logListener(line, udfPath);
  }

  /** The queries the layers above answer (by canonical path), run for admins as system functions. */
  setSystemQueries(lookup: (udfPath: string) => SystemQuery | null): void {
    this.systemQueries = lookup;
  }

  setCallListener(listener: CallListener): void {
    this.callListener = listener;
  }

  /** Hears every function that fails (calls, scheduled jobs, crons, HTTP actions), in its request's context. */
  setFailureListener(listener: (failure: FunctionFailure) => void): void {
    this.failureListener = listener;
  }

  // -- Functions -----------------------------------------------------------------------------

  hasModule(modulePath: string): boolean {
    return this.modulesByPath.has(modulePath);
  }

  async loadModule(modulePath: string): Promise<Record<string, unknown> | null> {
    const loader = this.modulesByPath.get(modulePath);
    return loader ? await loader() : null;
  }

  /** What a function is, or null when there is no such Convex function. */
  async describe(udfPath: string): Promise<FunctionInfo | null> {
    const { modulePath } = splitUdfPath(udfPath);
    let fn;
    try {
      fn = await this.runner.resolve("", udfPath);
    } catch (e) {
      throw new Error(`Failed to load convex/${modulePath}: ${e instanceof Error ? e.message : String(e)}`, {
        cause: e,
      });
    }
    if (!fn) return null;
    const kind: FunctionKind = fn.isQuery ? "query" : fn.isMutation ? "mutation" : "action";
    return { kind, visibility: fn.isPublic ? "public" : "internal" };
  }

  /** Runs a Convex function by path. Never throws for a function's own failure. */
  async call(udfPath: string, args: Value, options: CallOptions = {}): Promise<CallOutcome> {
    const canonical = canonicalizeUdfPath(udfPath);
    const record = newCallRecord(this, canonical, {
      journalEndCursor: journalEndCursor(options.journal ?? null),
    });
    const started = performance.now();
    let outcome: CallResult;
    let kind: FunctionKind | null = null;
    try {
      const system = SYSTEM_FUNCTIONS[canonical];
      const above = system ? null : this.systemQueries(canonical);
      const info = system || above ? null : await this.describe(canonical);
      if (system && (options.admin || !options.publicOnly)) {
        // What the Convex CLI asks an admin-authenticated deployment (`npx convex data`).
        kind = "query";
        const value = await runInRecord(record, () => system(this, args));
        outcome = valueResult(value);
      } else if (above && (options.admin || !options.publicOnly)) {
        for (const table of above.readTables) {
          record.readTables.add(table);
          record.reads.addTable(table);
        }
        const fields = isArgumentsObject(args) ? args : {};
        outcome = valueResult(await above.run(fields));
      } else if (!info || (options.publicOnly && info.visibility !== "public")) {
        outcome = { success: false, errorMessage: notFound(displayUdfPath(canonical)) };
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
        const { value, json } = await this.runner.run(
          {
            udfPath: canonical,
            args,
            identity: options.identity ?? null,
            kind: info.kind,
            sessionRequest: options.sessionRequest,
          },
          record,
        );
        outcome = { success: true, value, json };
      }
    } catch (e) {
      outcome = { success: false, ...describeError(e) };
    } finally {
      record.active = false;
    }
    const durationMs = performance.now() - started;
    if (kind && !record.replayed) this.stats.record(canonical, kind, record, durationMs, !outcome.success);
    const result: CallOutcome = {
      ...outcome,
      udfPath: canonical,
      logLines: record.logLines,
      readTables: record.readTables,
      reads: record.reads.seal(),
      writes: record.writes,
      commitTs: record.commitTs,
      replayed: record.replayed,
      docsRead: record.docsRead,
      docsWritten: record.docsWritten,
      journal:
        record.observedEndCursor === null ? null : JSON.stringify({ endCursor: record.observedEndCursor }),
      durationMs,
    };
    if (!record.replayed) this.callListener?.(result, kind ?? options.kind);
    if (!outcome.success && !record.replayed) {
      this.failureListener?.({
        udfPath: canonical,
        kind: kind ?? options.kind,
        errorMessage: outcome.errorMessage,
        convexError: outcome.errorData !== undefined,
      });
    }
    return result;
  }

  /**
   * Stores an uploaded file as `ctx.storage.store` does: the file on disk (flushed), then its
   * `_storage` document committed, before this resolves. Returns the storage id.
   */
  async storeUpload(
    bytes: Uint8Array,
    contentType: string | null,
    options: StoreOptions = {},
  ): Promise<string> {
    if (!this.components.has(options.component ?? "")) {
      throw new FileStorageError("InvalidStorageToken", "Invalid component ID");
    }
    const record = newCallRecord(this, "storage upload");
    const started = performance.now();
    try {
      return await runInRecord(record, () => this.runner.files.storeFile(null, bytes, contentType, options));
    } finally {
      this.stats.record(record.udfPath, "http", record, performance.now() - started, false);
    }
  }

  /** The app's tables: those the schema declares and any holding documents (not system tables). */
  tableNames(): string[] {
    const names = new Set(Object.keys(this.schema?.tables ?? {}));
    for (const table of this.store.tableNames("")) if (!table.startsWith("_")) names.add(table);
    return [...names].sort();
  }

  /** How many documents `table` holds. */
  documentCount(table: string): number {
    return this.store.count("", table);
  }

  /** A stored file of `component`, or null when it has no such file. */
  storedFile(storageId: string, component: ComponentPath = ""): StoredFile | null {
    return this.runner.files.fileContents(storageId, component);
  }

  /**
   * Runs an HTTP action from `convex/http.ts`. `pathAndQuery` starts with `/`. An Error for the identity
   * (a refused token) is what the action's `ctx.auth.getUserIdentity()` throws.
   */
  async fetchHttp(
    pathAndQuery: string,
    init: RequestInit,
    identity: Identity | Error | null,
  ): Promise<Response> {
    const pathname = pathAndQuery.split("?")[0];
    const method = (init.method ?? "GET").toUpperCase();
    const record = newCallRecord(this, `http ${method} ${pathname}`);
    const started = performance.now();
    let failed = false;
    try {
      const router = (await this.loadModule("http"))?.default as HttpRouter | undefined;
      const match = router?.lookup?.(pathname, method) ?? null;
      if (!match) return new Response(`No HttpAction routed for ${pathname}`, { status: 404 });
      const request = new Request(`http://127.0.0.1${pathAndQuery}`, init);
      return await runInRecord(record, () =>
        this.runner.runHttp(record.udfPath, identity, record, () => match[0].invokeHttpAction(request)),
      );
    } catch (e) {
      failed = true;
      const described = describeError(e);
      record.logLines.push(`[ERROR] ${described.errorMessage}`);
      this.failureListener?.({
        udfPath: record.udfPath,
        kind: "http",
        errorMessage: described.errorMessage,
        convexError: described.errorData !== undefined,
      });
      return httpActionFailure(e);
    } finally {
      record.active = false;
      this.stats.record(record.udfPath, "http", record, performance.now() - started, failed);
      for (const line of record.logLines) this.logListener(line, record.udfPath);
    }
  }

  getStats(): EngineStats {
    return this.stats.get();
  }

  resetStats(): void {
    this.stats.reset();
  }

  /** Scheduled functions waiting, due and running (the metrics; in memory, no read). */
  schedulerBacklog(now = Date.now()): SchedulerBacklog {
    return this.runner.scheduled.backlog(now);
  }

  /** Whether scheduled functions are being started (false once stopped). */
  get schedulerRunning(): boolean {
    return this.runner.scheduled.running;
  }

  /** Starts the scheduled functions the store holds (after a start). */
  async resumeScheduledFunctions(): Promise<void> {
    await this.runner.scheduled.resumeScheduledFunctions();
  }

  /** Stops starting scheduled functions and waits for running ones (pending ones stay in the store). */
  async dispose(): Promise<void> {
    this.runner.scheduled.stop();
    await this.runner.scheduled.finishInProgressScheduledFunctions();
  }

  /** Waits until scheduled functions that already started have finished. */
  async finishInProgressScheduledFunctions(): Promise<void> {
    await this.runner.scheduled.finishInProgressScheduledFunctions();
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
      throw new ConvexSystemError(`There is no table ${JSON.stringify(table)}.`);
    }
    const numItems = Math.min(Math.max(1, Number(paginationOpts?.numItems) || 100), 8192);
    return await engine.runner.exclusive(() =>
      engine.runner.pageOfTable(
        "",
        table,
        order === "asc" ? "asc" : "desc",
        paginationOpts?.cursor ?? null,
        numItems,
      ),
    );
  },
};

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
