/**
 * Inside an isolate (a worker thread the pool runs user code in, pool.ts): loads the functions,
 * runs each call it is sent, and hands every syscall to the backend thread, which answers it from
 * the call's transaction there. `globalThis.Convex` here is that messenger: an async syscall is a
 * message and an awaited answer; a synchronous one (`queryStream`, `db/normalizeId`, …) blocks this
 * thread with `Atomics.wait` until the answer is on the sync port (Node's pattern for a synchronous
 * call to another thread), which costs this thread no CPU time.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { parentPort, receiveMessageOnPort, workerData, type MessagePort } from "node:worker_threads";
import { consoleTimer, formatLogArgs, formatNodeLogArgs } from "../instrument.ts";
import { runUserCode, userCallEnded } from "../user-code.ts";
import { ownThreadId } from "./cpu.ts";
import { LocalReads } from "./local-reads.ts";
import { tableFromId } from "../../core/paths.ts";
import type { QueryJson } from "../../database/index-range.ts";
import { SYSCALL } from "../convex-abi.ts";
import {
  OPEN_STREAM,
  READ_AHEAD,
  READING_SLOT,
  fromWire,
  toWire,
  type Consumed,
  type ConsoleMethod,
  type FromIsolate,
  type FunctionShape,
  type LocalReport,
  type SyncRequest,
  type ModuleShape,
  type SyncAnswer,
  type WireMessage,
  type WireResponse,
  responseToWire,
  type ToIsolate,
  type WireError,
} from "./protocol.ts";

/** Loads modules: Vite's module runner from the source, Node's `import()` from the build (bootstrap.mjs). */
type ModuleRunner = { import<T = Record<string, unknown>>(file: string): Promise<T> };

/** What bootstrap.mjs gives: its message channel to the backend thread and its module loader. */
type Host = {
  request(
    message: FromIsolate & { type: "syscall" | "vite" },
  ): Promise<{ result?: unknown; error?: WireError }>;
  newRunner(): ModuleRunner;
  /** Node's own `import()` (a component's bundle is plain JavaScript, its packages in node_modules). */
  importFile(href: string): Promise<Record<string, unknown>>;
  listen(listener: (message: ToIsolate) => void): void;
};

type RunningCall = {
  callId: number;
  udfPath: string;
  /** A `"use node"` module's call: its console lines and timers are those of Convex's Node runtime. */
  node?: { timers: Map<string, number> };
};

const calls = new AsyncLocalStorage<RunningCall>();

function post(message: FromIsolate): void {
  parentPort!.postMessage(message);
}

/** The call this code belongs to, while it may still call Convex. */
function currentCall(): RunningCall {
  const call = calls.getStore();
  if (!call) throw new Error("Not inside a function of the embedded backend");
  if (userCallEnded())
    throw new Error(`${call.udfPath} has already ended; its code can no longer call Convex.`);
  return call;
}

/** Results of a query stream the backend read ahead, answered here without a round trip. */
type StreamAhead = {
  /** `queryStreamNext`'s answers, in order. */
  answers: string[];
  /** How many of them the function has taken, in all, and how many of those the backend was told. */
  consumed: number;
  told: number;
  /** How many results the next request asks for (doubling, as a stream read to its end reads more). */
  count: number;
  /** A request under way: a concurrent `next()` waits for it rather than skip ahead of it. */
  reading: Promise<void> | null;
  /** The function closed it (`queryCleanup`): the backend is told with the call's next message. */
  closed: boolean;
};

const FIRST_READ_AHEAD = 8;
const MOST_READ_AHEAD = 256;

/** The flags this isolate shares with the backend's thread (handle.ts says what each slot holds). */
const sharedFlags = new Int32Array((workerData as { syncFlag: SharedArrayBuffer }).syncFlag);

/** The reads each call (by id) makes itself, until its first crossing (decision 092). */
const localReads = new Map<number, LocalReads>();

/** Ends `callId`'s own reads: what it read, to go with the message that crosses. */
function endLocalReads(callId: number): LocalReport | undefined {
  const local = localReads.get(callId);
  if (!local) return undefined;
  localReads.delete(callId);
  return local.end();
}

/** `callId`'s own reads, while they last. */
function localOf(callId: number): LocalReads | undefined {
  return localReads.get(callId);
}

