/**
 * User code off the backend's thread (decision 082). The functions folder's functions run in
 * isolates: worker threads with Convex's heap limit, one call tree at a time each. A function loaded
 * from a folder is a stand-in here (`module()`): the engine calls it as it calls any registered
 * function, in the execution it set up (runner.ts), and the stand-in runs it in an isolate whose
 * syscalls come back to this thread and are answered in that execution's async context, so
 * transactions, read sets and the store never leave this thread.
 *
 * Two lanes, so that actions waiting on the network never hold up queries and mutations: queries and
 * mutations (which run one transaction at a time anyway) and actions (one isolate each, up to a cap).
 * A call and the calls it makes share its isolate (a nested call re-enters it). An isolate is ended
 * (`terminate()`) when its query or mutation has used more than Convex's 1 s of its own CPU time,
 * when its action passes the action timeout, or when it runs out of heap; that fails only its own call
 * tree, with Convex's words, and a fresh isolate takes its place.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { readFileSync } from "node:fs";
import type { ViteDevServer } from "vite";
import { inRootScope } from "../../core/root-scope.ts";
import { localGrant } from "../database-syscalls.ts";
import { executions } from "../execution.ts";
import { currentRecord, type CallRecord } from "../instrument.ts";
import { actionTimeoutMs, nodeActionTimeoutMessage, timeoutMessage } from "../user-code.ts";
import { Isolate } from "./handle.ts";
import { standIns, type IsolateCall, type Lane } from "./stand-ins.ts";
import { QUERY_MUTATION_TIMEOUT_MS, type LocalGrant, type ModuleShape, type ToIsolate } from "./protocol.ts";

/** Isolates at most in a lane, and idle ones kept ready. Actions beyond the cap wait for one. */
const LANES: Record<Lane, { max: number; idle: number }> = {
  transaction: { max: 4, idle: 1 },
  action: { max: 32, idle: 2 },
};

/**
 * Loading a module graph is not the function's time (Convex loads modules before it runs one), but a
 * module whose top-level code never ends must not hold its isolate forever.
 */
const LOAD_TIMEOUT_MS = 30_000;

/** How often the watchdog reads the CPU time of isolates running a query or mutation. */
const WATCHDOG_MS = 50;

type Lease = {
  /** The call tree holding it: the record of the call that began it. */
  key: CallRecord | null;
  lane: Lane;
  isolate: Isolate<Lease>;
  refs: number;
  /** Whether the OS gives the isolate thread's CPU time (else time is counted by the clock). */
  cpu: boolean;
  /** The isolate's time at the watchdog's last look, and its time reading the database then (µs). */
  last: number;
  lastReading: number;
  /** Time spent running the functions, and loading their modules (which Convex does not count). */
  running: number;
  loading: number;
  timer?: ReturnType<typeof setTimeout>;
  /** The function the call tree began with, for the line said when its isolate is ended. */
  udfPath?: string;
  /** What `leases` holds for it while it is the call tree's. */
  entry: Promise<Lease>;
};

