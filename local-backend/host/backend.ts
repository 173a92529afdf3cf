/**
 * The backend as a whole: engine (on its store) + subscriptions + sync + HTTP + auth + crons +
 * reloads, independent of how it is served (the Vite plugin or the standalone server).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import path from "node:path";
import type { Value } from "convex/values";
import type { ViteDevServer } from "vite";
import { AccessPolicy, type AccessOptions } from "../api/access.ts";
import { AdminKey } from "../api/admin-key.ts";
import { describeProvider, parseAuthConfig, type Provider } from "../api/auth/providers.ts";
import { LOCAL_ISSUER_ENV, LocalAuth, type IssuedToken, type TokenClaims } from "../api/auth.ts";
import type { LocalAuthKey } from "../api/auth.ts";
import { CliApi } from "../cli/cli-api.ts";
import { ensureGeneratedEnv } from "./generated-env.ts";
import { CronRunner, jobsFromModule } from "../scheduler/cron-runner.ts";
import { LocalBackendEngine, type ModulesMap } from "../runtime/engine.ts";
import type { CallOptions, CallOutcome } from "../runtime/call-outcome.ts";
import type { FunctionFailure } from "../runtime/engine.ts";
import type { SchedulerBacklog } from "../runtime/scheduled-functions.ts";
import { AFTER, encodeKey, type FieldValue } from "../values/values.ts";
import type { Identity } from "../runtime/execution.ts";
import type { AnySchema } from "../runtime/schema.ts";
import type { EngineStats } from "../runtime/stats.ts";
import type { StoredFile, StoreOptions } from "../runtime/storage-syscalls.ts";
import { FileUrls } from "../api/file-urls.ts";
import { SITE_PREFIX, createSiteHandler } from "../api/http-actions.ts";
import { createApiMiddleware, type Middleware } from "../api/router.ts";
import {
  createBuiltFunctionSource,
  createViteFunctionSource,
  type FunctionSource,
  type FunctionsChange,
} from "../runtime/modules.ts";
import { Clock } from "../core/protocol.ts";
import { CommitLog } from "../database/commit-log.ts";
import { RecentCommits } from "../database/recent-commits.ts";
import { QueryAtTs } from "../api/query-at-ts.ts";
import type { BackendServices } from "../api/services.ts";
import type { WriteBytes } from "../core/files.ts";
import { SqliteStore } from "../database/store.ts";
import type { FlushFile } from "../storage/wal.ts";
import { SubscriptionManager } from "../live/subscriptions.ts";
import { SyncServer } from "../api/sync.ts";

export type FunctionLogs = "all" | "background" | "none";

/**
 * The internal mutation asked before a local sign-in token is issued, when the functions define it:
 * `{ key }` (the caller's address) in, `{ ok, retryAfterMs }` out.
 */
export const SIGN_IN_LIMIT = "localAuth:limitSignIn";

/**
 * The app's origin as the functions see it (`process.env`), for links they make (e-mails): the public
 * origin, else the origin this backend is served on. A Convex deployment names it with APP_ORIGINS.
 */
export const APP_ORIGIN_ENV = "LIVELOCAL_APP_ORIGIN";

