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
import { fileURLToPath } from "node:url";
import { MessageChannel, SHARE_ENV, Worker, type MessagePort } from "node:worker_threads";
import type { HotPayload, ViteDevServer } from "vite";
import type { SyscallLayer } from "../convex-abi.ts";
import { inRootScope } from "../../core/root-scope.ts";
import { executions } from "../execution.ts";
import { currentRecord } from "../instrument.ts";
import { actionTimeoutMs, nodeActionTimeoutMessage, timeoutMessage } from "../user-code.ts";
import { threadCpuMs } from "./cpu.ts";
import { standIns, type IsolateCall, type Lane } from "./stand-ins.ts";
import {
  CONSUMED,
  OUT_OF_MEMORY_MESSAGE,
  QUERY_MUTATION_TIMEOUT_MS,
  USER_HEAP_MB,
  fromWire,
  toWire,
  type Consumed,
  type FromIsolate,
  type ModuleShape,
  type SyncAnswer,
  type SyncRequest,
  type ToIsolate,
} from "./protocol.ts";

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

/**
 * Heap for an isolate: Convex's 64 MiB for the user's objects, and room for what every isolate holds
 * before any function runs (the module runner, `convex`, the functions' modules), as Convex allows
 * objects beyond the user's (`ISOLATE_MAX_HEAP_EXTRA_SIZE`).
 */
const HEAP_MB = USER_HEAP_MB + 64;

// Resolved when an isolate starts, not on import: page tests import the engine in a jsdom environment,
// whose `import.meta.url` is not a file URL, and run functions in-process.
const isolateFile = (name: string) => fileURLToPath(new URL(name, import.meta.url));

type PendingCall = {
  resolve(value: unknown): void;
  reject(error: unknown): void;
  /** The async context of the caller: syscalls are answered in it (its execution, record, call). */
  inContext: <R>(fn: () => R) => R;
};

