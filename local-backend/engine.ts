/**
 * The engine: the project's Convex functions run in-process by the runner (`runner.ts`) on the
 * SQLite store (`store.ts`), with what Convex adds around a call: public/internal checks, canonical
 * paths, error shapes, log lines, statistics, the system functions the Convex CLI calls.
 */
import { AsyncResource } from "node:async_hooks";
import { existsSync } from "node:fs";
import path from "node:path";
import type { GenericSchema, SchemaDefinition, UserIdentity } from "convex/server";
import { convexToJson, jsonToConvex, type JSONValue, type Value } from "convex/values";
import {
  installConsoleCapture,
  newCallRecord,
  runInRecord,
  type CallOwner,
  type CallRecord,
} from "./instrument.ts";
import { canonicalizeUdfPath, splitUdfPath } from "./paths.ts";
import {
  ConvexSystemError,
  Runner,
  type ComponentDefinition,
  type FunctionKind,
  type RunnerOwner,
  type SessionRequest,
} from "./runner.ts";
import { installedComponents } from "./components.ts";
import { SqliteStore, type ComponentPath, type TableIndexes } from "./store.ts";
import type { ValidatorJson } from "./validate.ts";
import type { ReadSet, WriteSet } from "./read-set.ts";

export type { FunctionKind } from "./runner.ts";
export type ModuleLoader = () => Promise<Record<string, unknown>>;
/** Keys like `/convex/messages.ts`, including the `_generated` files. */
export type ModulesMap = Record<string, ModuleLoader>;
export type AnySchema = SchemaDefinition<GenericSchema, boolean>;

export type FunctionInfo = { kind: FunctionKind; visibility: "public" | "internal" };
export type Identity = Partial<UserIdentity> & Record<string, unknown>;

/** A call's result or error; `json` is the result as Convex's JSON text, encoded once. */
type CallResult =
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
  /** The timestamp of its last commit, as the subscriptions know it (null: it reported none). */
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
  /** The caller reports the call's writes when it ends (instead of on commit). */
  deferWrites?: boolean;
  /** Refuse internal functions (client requests). */
  publicOnly?: boolean;
  /** Expect this kind (client requests name the kind); `undefined` runs whatever the function is. */
  kind?: FunctionKind;
  /** Called with the admin key: the CLI's system functions are available. */
  admin?: boolean;
  /** A sync client's mutation: answered once per session and request id (decision 056). */
  sessionRequest?: SessionRequest;
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

export type EngineOptions = {
  schema?: AnySchema;
  modules: ModulesMap;
  /** The folder of the app's package.json, where its components' packages resolve (default: cwd). */
  appRoot?: string;
  /** The functions folder, holding `convex.config.ts` (default: `<appRoot>/convex`; null: no components). */
  functionsDir?: string | null;
  /** Where the data lives (default: a new in-memory store). */
  store?: SqliteStore;
};

/** Server-side work (timers) starts from here, outside any function's context. */
const rootScope = new AsyncResource("livelocal-local-backend");

export function inRootScope<T>(fn: () => T): T {
  return rootScope.runInAsyncScope(fn);
}

/** The system tables every component has, with the indexes the backend itself uses. */
const SYSTEM_TABLES: TableIndexes[] = [
  {
    table: "_scheduled_functions",
    indexes: [{ indexDescriptor: "by_state", fields: ["state.kind", "scheduledTime"] }],
    searchIndexes: [],
  },
  { table: "_storage", indexes: [], searchIndexes: [] },
];

type SchemaExport = {
  tables: {
    tableName: string;
    indexes: { indexDescriptor: string; fields: string[] }[];
    searchIndexes: { indexDescriptor: string; searchField: string; filterFields: string[] }[];
    documentType: ValidatorJson | null;
  }[];
  schemaValidation: boolean;
};

/** A component's tables and validators from its schema (none: no validation, no declared indexes). */
export function describeSchema(
  schema: AnySchema | undefined,
): Pick<ComponentDefinition, "validators" | "tables"> {
  const exported: SchemaExport = schema
    ? (JSON.parse((schema as unknown as { export(): string }).export()) as SchemaExport)
    : { tables: [], schemaValidation: false };
  const validators = new Map<string, ValidatorJson>();
  const tables: TableIndexes[] = [...SYSTEM_TABLES];
  for (const table of exported.tables) {
    tables.push({ table: table.tableName, indexes: table.indexes, searchIndexes: table.searchIndexes });
    if (exported.schemaValidation && table.documentType && table.documentType.type !== "any") {
      validators.set(table.tableName, table.documentType);
    }
  }
  return { validators, tables };
}

const CONVEX_ERROR = Symbol.for("ConvexError");

function isConvexError(e: unknown): e is Error & { data: Value } {
  return typeof e === "object" && e !== null && CONVEX_ERROR in e;
}

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

export class LocalBackendEngine implements RunnerOwner {
  schema: AnySchema | undefined;
  readonly store: SqliteStore;
  readonly runner: Runner;
  private modulesByPath: Map<string, ModuleLoader>;
  private readonly stats = new Map<string, FunctionStats>();
  private writeListener: ((writes: WriteSet) => bigint) | null = null;
  private logListener: (line: string, udfPath: string) => void = (line, udfPath) => {
    process.stdout.write(`[convex ${udfPath}] ${line}\n`);
  };
  fileUrls: CallOwner["fileUrls"] = null;