/**
 * `read` on the call's own reads; undefined (the backend's thread answers) when it cannot, or when
 * reading here failed (a damaged page: the backend's thread says so in its words).
 */
function readLocally<T>(callId: number, read: (local: LocalReads) => T | undefined): T | undefined {
  const local = localOf(callId);
  if (!local) return undefined;
  const started = performance.now();
  try {
    return read(local);
  } catch {
    return undefined;
  } finally {
    // The backend's work, not the function's: the watchdog does not count it (Convex counts a
    // function's own execution, not its syscalls').
    Atomics.add(sharedFlags, READING_SLOT, Math.round((performance.now() - started) * 1000));
  }
}

/** Each call's (by id) streams read ahead, by query id. */
const streams = new Map<number, Map<number, StreamAhead>>();

function streamAhead(callId: number, queryId: number): StreamAhead {
  let ofCall = streams.get(callId);
  if (!ofCall) streams.set(callId, (ofCall = new Map<number, StreamAhead>()));
  let stream = ofCall.get(queryId);
  if (!stream) {
    stream = { answers: [], consumed: 0, told: 0, count: FIRST_READ_AHEAD, reading: null, closed: false };
    ofCall.set(queryId, stream);
  }
  return stream;
}

/**
 * What the call's code has consumed of what was read ahead and the backend was not yet told, and the
 * streams it has closed since, to go with its next message (also `queryId`'s total, always: messages
 * on the two ports may be handled out of order, and the backend takes the largest total).
 */
function consumedOf(callId: number, queryId?: number): Consumed | undefined {
  const consumed: Consumed = [];
  const ofCall = streams.get(callId);
  for (const [id, stream] of ofCall ?? []) {
    if (stream.closed) {
      consumed.push([id, stream.consumed, true]);
      ofCall!.delete(id);
    } else if (stream.consumed > stream.told || (id === queryId && stream.consumed > 0)) {
      consumed.push([id, stream.consumed]);
      stream.told = stream.consumed;
    }
  }
  return consumed.length > 0 ? consumed : undefined;
}

function installConvex(host: Host): void {
  const { syncPort } = workerData as { syncPort: MessagePort };
  const remote = async (kind: "async" | "js", op: string, args: unknown, queryId?: number) => {
    const { callId } = currentCall();
    const local = endLocalReads(callId);
    const consumed = consumedOf(callId, queryId);
    const answer = await host.request({ type: "syscall", id: 0, callId, kind, op, args, consumed, local });
    if (answer.error) throw fromWire(answer.error);
    return answer.result;
  };
  /** `queryStreamNext`: from what was read ahead, else the backend's next result and more ahead. */
  const next = async (queryId: number): Promise<string> => {
    const stream = streamAhead(currentCall().callId, queryId);
    while (stream.answers.length === 0 && stream.reading) await stream.reading;
    if (stream.answers.length > 0) {
      stream.consumed += 1;
      return stream.answers.shift()!;
    }
    const reading = remote("js", READ_AHEAD, { queryId, count: stream.count }, queryId) as Promise<string[]>;
    stream.reading = reading.then(
      () => undefined,
      () => undefined,
    );
    try {
      const [first, ...ahead] = await reading;
      stream.answers.push(...ahead);
      stream.count = Math.min(stream.count * 2, MOST_READ_AHEAD);
      return first;
    } finally {
      stream.reading = null;
    }
  };
  /** A synchronous syscall: this thread waits for the answer. */
  const ask = (callId: number, op: string, json: string): string => {
    const local = endLocalReads(callId);
    const consumed = consumedOf(callId);
    Atomics.store(sharedFlags, 0, 0);
    syncPort.postMessage({ callId, op, json, consumed, local } satisfies SyncRequest);
    Atomics.wait(sharedFlags, 0, 0);
    const answer = receiveMessageOnPort(syncPort)?.message as SyncAnswer | undefined;
    if (!answer) throw new Error(`No answer to syscall ${op}`);
    if (answer.error) throw fromWire(answer.error);
    return answer.result!;
  };
  (globalThis as unknown as { Convex: unknown }).Convex = {
    syscall(op: string, json: string): string {
      const { callId } = currentCall();
      if (op === SYSCALL.queryCleanup) {
        const { queryId } = JSON.parse(json) as { queryId: number };
        const local = localOf(callId);
        if (local?.has(queryId)) {
          local.close(queryId);
          return "{}";
        }
        const stream = streams.get(callId)?.get(queryId);
        if (stream) stream.closed = true;
        return "{}";
      }
      if (op === SYSCALL.normalizeId) {
        // Nothing to read: the id names its table (as the backend's thread answers it).
        const { idString, table } = JSON.parse(json) as { idString: string; table: string };
        return JSON.stringify({ id: tableFromId(idString) === table ? idString : null });
      }
      if (op === SYSCALL.queryStream) {
        const localId = readLocally(callId, (local) => local.open(JSON.parse(json) as { query?: QueryJson }));
        if (localId !== undefined) return JSON.stringify({ queryId: localId });
        // `next()` follows at once (`for await`, `collect()`, `first()`): its first answers come now.
        const opened = ask(callId, OPEN_STREAM, `{"count":${FIRST_READ_AHEAD},"args":${json}}`);
        const { queryId, ahead } = JSON.parse(opened) as { queryId: number; ahead: string[] };
        const stream = streamAhead(callId, queryId);
        stream.answers.push(...ahead);
        stream.count = Math.min(FIRST_READ_AHEAD * 2, MOST_READ_AHEAD);
        return JSON.stringify({ queryId });
      }
      return ask(callId, op, json);
    },
    asyncSyscall: (op: string, json: string) => {
      const { callId } = currentCall();
      let answer: string | undefined;
      switch (op) {
        case SYSCALL.queryStreamNext: {
          const { queryId } = JSON.parse(json) as { queryId: number };
          answer = readLocally(callId, (local) => (local.has(queryId) ? local.next(queryId) : undefined));
          if (answer === undefined) return next(queryId);
          break;
        }
        case SYSCALL.get:
          answer = readLocally(callId, (local) => local.get(JSON.parse(json) as Record<string, unknown>));
          break;
        case SYSCALL.getUserIdentity:
          answer = localOf(callId)?.identity();
          break;
      }
      return answer !== undefined ? Promise.resolve(answer) : remote("async", op, json);
    },
    jsSyscall: (op: string, args: Record<string, unknown>) => remote("js", op, args),
  };
}