type Lease = {
  key: object | null;
  lane: Lane;
  isolate: Isolate;
  refs: number;
  /** Whether the OS gives the isolate thread's CPU time (else time is counted by the clock). */
  cpu: boolean;
  /** The isolate's time at the watchdog's last look. */
  last: number;
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

/** The syscall layer convex-abi.ts installs: inside a call's context, the runner's. */
const layer = () => (globalThis as unknown as { Convex: SyscallLayer }).Convex;

/**
 * Inside a call's context, before the message that carries it is handled: what the function has
 * consumed of its streams read ahead becomes its own (read set, counts against the limits).
 */
function applyConsumed(consumed: Consumed | undefined): void {
  if (consumed) layer().syscall(CONSUMED, JSON.stringify({ streams: consumed }));
}

class Isolate {
  readonly worker: Worker;
  readonly ready: Promise<void>;
  tid: number | null = null;
  started = false;
  dead = false;
  /** Why it was ended. */
  died: Error | null = null;
  /** Settles `ready` (also when the isolate ends before it is ready). */
  settleReady!: () => void;
  lease: Lease | null = null;
  readonly calls = new Map<number, PendingCall>();
  /** Errors of this thread sent to the isolate, by token: one that comes back is given back as itself. */
  readonly kept = new Map<number, unknown>();
  private readonly syncPort: MessagePort;
  private readonly flag: Int32Array;

  constructor(
    readonly lane: Lane,
    private readonly pool: IsolatePool,
  ) {
    const { port1, port2 } = new MessageChannel();
    // [0]: a synchronous syscall's answer is ready; [1]: modules are loading.
    const syncFlag = new SharedArrayBuffer(8);
    this.flag = new Int32Array(syncFlag);
    this.syncPort = port1;
    this.worker = new Worker(isolateFile("./bootstrap.mjs"), {
      workerData: { main: isolateFile("./isolate.ts"), syncPort: port2, syncFlag },
      transferList: [port2],
      execArgv: [],
      // `npx convex env set` reaches functions already running, as it does on this thread.
      env: SHARE_ENV,
      resourceLimits: { maxOldGenerationSizeMb: HEAP_MB },
    });
    this.worker.unref();
    this.syncPort.unref();
    this.ready = new Promise((resolve) => {
      this.settleReady = resolve;
      const onReady = (message: FromIsolate) => {
        if (message.type !== "ready") return;
        this.tid = message.tid;
        this.started = true;
        this.worker.off("message", onReady);
        resolve();
      };
      this.worker.on("message", onReady);
    });
    this.worker.on("message", (message: FromIsolate) => this.onMessage(message));
    this.syncPort.on("message", (request: SyncRequest) => this.answerSync(request));
    this.worker.on("error", (error: Error & { code?: string }) =>
      this.pool.end(
        this,
        error.code === "ERR_WORKER_OUT_OF_MEMORY" ? new Error(OUT_OF_MEMORY_MESSAGE) : error,
      ),
    );
    this.worker.on("exit", () => this.pool.end(this, new Error("The function's isolate stopped")));
  }

  /** Whether the isolate is loading modules now (it says so in shared memory). */
  loading(): boolean {
    return Atomics.load(this.flag, 1) > 0;
  }

  cpuMs(): number | null {
    return this.tid === null ? null : threadCpuMs(this.tid);
  }

  send(
    message: IsolateCall | (ToIsolate & { type: "describe" }),
    inContext: PendingCall["inContext"],
  ): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.calls.set(message.callId, { resolve, reject, inContext });
      this.worker.postMessage(message);
    });
  }

  private keep(error: unknown): number {
    const token = this.pool.nextId();
    this.kept.set(token, error);
    return token;
  }

  private onMessage(message: FromIsolate): void {
    switch (message.type) {
      case "done": {
        const call = this.calls.get(message.callId);
        if (!call) return;
        this.calls.delete(message.callId);
        let failed: unknown = message.error && fromWire(message.error, (token) => this.kept.get(token));
        try {
          call.inContext(() => applyConsumed(message.consumed));
        } catch (error) {
          failed ??= error;
        }
        if (failed !== undefined) call.reject(failed);
        else call.resolve(message.result);
        return;
      }
      case "syscall": {
        const call = this.calls.get(message.callId);
        const answer = (result: unknown, error?: unknown) =>
          this.worker.postMessage({
            type: "answer",
            id: message.id,
            ...(error === undefined ? { result } : { error: toWire(error, this.keep(error)) }),
          });
        if (!call) return answer(null, new Error("This function's call has already ended"));
        call
          .inContext(async () => {
            applyConsumed(message.consumed);
            return message.kind === "async"
              ? await layer().asyncSyscall(message.op, message.args as string)
              : await layer().jsSyscall(message.op, message.args as Record<string, unknown>);
          })
          .then(answer, (error: unknown) => answer(null, error ?? new Error("Unknown error")));
        return;
      }
      case "log": {
        const call = message.callId === null ? undefined : this.calls.get(message.callId);
        const log = () => (console[message.method] as (...args: string[]) => void)(...message.args);
        if (call) call.inContext(log);
        else log();
        return;
      }
      case "vite": {
        void this.pool.vite.environments.ssr.hot
          .handleInvoke(message.payload as HotPayload)
          .then((result) => this.worker.postMessage({ type: "answer", id: message.id, result }));
        return;
      }
    }
  }

  private answerSync(request: SyncRequest): void {
    const call = this.calls.get(request.callId);
    let answer: SyncAnswer;
    try {
      if (!call) throw new Error("This function's call has already ended");
      answer = {
        result: call.inContext(() => {
          applyConsumed(request.consumed);
          return layer().syscall(request.op, request.json);
        }),
      };
    } catch (error) {
      answer = { error: toWire(error, this.keep(error)) };
    }
    this.syncPort.postMessage(answer);
    Atomics.store(this.flag, 0, 1);
    Atomics.notify(this.flag, 0);
  }
}

export class IsolatePool {
  private readonly isolates: Record<Lane, Set<Isolate>> = { transaction: new Set(), action: new Set() };
  private readonly idle: Record<Lane, Isolate[]> = { transaction: [], action: [] };
  private readonly waiting: Record<Lane, ((isolate: Isolate) => void)[]> = { transaction: [], action: [] };
  /** The lease each call tree (its record) holds in each lane: the calls it makes re-enter it. */
  private readonly leases: Record<Lane, Map<object, Promise<Lease>>> = {
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

  constructor(readonly vite: ViteDevServer) {
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
        { ...message, callId: this.nextId(), generation: this.generation },
        inContext,
      );
    } finally {
      this.release(lease);
    }
  }

  private async lease(lane: Lane, key: object | null): Promise<Lease> {
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
      const now = (lease.cpu ? lease.isolate.cpuMs() : null) ?? performance.now();
      if (lease.isolate.loading()) lease.loading += now - lease.last;
      else lease.running += now - lease.last;
      lease.last = now;
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

  private release(lease: Lease): void {
    if (--lease.refs > 0) return;
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

  private async acquire(lane: Lane): Promise<Isolate> {
    const idle = this.idle[lane].pop();
    if (idle) {
      this.fill(lane);
      return idle;
    }
    if (this.isolates[lane].size < LANES[lane].max) return this.spawn(lane);
    return await new Promise((resolve) => this.waiting[lane].push(resolve));
  }

  private spawn(lane: Lane): Isolate {
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
  end(isolate: Isolate, error: Error): void {
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