  private components = new Map<ComponentPath, ComponentDefinition>();
  private readonly appRoot: string;
  private readonly functionsDir: string | null;

  private constructor(options: EngineOptions) {
    this.schema = options.schema;
    this.modulesByPath = indexModules(options.modules);
    this.appRoot = options.appRoot ?? process.cwd();
    this.functionsDir =
      options.functionsDir === undefined ? path.join(this.appRoot, "convex") : options.functionsDir;
    this.store = options.store ?? SqliteStore.open(null);
    this.runner = new Runner(this.store, new Map(), this);
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
        const loadSchema = installed.modules.get("schema");
        const schema = loadSchema ? ((await loadSchema()).default as AnySchema | undefined) : undefined;
        components.set(installed.path, {
          path: installed.path,
          loadModule: async (modulePath) => {
            const load = installed.modules.get(modulePath);
            return load ? await load() : null;
          },
          ...describeSchema(schema),
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

  // -- RunnerOwner ---------------------------------------------------------------------------

  /** Called with what each transaction wrote that no waiting call reports itself. */
  setWriteListener(listener: (writes: WriteSet) => bigint): void {
    this.writeListener = listener;
  }

  setLogListener(listener: (line: string, udfPath: string) => void): void {
    this.logListener = listener;
  }

  onCommit(writes: WriteSet): bigint | null {
    return this.writeListener?.(writes) ?? null;
  }

  onWrite(): void {
    // Writes are reported per committed transaction (onCommit).
  }

  onBackgroundLog(line: string, udfPath: string): void {
    this.logListener(line, udfPath);
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
      deferWrites: options.deferWrites,
      journalEndCursor: journalEndCursor(options.journal ?? null),
    });
    const started = performance.now();
    let outcome: CallResult;
    let kind: FunctionKind | null = null;
    try {
      const system = SYSTEM_FUNCTIONS[canonical];
      const info = system ? null : await this.describe(canonical);
      if (system && (options.admin || !options.publicOnly)) {
        // What the Convex CLI asks an admin-authenticated deployment (`npx convex data`).
        kind = "query";
        const value = await runInRecord(record, () => system(this, args));
        outcome = valueResult(value);
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
    if (kind && !record.replayed) this.recordStats(canonical, kind, record, durationMs, !outcome.success);
    return {
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
  }

  /**
   * Stores an uploaded file as `ctx.storage.store` does: the file on disk (flushed), then its
   * `_storage` document committed, before this resolves. Returns the storage id.
   */
  async storeUpload(bytes: Uint8Array, contentType: string | null): Promise<string> {
    const record = newCallRecord(this, "storage upload");
    const started = performance.now();
    try {
      return await runInRecord(record, () => this.runner.storeFile(null, bytes, contentType));
    } finally {
      this.recordStats(record.udfPath, "http", record, performance.now() - started, false);
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

  /** A stored file and its content type, or null when there is no such file. */
  storedFile(storageId: string): { blob: Blob; contentType: string | null } | null {
    const file = this.runner.fileContents(storageId);
    if (!file) return null;
    return {
      blob: new Blob([new Uint8Array(file.bytes)], file.contentType ? { type: file.contentType } : {}),
      contentType: file.contentType,
    };
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
      const router = (await this.loadModule("http"))?.default as
        | {
            lookup(
              path: string,
              method: string,
            ): [{ invokeHttpAction(r: Request): Promise<Response> }, string, string] | null;
          }
        | undefined;
      const match = router?.lookup?.(pathname, method) ?? null;
      if (!match) return new Response(`No HttpAction routed for ${pathname}`, { status: 404 });
      const request = new Request(`http://127.0.0.1${pathAndQuery}`, init);
      return await runInRecord(record, () =>
        this.runner.runHttp(record.udfPath, identity, record, () => match[0].invokeHttpAction(request)),
      );
    } catch (e) {
      failed = true;
      const { errorMessage } = describeError(e);
      record.logLines.push(`[ERROR] ${errorMessage}`);
      return new Response(errorMessage, { status: 500 });
    } finally {
      record.active = false;
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
    stats.writeTables = [...new Set([...stats.writeTables, ...record.writes.tables])].sort();
  }

  getStats(): EngineStats {
    return { functions: Object.fromEntries([...this.stats].map(([path, s]) => [path, { ...s }])) };
  }

  resetStats(): void {
    this.stats.clear();
  }

  /** Starts the scheduled functions the store holds (after a start). */
  async resumeScheduledFunctions(): Promise<void> {
    await this.runner.resumeScheduledFunctions();
  }

  /** Stops starting scheduled functions and waits for running ones (pending ones stay in the store). */
  async dispose(): Promise<void> {
    this.runner.stop();
    await this.runner.finishInProgressScheduledFunctions();
  }

  /** Waits until scheduled functions that already started have finished. */
  async finishInProgressScheduledFunctions(): Promise<void> {
    await this.runner.finishInProgressScheduledFunctions();
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