export type LocalBackendCoreOptions = {
  /** The Convex functions folder (default `<cwd>/convex`). */
  functionsDir?: string;
  /**
   * Folders of functions that only this backend runs, keyed as if they were in the functions folder
   * (the benchmark's generators, the e2e suite's fixtures): `npx convex deploy` never sees them.
   */
  extraFunctionsDirs?: readonly string[];
  /** Where data is kept (default `<cwd>/.local-backend`); `null` keeps it in memory only. */
  dataDir?: string | null;
  /** Wipe the data folder first. */
  reset?: boolean;
  /** Load functions through this Vite server (the app's, in the Vite plugin). */
  vite?: ViteDevServer;
  /**
   * The functions folder is the server build's (`dist/.server/convex/`, plain JavaScript; decision 093):
   * loaded by Node itself, without Vite, and never reloaded.
   */
  builtFunctions?: boolean;
  /** Or give the functions directly (no reloads): a modules map with `_generated` keys. */
  modules?: { map: ModulesMap; schema?: AnySchema };
  /** Run `convex/crons.ts` (default true). */
  crons?: boolean;
  /**
   * What an empty store is given: `true` (default, for development) runs `seed:seedReferenceData` then
   * `seed:seedDemoData`, the reference
   * and the demo data; `"reference"` only `seed:seedReferenceData` (metro areas, categories), what a
   * served deployment starts with; `false` nothing.
   */
  seed?: boolean | "reference";
  /** Reload functions when files change (default true). */
  watch?: boolean;
  /** The issuer of local tokens (default `$LIVELOCAL_LOCAL_AUTH_ISSUER` or DEFAULT_LOCAL_ISSUER). */
  authIssuer?: string;
  /** Without a data folder: the key pair that signs local tokens (default: a new one). */
  authKey?: LocalAuthKey;
  /**
   * A token naming a key id a provider's keys lack fetches them again at most once in this time
   * (default 30 s; decision 073). Tests of key rotation set 0.
   */
  jwksCooldownMs?: number;
  /** Which function log lines are printed here: all, only work no client waits for, or none. */
  functionLogs?: FunctionLogs;
  /** Enforce Convex's transaction limits (default true). */
  transactionLimits?: boolean;
  /**
   * Which Host and Origin headers to answer (default: loopback names only), and so whether development
   * sign-in is offered at all (access.ts).
   */
  access?: AccessOptions;
  /**
   * The address people reach this server by (`--public-origin`): file and upload URLs and the links
   * in e-mails name it instead of the served origin, and development sign-in is off.
   */
  publicOrigin?: string;
  /** How the WAL is flushed to disk after a commit (default `fs.fdatasync`; tests hold or fail one). */
  flushFile?: FlushFile;
  /** How stored files' bytes are written (default `fs.writeSync`; tests fail one as a full disk does). */
  writeBytes?: WriteBytes;
  /**
   * Where a function's log line of background work is printed (default: stdout as `[convex path] line`;
   * `npm start --log-format json` prints JSON lines).
   */
  printFunctionLog?: (line: string, udfPath: string) => void;
};

/** What keeps a backend from serving (`readiness`); empty when it is ready. */
export type NotReady = string[];

export type LocalBackendStats = EngineStats & {
  subscriptions: number;
  connections: number;
};

function schemaKeyOf(schema: AnySchema | undefined): string {
  if (!schema) return "none";
  const exporter = (schema as unknown as { export?: () => string }).export;
  return typeof exporter === "function" ? exporter.call(schema) : JSON.stringify(Object.keys(schema.tables));
}

export class LocalBackendCore implements BackendServices {
  readonly clock = new Clock();
  /** Where the engine publishes each commit; the subscriptions listen. */
  readonly commits = new CommitLog(this.clock);
  readonly queryAtTs = new QueryAtTs(new RecentCommits(this.commits), () => this.clock.current());
  readonly subscriptions: SubscriptionManager;
  readonly sync: SyncServer;
  readonly apiMiddleware: Middleware;
  readonly siteHandler: (req: IncomingMessage, res: ServerResponse) => void;
  readonly crons: CronRunner;
  readonly access: AccessPolicy;
  readonly fileUrls: FileUrls;
  readonly adminKey: AdminKey;
  readonly cli: CliApi;
  private currentEngine!: LocalBackendEngine;
  private schemaKey = "none";
  private reloadChain: Promise<void> = Promise.resolve();
  private pendingChanges: FunctionsChange[] = [];
  private reloadTimer: ReturnType<typeof setTimeout> | null = null;
  private unwatch: (() => void) | null = null;
  private stopped = false;
  /** Calls from clients and crons under way (`call`, `fetchHttp`, `storeUpload`), for `drain`. */
  private running = 0;
  private readonly whenIdle: (() => void)[] = [];
  /** Draining before a stop (`drain`): readiness says no, and sync clients' new mutations wait. */
  private draining = false;
  private readonly failureListeners = new Set<(failure: FunctionFailure) => void>();
  /** The process's own value of each variable this backend sets (APP_ORIGIN_ENV, Convex's URLs). */
  private readonly envBefore = new Map<string, string | undefined>();

