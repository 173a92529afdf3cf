/**
 * The backend thread's handle on one isolate (decision 082): the worker thread with its heap limit,
 * its calls in flight, and the answers to their syscalls, given in each call's own async context.
 * The pool (pool.ts) decides which call runs on which isolate and when an isolate is ended.
 */
import { fileURLToPath } from "node:url";
import { MessageChannel, SHARE_ENV, Worker, type MessagePort } from "node:worker_threads";
import type { HotPayload, ViteDevServer } from "vite";
import { BUILT } from "../../core/built.ts";
import type { SyscallLayer } from "../convex-abi.ts";
import { executions } from "../execution.ts";
import { ThreadCpuClock } from "./cpu.ts";
import { heapGuard } from "./heap-guard.ts";
import type { IsolateCall, Lane } from "./stand-ins.ts";
import {
  CONSUMED,
  OUT_OF_MEMORY_MESSAGE,
  READING_SLOT,
  USER_HEAP_MB,
  fromWire,
  toWire,
  type Consumed,
  type FromIsolate,
  type LocalReport,
  type SyncAnswer,
  type SyncRequest,
  type ToIsolate,
} from "./protocol.ts";

/** What an isolate needs of the pool that owns it. */
export type IsolateOwner<Held> = {
  /** The Vite server that transforms the modules isolates load from the source; null when built. */
  readonly vite: ViteDevServer | null;
  nextId(): number;
  /** Ends `isolate` (it died, or its call passed a limit): its calls fail with `error`. */
  end(isolate: Isolate<Held>, error: Error): void;
};

/**
 * Heap for an isolate: Convex's 64 MiB for the user's objects, and room for what every isolate holds
 * before any function runs (the module runner, `convex`, the functions' modules), as Convex allows
 * objects beyond the user's (`ISOLATE_MAX_HEAP_EXTRA_SIZE`).
 */
const HEAP_MB = USER_HEAP_MB + 64;

/**
 * V8's own limit for an isolate the heap guard watches (decision 090): room above the guard's limit for
 * V8's largest single allocation (about 1 GB), so that V8 never aborts the process before the guard
 * ends the isolate.
 */
const GUARDED_HARD_HEAP_MB = 2048;

/**
 * The shared flags' slots: a synchronous answer is ready; modules are loading; out of memory; time
 * spent reading the database (`READING_SLOT`).
 */
const SLOTS = 4;
const OUT_OF_MEMORY_SLOT = 2;

// Resolved when an isolate starts, not on import: page tests import the engine in a jsdom environment,
// whose `import.meta.url` is not a file URL, and run functions in-process.
const isolateFile = (name: string) => fileURLToPath(new URL(name, import.meta.url));

type PendingCall = {
  resolve(value: unknown): void;
  reject(error: unknown): void;
  /** The async context of the caller: syscalls are answered in it (its execution, record, call). */
  inContext: <R>(fn: () => R) => R;
};

/** The syscall layer convex-abi.ts installs: inside a call's context, the runner's. */
const layer = () => (globalThis as unknown as { Convex: SyscallLayer }).Convex;

/**
 * Inside a call's context, before the message that carries it is handled: what the function has
 * consumed of its streams read ahead, and what it read itself (decision 092), become its own (read set,
 * counts against the limits).
 */
function applyReads(message: { consumed?: Consumed; local?: LocalReport }): void {
  if (message.consumed || message.local) {
    layer().syscall(CONSUMED, JSON.stringify({ streams: message.consumed ?? [], local: message.local }));
  }
}

/** Inside a call's context: one more syscall crossed (`CallRecord.crossings`). */
function noteCrossing(): void {
  const record = executions.getStore()?.record;
  if (record?.active) record.crossings += 1;
}

/** `Held`: what the pool keeps on an isolate while a call tree holds it (its lease). */
export class Isolate<Held = unknown> {
  readonly worker: Worker;
  readonly ready: Promise<void>;
  tid: number | null = null;
  started = false;
  dead = false;
  /** Why it was ended. */
  died: Error | null = null;
  /** Settles `ready` (also when the isolate ends before it is ready). */
  settleReady!: () => void;
  lease: Held | null = null;
  readonly calls = new Map<number, PendingCall>();
  /** The version of each component's indexes this isolate was given last (decision 092). */
  readonly catalogVersions = new Map<string, number>();
  /** Errors of this thread sent to the isolate, by token: one that comes back is given back as itself. */
  readonly kept = new Map<number, unknown>();
  private readonly syncPort: MessagePort;
  private readonly flag: Int32Array;
  /** The thread's CPU clock, opened on the first look (closed when the thread exits). */
  private cpuClock: ThreadCpuClock | null = null;

  constructor(
    readonly lane: Lane,
    private readonly pool: IsolateOwner<Held>,
  ) {
    const { port1, port2 } = new MessageChannel();
    const syncFlag = new SharedArrayBuffer(SLOTS * Int32Array.BYTES_PER_ELEMENT);
    this.flag = new Int32Array(syncFlag);
    this.syncPort = port1;
    const guard = heapGuard();
    this.worker = new Worker(isolateFile("./bootstrap.mjs"), {
      workerData: {
        // The isolate's own code: its source, through Vite's runner, or the server build's bundle of it.
        main: isolateFile(BUILT ? "./isolate.mjs" : "./isolate.ts"),
        built: BUILT,
        syncPort: port2,
        syncFlag,
        heapGuard: guard && { file: guard.file, slot: OUT_OF_MEMORY_SLOT, limitBytes: HEAP_MB * 2 ** 20 },
      },
      transferList: [port2],
      execArgv: [],
      // `npx convex env set` reaches functions already running, as it does on this thread.
      env: SHARE_ENV,
      resourceLimits: { maxOldGenerationSizeMb: guard ? GUARDED_HARD_HEAP_MB : HEAP_MB },
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
    this.worker.on("exit", () => {
      this.cpuClock?.close();
      this.pool.end(
        this,
        new Error(this.outOfMemory() ? OUT_OF_MEMORY_MESSAGE : "The function's isolate stopped"),
      );
    });
  }

  /** Whether the isolate is loading modules now (it says so in shared memory). */
  loading(): boolean {
    return Atomics.load(this.flag, 1) > 0;
  }

  /**
   * Microseconds the isolate has spent reading the database itself (decision 092), modulo 2^32: the
   * backend's own work, which Convex does not count as the function's time.
   */
  readingMicros(): number {
    return Atomics.load(this.flag, READING_SLOT);
  }

  /** Whether the heap guard ended the isolate for using more than its heap. */
  outOfMemory(): boolean {
    return Atomics.load(this.flag, OUT_OF_MEMORY_SLOT) === 1;
  }

  cpuMs(): number | null {
    if (this.tid === null) return null;
    this.cpuClock ??= new ThreadCpuClock(this.tid);
    return this.cpuClock.ms();
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
          call.inContext(() => applyReads(message));
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
            noteCrossing();
            applyReads(message);
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
        if (!this.pool.vite) return;
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
          noteCrossing();
          applyReads(request);
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