/** The call is over: what it read and consumed goes with its result, and its streams are forgotten. */
function endCall(callId: number): { consumed?: Consumed; local?: LocalReport } {
  const local = endLocalReads(callId);
  const consumed = consumedOf(callId);
  streams.delete(callId);
  return { consumed, local };
}

/**
 * Console lines and timers go to the backend thread, which files them under the call (instrument.ts);
 * what they print is formatted here, where the values are.
 */
function forwardConsole(): void {
  const send = (method: ConsoleMethod, args: string[]) =>
    post({ type: "log", callId: calls.getStore()?.callId ?? null, method, args });
  for (const method of ["log", "info", "warn", "error", "debug"] as const) {
    console[method] = (...args: unknown[]) =>
      send(method, [calls.getStore()?.node ? formatNodeLogArgs(args) : formatLogArgs(args)]);
  }
  for (const method of ["time", "timeLog", "timeEnd"] as const) {
    console[method] = (label?: unknown, ...rest: unknown[]) => {
      const node = calls.getStore()?.node;
      if (node) {
        // Kept here, as Convex's Node runtime keeps them in the call's own process.
        const name =
          label === undefined
            ? "default"
            : label === null
              ? "null"
              : (label as { toString(): string }).toString();
        const line = consoleTimer(node.timers, method, name, rest);
        if (line) send(line[0], [formatNodeLogArgs(line[1])]);
        return;
      }
      // The label as the backend's timers name it (instrument.ts), then the rest.
      send(method, [
        label === undefined ? "default" : formatLogArgs([label]),
        ...(rest.length > 0 ? [formatLogArgs(rest)] : []),
      ]);
    };
  }
}

/** `convex/server`'s `HttpRouter`, as far as it is used here. */
type Router = {
  isRouter: true;
  getRoutes(): readonly (readonly [string, string, { invokeHttpAction(r: Request): Promise<Response> }])[];
};

function routesOf(value: unknown): [string, string][] | null {
  const router = value as Partial<Router> | null | undefined;
  if (router?.isRouter !== true || typeof router.getRoutes !== "function") return null;
  return router.getRoutes().map(([path, method]) => [path, method]);
}