  private constructor(
    readonly auth: LocalAuth,
    /** Where the data lives (in memory when there is no data folder). */
    readonly store: SqliteStore,
    private readonly source: FunctionSource | null,
    private readonly options: LocalBackendCoreOptions,
    private readonly originOf: () => string,
  ) {
    this.access = new AccessPolicy({ ...options.access, publicOrigin: options.publicOrigin });
    this.cli = new CliApi(this);
    this.fileUrls = new FileUrls(() => this.appOrigin(), store.dir);
    this.adminKey = AdminKey.load(store.dir);
    // Live queries re-run on the engine itself (the CLI's system queries are registered there).
    this.subscriptions = new SubscriptionManager(
      (udfPath, args, callOptions) => this.currentEngine.call(udfPath, args, callOptions),
      this.clock,
      this.commits,
    );
    this.sync = new SyncServer(this);
    this.siteHandler = createSiteHandler(this);
    this.apiMiddleware = createApiMiddleware({
      services: this,
      origin: originOf,
      extraRoutes: { "/local-backend/stats": () => this.stats() },
      site: this.siteHandler,
    });
    this.crons = new CronRunner(
      (udfPath, args) => this.call(udfPath, args, {}),
      (line, udfPath) => this.printBackgroundLog(line, udfPath),
    );
  }

  static async create(options: LocalBackendCoreOptions = {}): Promise<LocalBackendCore> {
    return await LocalBackendCore.createWithOrigin(options, () => "http://127.0.0.1");
  }

  static async createWithOrigin(
    options: LocalBackendCoreOptions,
    origin: () => string,
  ): Promise<LocalBackendCore> {
    const dataDir = options.dataDir === undefined ? path.resolve(".local-backend") : options.dataDir;
    if (options.reset && dataDir) SqliteStore.reset(dataDir);
    // Opened first: a folder another backend is using stops this one before anything else starts.
    // Refusals (`DataFolderError`: a damaged database or key file, a lost database, a read-only
    // folder) come from here and from the keys' loading below, before anything is served.
    const store = SqliteStore.open(dataDir, { flushFile: options.flushFile, writeBytes: options.writeBytes });
    let source: FunctionSource | null = null;
    try {
      const issuer = options.authIssuer ?? process.env[LOCAL_ISSUER_ENV];
      const auth = await LocalAuth.create({
        dataDir: dataDir ?? undefined,
        issuer,
        key: options.authKey,
        verifier: { cooldownMs: options.jwksCooldownMs },
      });
      // The project's auth.config.ts names the local issuer through this variable in local mode.
      process.env[LOCAL_ISSUER_ENV] = auth.issuer;
      const functionsDir = options.functionsDir ?? path.resolve("convex");
      source = options.modules
        ? null
        : options.builtFunctions
          ? createBuiltFunctionSource({ functionsDir })
          : await createViteFunctionSource({
              functionsDir,
              extraDirs: options.extraFunctionsDirs,
              vite: options.vite,
            });
      const core = new LocalBackendCore(auth, store, source, options, origin);
      await core.start();
      return core;
    } catch (e) {
      await source?.close();
      store.close();
      throw e;
    }
  }

  private async loadModule(modulePath: string): Promise<Record<string, unknown> | null> {
    if (this.source) return await this.source.load(modulePath);
    return this.currentEngine ? await this.currentEngine.loadModule(modulePath) : null;
  }

  private async loadSchema(): Promise<AnySchema | undefined> {
    if (this.options.modules) return this.options.modules.schema;
    return (await this.loadModule("schema"))?.default as AnySchema | undefined;
  }

  private modulesMap(): ModulesMap {
    return this.options.modules ? this.options.modules.map : this.source!.modules();
  }

  private async start(): Promise<void> {
    // The deployment's environment variables, before any function runs; a fresh store gets the
    // generated ones (VAPID keys, the unsubscribe secret) first.
    ensureGeneratedEnv(this.store);
    this.cli.start();
    this.originKnown();
    const schema = await this.loadSchema();
    this.schemaKey = schemaKeyOf(schema);
    this.currentEngine = await LocalBackendEngine.create({
      schema,
      modules: this.modulesMap(),
      store: this.store,
      commits: this.commits,
      ...(this.source && { componentModule: (href: string) => this.source!.componentModule(href) }),
      // Given modules (tests) come without components unless a folder is named.
      functionsDir: this.options.functionsDir ?? (this.options.modules ? null : path.resolve("convex")),
    });
    this.wireEngine(this.currentEngine);
    if (!this.store.fresh) await this.currentEngine.resumeScheduledFunctions();
    await this.loadAuthConfig();
    if (this.store.fresh && this.options.seed !== false) await this.seed();
    await this.loadCrons();
    if (this.source && this.options.watch !== false) {
      this.unwatch = this.source.watch((change) => this.onFunctionsChange(change));
    }
  }