/** A module starting with the `"use node"` directive (after comments): Convex runs its actions in Node. */
const USE_NODE = /^(?:\s|\/\/[^\n]*\n|\/\*[\s\S]*?\*\/)*["']use node["']/;
const nodeModules = new Map<string, boolean>();
function usesNode(file: string): boolean {
  let uses = nodeModules.get(file);
  if (uses === undefined) {
    try {
      uses = USE_NODE.test(readFileSync(file.startsWith("file:") ? new URL(file) : file, "utf8"));
    } catch {
      uses = false;
    }
    nodeModules.set(file, uses);
  }
  return uses;
}

export class IsolatePool {
  private readonly isolates: Record<Lane, Set<Isolate<Lease>>> = {
    transaction: new Set(),
    action: new Set(),
  };
  private readonly idle: Record<Lane, Isolate<Lease>[]> = { transaction: [], action: [] };
  private readonly waiting: Record<Lane, ((isolate: Isolate<Lease>) => void)[]> = {
    transaction: [],
    action: [],
  };
  /** The lease each call tree (its record) holds in each lane: the calls it makes re-enter it. */
  private readonly leases: Record<Lane, Map<CallRecord, Promise<Lease>>> = {
    transaction: new Map(),
    action: new Map(),
  };
  private readonly active = new Set<Lease>();
  private watchdog: ReturnType<typeof setInterval> | null = null;
  private generation = 0;
  /** The modules calls have loaded: a new isolate loads them before it is needed. */
  private readonly files = new Set<string>();
  private ids = 0;
  private closed = false;

  /** `vite`: the server that transforms the functions' source; null for the server's build (decision 093). */
  constructor(readonly vite: ViteDevServer | null) {
    this.fill("transaction");
  }

  nextId(): number {
    return ++this.ids;
  }

  /** The functions changed: calls from now on load them anew. */
  invalidate(): void {
    this.generation++;
  }

  /**
   * The module at `file` (a path, loaded through Vite; or a `file:` URL, a component's bundle, imported
   * as it is), its registered functions standing in for those in the isolates.
   */
  async module(file: string): Promise<Record<string, unknown>> {
    this.files.add(file);
    const { functions, routes } = (await this.run("transaction", {
      type: "describe",
      callId: 0,
      generation: 0,
      file,
    })) as ModuleShape;
    return standIns(file, { functions, routes }, (lane, message) => this.run(lane, message), usesNode(file));
  }

  /** Runs `message` in an isolate of `lane`: the one the caller's call tree holds, or one of its own. */
  private async run(lane: Lane, message: IsolateCall | (ToIsolate & { type: "describe" })): Promise<unknown> {
    if (this.closed) throw new Error("The backend is stopping");
    const inContext = AsyncLocalStorage.snapshot();
    const key = executions.getStore()?.record ?? currentRecord() ?? null;
    const lease = await this.lease(lane, key);
    lease.udfPath ??= message.type === "describe" ? message.file : message.udfPath;
    try {
      // Counted from here: an isolate's own start is not the function's time.
      await lease.isolate.ready;
      if (lease.isolate.died) throw lease.isolate.died;
      if (!this.active.has(lease)) this.begin(lease, message);
      return await lease.isolate.send(
        {
          ...message,
          callId: this.nextId(),
          generation: this.generation,
          ...this.localReads(lease, message),
        },
        inContext,
      );
    } finally {
      this.release(lease);
    }
  }

  /**
   * What a query or mutation may read in its isolate itself (decision 092): given to the first call of
   * a call tree's transaction lease (a nested call shares its caller's transaction).
   */
  private localReads(
    lease: Lease,
    message: IsolateCall | (ToIsolate & { type: "describe" }),
  ): { local?: LocalGrant } {
    const execution = executions.getStore();
    if (!execution || lease.refs !== 1 || message.type !== "call" || message.method === "invokeAction")
      return {};
    const known = lease.isolate.catalogVersions;
    const local = localGrant(execution.runner, execution, known.get(execution.component));
    if (!local) return {};
    known.set(local.component, local.catalogVersion);
    return { local };
  }

  private async lease(lane: Lane, key: CallRecord | null): Promise<Lease> {
    const held = key && this.leases[lane].get(key);
    if (held) {
      const lease = await held;
      if (lease.refs > 0 && !lease.isolate.dead) {
        lease.refs++;
        return lease;
      }
    }
    const leasing = this.acquire(lane).then((isolate) => {
      const lease: Lease = {
        key,
        lane,
        isolate,
        refs: 1,
        cpu: false,
        last: 0,
        lastReading: 0,
        running: 0,
        loading: 0,
        entry: leasing,
      };
      isolate.lease = lease;
      return lease;
    });
    if (key) this.leases[lane].set(key, leasing);
    return await leasing;
  }

  private begin(lease: Lease, message: IsolateCall | (ToIsolate & { type: "describe" })): void {
    this.active.add(lease);
    if (lease.lane === "action") {
      const ms = actionTimeoutMs();
      const text =
        message.type === "call" && message.node === true
          ? nodeActionTimeoutMessage(message.exportName, ms)
          : timeoutMessage(ms);
      lease.timer = inRootScope(() => setTimeout(() => this.end(lease.isolate, new Error(text)), ms).unref());
      return;
    }
    const cpu = lease.isolate.cpuMs();
    lease.cpu = cpu !== null;
    lease.last = cpu ?? performance.now();
    lease.lastReading = lease.isolate.readingMicros();
    this.watchdog ??= inRootScope(() => setInterval(() => this.watch(), WATCHDOG_MS).unref());
  }

  /**
   * Ends isolates whose query or mutation has used more than Convex's limit of its own time: CPU time
   * of the isolate's thread where the OS counts it, else time since the call began.
   */
  private watch(): void {
    let watching = false;
    for (const lease of this.active) {
      if (lease.lane !== "transaction") continue;
      watching = true;
      this.sample(lease);
      if (lease.running > QUERY_MUTATION_TIMEOUT_MS)
        this.end(lease.isolate, new Error(timeoutMessage(QUERY_MUTATION_TIMEOUT_MS)));
      else if (lease.loading > LOAD_TIMEOUT_MS)
        this.end(lease.isolate, new Error(timeoutMessage(LOAD_TIMEOUT_MS)));
    }
    if (!watching && this.watchdog) {
      clearInterval(this.watchdog);
      this.watchdog = null;
    }
  }

  /** Adds the isolate's time since the last look to its function's running (or loading) time. */
  private sample(lease: Lease): void {
    const now = (lease.cpu ? lease.isolate.cpuMs() : null) ?? performance.now();
    // Reading the database in the isolate (decision 092) is the backend's work, not the function's
    // (the counter wraps at 2^32 µs: the difference is taken in 32 bits).
    const reading = lease.isolate.readingMicros();
    const readingMs = ((reading - lease.lastReading) | 0) / 1000;
    lease.lastReading = reading;
    if (lease.isolate.loading()) lease.loading += now - lease.last;
    // Not clamped per look: the OS counts CPU time in ticks, so a look may see the reading before the tick.
    else lease.running += now - lease.last - readingMs;
    lease.last = now;
  }

  private release(lease: Lease): void {
    if (--lease.refs > 0) return;
    if (lease.lane === "transaction" && this.active.has(lease)) {
      // The call tree's own time, for its statistics (the bench sets it against Convex's 1 s).
      this.sample(lease);
      if (lease.key) lease.key.userCodeMs = Math.max(lease.key.userCodeMs, lease.running);
    }
    this.active.delete(lease);
    clearTimeout(lease.timer);
    this.forget(lease);
    const isolate = lease.isolate;
    if (isolate.lease === lease) isolate.lease = null;
    isolate.kept.clear();
    if (isolate.dead) return;
    const next = this.waiting[isolate.lane].shift();
    if (next) next(isolate);
    else this.idle[isolate.lane].push(isolate);
  }

  private forget(lease: Lease): void {
    const leases = this.leases[lease.lane];
    if (lease.key && leases.get(lease.key) === lease.entry) leases.delete(lease.key);
  }

  private async acquire(lane: Lane): Promise<Isolate<Lease>> {
    const idle = this.idle[lane].pop();
    if (idle) {
      this.fill(lane);
      return idle;
    }
    if (this.isolates[lane].size < LANES[lane].max) return this.spawn(lane);
    return await new Promise((resolve) => this.waiting[lane].push(resolve));
  }

  private spawn(lane: Lane): Isolate<Lease> {
    // Its events are the server's, not those of the call that happened to start it.
    const isolate = inRootScope(() => new Isolate(lane, this));
    const { generation } = this;
    void isolate.ready.then(() => {
      if (!isolate.dead)
        isolate.worker.postMessage({
          type: "preload",
          generation,
          files: [...this.files],
        } satisfies ToIsolate);
    });
    this.isolates[lane].add(isolate);
    return isolate;
  }

  /** Keeps a lane's idle isolates ready, so a call rarely waits for one to start. */
  private fill(lane: Lane): void {
    if (this.closed) return;
    const wanted = Math.min(
      LANES[lane].idle,
      LANES[lane].max - (this.isolates[lane].size - this.idle[lane].length),
    );
    while (this.idle[lane].length < wanted && this.isolates[lane].size < LANES[lane].max) {
      this.idle[lane].push(this.spawn(lane));
    }
  }

  /** Ends `isolate`: its calls fail with `error`, and another takes its place. */
  end(isolate: Isolate<Lease>, error: Error): void {
    if (isolate.dead) return;
    isolate.dead = true;
    isolate.died = error;
    isolate.settleReady();
    void isolate.worker.terminate();
    this.isolates[isolate.lane].delete(isolate);
    const idle = this.idle[isolate.lane];
    if (idle.includes(isolate)) idle.splice(idle.indexOf(isolate), 1);
    for (const call of isolate.calls.values()) call.reject(error);
    isolate.calls.clear();
    if (isolate.lease && !this.closed) {
      console.error(`local-backend: ${isolate.lease.udfPath}: ${error.message}; its isolate was stopped`);
    }
    if (isolate.lease) {
      this.active.delete(isolate.lease);
      clearTimeout(isolate.lease.timer);
      this.forget(isolate.lease);
    }
    // One that never started says something is wrong with starting any: the next call tries again.
    if (this.closed || !isolate.started) return;
    const next = this.waiting[isolate.lane].shift();
    if (next) next(this.spawn(isolate.lane));
    this.fill(isolate.lane);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.watchdog) clearInterval(this.watchdog);
    const all = [...this.isolates.transaction, ...this.isolates.action];
    for (const isolate of all) this.end(isolate, new Error("The backend is stopping"));
    await Promise.all(all.map((isolate) => isolate.worker.terminate()));
  }
}