/** Runs the handler of `route` on the request, its response read whole to cross back. */
async function runHttpAction(
  router: Router,
  [path, method]: [string, string],
  request: WireMessage & { url: string; method: string },
): Promise<WireResponse> {
  const handler = router.getRoutes().find((route) => route[0] === path && route[1] === method)?.[2];
  if (!handler) throw new Error(`No HttpAction routed for ${path}`);
  const { url, body, ...init } = request;
  return await responseToWire(await handler.invokeHttpAction(new Request(url, { ...init, body })));
}

function shapeOf(name: string, value: unknown): FunctionShape | null {
  if ((typeof value !== "object" && typeof value !== "function") || value === null) return null;
  const fn = value as Record<string, unknown>;
  if (!fn.isQuery && !fn.isMutation && !fn.isAction) return null;
  const text = (method: unknown) => (typeof method === "function" ? (method.call(fn) as string) : null);
  return {
    name,
    isQuery: fn.isQuery === true,
    isMutation: fn.isMutation === true,
    isAction: fn.isAction === true,
    isPublic: fn.isPublic === true,
    isInternal: fn.isInternal === true,
    args: text(fn.exportArgs),
    returns: text(fn.exportReturns),
  };
}

export function start(host: Host): void {
  installConvex(host);
  forwardConsole();
  let runner = host.newRunner();
  let generation = 0;
  /**
   * The modules of this generation, by file: a call takes its module from here without asking the
   * backend thread (the runner's `import` asks Vite's `fetchModule` on every call, even of a module it
   * has evaluated, which would put a round trip and Vite's work on the backend's thread per call).
   */
  let loaded = new Map<string, Promise<Record<string, unknown>>>();
  const importModule = async (file: string) => {
    // Told to the watchdog, which does not count loading as the function's time.
    Atomics.add(sharedFlags, 1, 1);
    try {
      return file.startsWith("file:")
        ? await host.importFile(file)
        : await runner.import<Record<string, unknown>>(file);
    } finally {
      Atomics.sub(sharedFlags, 1, 1);
    }
  };
  const load = (file: string, wanted: number) => {
    if (wanted !== generation) {
      // The functions changed: a new runner loads them anew (calls under way keep what they have).
      runner = host.newRunner();
      loaded = new Map();
      generation = wanted;
    }
    let module = loaded.get(file);
    if (!module) {
      const cache = loaded;
      module = importModule(file);
      cache.set(file, module);
      // A module that failed to load is tried again by the next call, as a fresh start would.
      module.catch(() => cache.delete(file));
    }
    return module;
  };
  host.listen((message) => {
    if (message.type === "answer") return;
    if (message.type === "preload") {
      // A new isolate loads the modules calls have used, before a call waits for them.
      void message.files.reduce(
        (previous, file) =>
          previous.then(() =>
            load(file, message.generation).then(
              () => undefined,
              () => undefined,
            ),
          ),
        Promise.resolve(),
      );
      return;
    }
    const { callId } = message;
    const udfPath = message.type === "describe" ? message.file : message.udfPath;
    const work = async (): Promise<unknown> => {
      const module = await load(message.file, message.generation);
      switch (message.type) {
        case "call": {
          const fn = module[message.exportName] as Record<string, (...args: string[]) => Promise<string>>;
          return await fn[message.method](...message.args);
        }
        case "http":
          return await runHttpAction(module.default as Router, message.route, message.request);
        case "describe":
          return {
            functions: Object.entries(module).flatMap(([name, value]) => shapeOf(name, value) ?? []),
            routes: routesOf(module.default),
          } satisfies ModuleShape;
      }
    };
    const node = message.type === "call" && message.node ? { timers: new Map<string, number>() } : undefined;
    if (message.type === "call" && message.local) {
      const local = LocalReads.start(message.local);
      if (local) localReads.set(callId, local);
    }
    runUserCode(udfPath, () => calls.run({ callId, udfPath, node }, work)).then(
      (result) => post({ type: "done", callId, result, ...endCall(callId) }),
      (error: unknown) => post({ type: "done", callId, error: toWire(error), ...endCall(callId) }),
    );
  });
  post({ type: "ready", tid: ownThreadId() });
}