  private wireEngine(engine: LocalBackendEngine): void {
    engine.fileUrls = this.fileUrls;
    engine.setSystemQueries((udfPath) => this.cli.systemQuery(udfPath));
    // Every call, whichever path ran it (a client, a subscription's re-run, a cron), for `npx convex logs`.
    engine.setCallListener((outcome, kind) => void this.cli.recordCall(outcome.udfPath, kind, outcome));
    engine.setFailureListener((failure) => {
      for (const listener of this.failureListeners) listener(failure);
    });
    engine.setLogListener((line, udfPath) => {
      this.cli.recordBackgroundLog(line, udfPath);
      this.printBackgroundLog(line, udfPath);
    });
  }

  /**
   * One mutation per step, each within Convex's 1 s of code (`seed:seedAll` does both in one, which a
   * function running in an isolate may not finish in time).
   */
  private async seed(): Promise<void> {
    const engine = this.currentEngine;
    const steps =
      this.options.seed === "reference"
        ? ["seed:seedReferenceData"]
        : ["seed:seedReferenceData", "seed:seedDemoData"];
    if (!engine.hasModule("seed")) return;
    for (const udfPath of steps) {
      if (!(await engine.describe(udfPath).catch(() => null))) continue;
      const outcome = await this.call(udfPath, {}, {});
      for (const line of outcome.logLines) this.printBackgroundLog(line, udfPath);
      if (!outcome.success) {
        console.error(`local-backend: ${udfPath} failed: ${outcome.errorMessage}`);
        return;
      }
    }
    if (this.options.functionLogs !== "none")
      console.log(`local-backend: empty store, ran ${steps.join(", ")}`);
  }

  /**
   * The providers tokens are verified for. A real one (any but this backend's own issuer) turns
   * development sign-in off (decision 073); a config Convex would refuse gives none, said in words.
   */
  private async loadAuthConfig(): Promise<void> {
    let providers: Provider[] = [];
    try {
      providers = parseAuthConfig((await this.loadModule("auth.config"))?.default ?? null);
    } catch (e) {
      console.error("local-backend: could not load convex/auth.config.ts", e);
    }
    this.auth.setProviders(providers);
    this.access.setSignInProviders(this.auth.realProviders().map(describeProvider));
  }

  private async loadCrons(): Promise<void> {
    if (this.options.crons === false) return;
    try {
      this.crons.setJobs(jobsFromModule(await this.loadModule("crons")));
    } catch (e) {
      console.error("local-backend: could not load convex/crons.ts", e);
    }
  }

  engine(): LocalBackendEngine {
    return this.currentEngine;
  }

  /** The backend's URL as its clients reach it. */
  origin(): string {
    return this.originOf();
  }

  /** Where people reach the app: the public origin, else the served one (file URLs, e-mail links). */
  appOrigin(): string {
    return this.options.publicOrigin ?? this.originOf();
  }

  /**
   * Tells the functions the app's origin (APP_ORIGIN_ENV) and, as Convex does for every deployment,
   * the backend's URL (`CONVEX_CLOUD_URL`) and its HTTP actions' (`CONVEX_SITE_URL`, once `siteUrl` is
   * known). Called on start and by whoever serves this backend once it listens.
   */
  originKnown(siteUrl?: string): void {
    const origin = this.appOrigin();
    if (origin === "") return;
    this.setProcessEnv(APP_ORIGIN_ENV, origin);
    this.setProcessEnv("CONVEX_CLOUD_URL", origin);
    const site = this.options.publicOrigin ? `${this.options.publicOrigin}${SITE_PREFIX}` : siteUrl;
    if (site !== undefined) this.setProcessEnv("CONVEX_SITE_URL", site);
  }

  private setProcessEnv(name: string, value: string): void {
    if (!this.envBefore.has(name)) this.envBefore.set(name, process.env[name]);
    process.env[name] = value;
  }

  /** The functions folder's modules (`messages`, `dir/file`), `_generated` left out. */
  modulePaths(): string[] {
    const keys = Object.keys(this.modulesMap());
    const generated = keys.find((key) => key.includes("_generated"));
    const prefix = generated === undefined ? "" : generated.split("_generated", 2)[0];
    return keys
      .filter((key) => key.startsWith(prefix) && !key.includes("_generated"))
      .map((key) => key.slice(prefix.length).replace(/\.[^./]+$/, ""));
  }

  // -- BackendServices -----------------------------------------------------------------------

  /** Runs a function; a mutation is answered once its transaction is on disk. */
  async call(udfPath: string, args: Value, options: CallOptions): Promise<CallOutcome> {
    return await this.counted(() => this.currentEngine.call(udfPath, args, options));
  }

  fetchHttp(pathAndQuery: string, init: RequestInit, identity: Identity | Error | null): Promise<Response> {
    return this.counted(() => this.currentEngine.fetchHttp(pathAndQuery, init, identity));
  }

  /** Stores an uploaded file (an upload URL's POST); answered once the file and its document are on disk. */
  storeUpload(bytes: Uint8Array, contentType: string | null, options: StoreOptions): Promise<string> {
    return this.counted(() => this.currentEngine.storeUpload(bytes, contentType, options));
  }

  /** `work`, counted among the calls under way while it runs (`drain` waits for them). */
  private async counted<T>(work: () => Promise<T>): Promise<T> {
    this.running += 1;
    try {
      return await work();
    } finally {
      this.running -= 1;
      if (this.running === 0) for (const resolve of this.whenIdle.splice(0)) resolve();
    }
  }

  /**
   * The first half of a graceful stop (SIGTERM): no cron or scheduled function starts, sync clients'
   * new mutations are left for them to send again to the next start, and the calls under way finish,
   * for at most `timeoutMs`. Resolves with how many were still running then (0: all finished, every
   * answer given). `stop()` then closes the sockets and the store.
   */
  async drain(timeoutMs: number): Promise<{ unfinished: number }> {
    this.draining = true;
    this.crons.stop();
    this.currentEngine.runner.scheduled.stop();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
    const finished = (async () => {
      await this.sync.drain();
      await this.currentEngine.finishInProgressScheduledFunctions();
      while (this.running > 0) await new Promise<void>((resolve) => this.whenIdle.push(resolve));
      // The last commits' new query results, pushed before the sockets close.
      await this.subscriptions.idle();
    })();
    await Promise.race([finished, deadline]);
    clearTimeout(timer);
    return { unfinished: this.running };
  }

  storedFile(storageId: string, component: string): StoredFile | null {
    return this.currentEngine.storedFile(storageId, component);
  }

  async allowSignIn(address: string): Promise<{ ok: true } | { ok: false; retryAfterMs: number }> {
    const info = await this.currentEngine.describe(SIGN_IN_LIMIT).catch(() => null);
    if (info?.kind !== "mutation") return { ok: true };
    const outcome = await this.call(SIGN_IN_LIMIT, { key: address }, { kind: "mutation" });
    if (!outcome.success) {
      // A broken limit must not lock everyone out of a development backend: say so and let them in.
      console.error(`local-backend: ${SIGN_IN_LIMIT} failed: ${outcome.errorMessage}`);
      return { ok: true };
    }
    const { ok, retryAfterMs } = outcome.value as { ok: boolean; retryAfterMs: number | null };
    return ok ? { ok: true } : { ok: false, retryAfterMs: retryAfterMs ?? 1000 };
  }

  /** `CliHost.reportWrites`: a write transaction of those tables, published by the database layer. */
  async reportWrites(tables: Iterable<string>): Promise<void> {
    const written = [...tables];
    await this.currentEngine.runner.exclusive(() => this.store.noteTablesWritten(written), true);
  }

  printLogs(udfPath: string, logLines: string[]): void {
    if (this.options.functionLogs !== "all") return;
    for (const line of logLines) this.printFunctionLog(line, udfPath);
  }

  private printBackgroundLog(line: string, udfPath: string): void {
    if (this.options.functionLogs === "none") return;
    this.printFunctionLog(line, udfPath);
  }

  private printFunctionLog(line: string, udfPath: string): void {
    if (this.options.printFunctionLog) this.options.printFunctionLog(line, udfPath);
    else process.stdout.write(`[convex ${udfPath}] ${line}\n`);
  }

  // -- Serving -------------------------------------------------------------------------------

  /** Takes WebSocket upgrades for the sync path; returns false for others (e.g. Vite's HMR). */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean {
    return this.sync.handleUpgrade(req, socket, head);
  }

  issueToken(claims: TokenClaims, options?: { expiresInSeconds?: number }): Promise<IssuedToken> {
    return this.auth.issueToken(claims, options);
  }

  stats(): LocalBackendStats {
    return {
      ...this.currentEngine.getStats(),
      subscriptions: this.subscriptions.computationCount(),
      connections: this.sync.connectionCount(),
    };
  }

  // -- Operations (npm start's /readyz and /metrics) ----------------------------------------------

  /**
   * Calls `listener` with every function that fails, whichever path ran it, in the context of the
   * request it belongs to (core/request-context.ts); returns what stops it.
   */
  onFunctionFailure(listener: (failure: FunctionFailure) => void): () => void {
    this.failureListeners.add(listener);
    return () => this.failureListeners.delete(listener);
  }

  /** What keeps this backend from serving, in words: empty when the store takes writes and the scheduler runs. */
  readiness(): NotReady {
    if (this.stopped) return ["the backend is stopping"];
    if (this.draining) return ["the backend is draining before a stop"];
    const notReady: NotReady = [];
    const failure = this.store.writeFailure();
    if (failure) notReady.push(`the store takes no writes: ${failure.message}`);
    if (!this.currentEngine.schedulerRunning) notReady.push("the scheduler is stopped");
    if (this.options.crons !== false && !this.crons.running) notReady.push("the crons are stopped");
    return notReady;
  }

  schedulerBacklog(): SchedulerBacklog {
    return this.currentEngine.schedulerBacklog();
  }

  /**
   * How many documents of `component`'s `table` have `values` first in `index` (counting at most
   * `limit`: an index range, never the table), or null when there is no such index. Read outside any
   * transaction, so a write under way may be counted already: for figures, not for decisions.
   */
  countIndexPrefix(
    component: string,
    table: string,
    index: string,
    values: readonly FieldValue[],
    limit: number,
  ): number | null {
    const definition = this.store.index(component, table, index);
    if (!definition) return null;
    const prefix = encodeKey(values);
    return this.store.countEntries(definition, prefix, Buffer.concat([prefix, Buffer.from([AFTER])]), limit);
  }

  /** Resolves when no subscription pass is running and no save is pending. */
  async idle(): Promise<void> {
    await this.subscriptions.idle();
  }

  // -- Reloads -------------------------------------------------------------------------------

  private onFunctionsChange(change: FunctionsChange): void {
    this.pendingChanges.push(change);
    if (this.reloadTimer) clearTimeout(this.reloadTimer);
    this.reloadTimer = setTimeout(() => {
      this.reloadTimer = null;
      const changes = this.pendingChanges;
      this.pendingChanges = [];
      void this.reload(changes);
    }, 100);
    this.reloadTimer.unref();
  }

  /** Reloads functions (keeping data) and re-runs every subscription. */
  reload(changes: FunctionsChange[] = []): Promise<void> {
    this.reloadChain = this.reloadChain.then(async () => {
      if (this.stopped) return;
      try {
        const schema = await this.loadSchema();
        const schemaKey = schemaKeyOf(schema);
        const filesAddedOrRemoved = changes.some((c) => c.event !== "change");
        this.cli.forgetKinds();
        if (schemaKey !== this.schemaKey || filesAddedOrRemoved) {
          await this.rebuildEngine(schema);
          this.schemaKey = schemaKey;
        } else {
          this.currentEngine.functionsChanged();
        }
        await this.loadAuthConfig();
        await this.loadCrons();
        const names = changes.map((c) => path.basename(c.file)).join(", ");
        if (this.options.functionLogs !== "none") {
          console.log(`local-backend: functions reloaded${names ? ` (${names})` : ""}`);
        }
      } catch (e) {
        console.error("local-backend: reload failed, keeping the previous functions", e);
      }
      this.subscriptions.markAllDirty();
      this.subscriptions.requestFlush();
    });
    return this.reloadChain;
  }

  /** New functions or schema for the engine (the data stays; indexes the schema changes are rebuilt). */
  private async rebuildEngine(schema: AnySchema | undefined): Promise<void> {
    await this.currentEngine.setFunctions(schema, this.modulesMap());
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.cli.stop();
    this.crons.stop();
    this.unwatch?.();
    if (this.reloadTimer) clearTimeout(this.reloadTimer);
    await this.reloadChain;
    await this.sync.close();
    await this.subscriptions.idle();
    await this.currentEngine.dispose();
    await this.store.durable().catch(() => undefined);
    this.store.close();
    await this.source?.close();
    for (const [name, before] of this.envBefore) {
      if (before === undefined) delete process.env[name];
      else process.env[name] = before;
    }
  }
}
