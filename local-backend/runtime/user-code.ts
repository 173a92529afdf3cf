/**
 * docs/style.md#user-code-never-ends-the-process. What a function's code throws outside
 * the promise it returned (a timer's or an I/O callback's exception, an `'error'` event nobody listens
 * to, a promise rejected with no handler) is uncaught in this process, and Node would exit: the dev
 * server, or the town's only server. Convex fails that one call instead and keeps serving.
 *
 * Each call of user code runs in an async context naming it; Node carries that context through timers,
 * I/O callbacks and event emitters into the process's `uncaughtException` handler, which fails the call
 * it names. An action that never settles fails after Convex's action timeout. Errors no call owns are
 * the server's own: printed, and the process exits as Node's default would.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { processWide } from "../core/process-wide.ts";
import { format } from "node:util";

/** Convex's limit for an action in Node (`NODE_ACTION_USER_TIMEOUT`, crates/common/src/knobs.rs). */
export const ACTION_TIMEOUT_MS = 600_000;

/**
 * The action timeout in force: Convex's, unless `LIVELOCAL_ACTION_TIMEOUT_SECS` sets another (as
 * Convex's own `ACTIONS_USER_TIMEOUT_SECS` does for its test harness).
 */
export function actionTimeoutMs(): number {
  const secs = Number(process.env.LIVELOCAL_ACTION_TIMEOUT_SECS);
  return Number.isFinite(secs) && secs > 0 ? secs * 1000 : ACTION_TIMEOUT_MS;
}

type UserCall = {
  /** The function's path, for the line logged when a callback throws after the call has ended. */
  readonly udfPath: string;
  /** Fails the call; false once it has already ended. */
  fail(error: unknown): boolean;
  ended: boolean;
};

const calls = processWide("userCalls", () => new AsyncLocalStorage<UserCall>());

/**
 * Convex's words when an action of a `"use node"` module runs past its limit: its Node executor's
 * (npm-packages/node-executor, `executor.ts`), naming the export.
 */
export function nodeActionTimeoutMessage(exportName: string, ms: number): string {
  return `Action \`${exportName}\` execution timed out (maximum duration ${ms / 1000}s)`;
}

/**
 * An action's time limit and, for an action of a `"use node"` module (`nodeExport`, its stand-in's:
 * isolate/stand-ins.ts), the words its timeout is told in.
 */
export function actionTimeout(fn: { nodeExport?: string }): { timeoutMs: number; timeoutText?: string } {
  const timeoutMs = actionTimeoutMs();
  return fn.nodeExport === undefined
    ? { timeoutMs }
    : { timeoutMs, timeoutText: nodeActionTimeoutMessage(fn.nodeExport, timeoutMs) };
}

/** Convex's words when a function runs past its limit (`UserTimeoutError`, crates/isolate/src/termination.rs). */
export function timeoutMessage(ms: number): string {
  // Rust's `Duration` as `{:?}` prints it: whole seconds as `600s`, otherwise milliseconds.
  const duration = ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`;
  return `Function execution timed out (maximum duration: ${duration})`;
}

/**
 * Runs `fn` (user code) as one call: settles with its result, or with the first error it throws
 * anywhere (also from a callback it left behind), or after `timeoutMs` with Convex's timeout error.
 */
export function runUserCode<T>(
  udfPath: string,
  fn: () => Promise<T>,
  { timeoutMs, timeoutText }: { timeoutMs?: number; timeoutText?: string } = {},
): Promise<T> {
  guardProcess();
  return new Promise<T>((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const call: UserCall = {
      udfPath,
      ended: false,
      fail(error) {
        if (call.ended) return false;
        end();
        // As thrown: what the engine makes of a ConvexError, an Error or a thrown string is its business.
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
        reject(error);
        return true;
      },
    };
    const end = () => {
      call.ended = true;
      clearTimeout(timer);
    };
    if (timeoutMs !== undefined) {
      // Started outside the call's context, so the timer is the server's, not the user's.
      timer = setTimeout(() => call.fail(new Error(timeoutText ?? timeoutMessage(timeoutMs))), timeoutMs);
      timer.unref();
    }
    calls.run(call, fn).then(
      (value) => {
        if (call.ended) return;
        end();
        resolve(value);
      },
      (error: unknown) => call.fail(error),
    );
  });
}

/** Whether the user code running now belongs to a call that has already ended (timed out or failed). */
export function userCallEnded(): boolean {
  return calls.getStore()?.ended ?? false;
}

/**
 * What the call fails with: the error's message under the name of the event that caught it, as Convex's
 * Node executor answers (`uncaughtException: Yikes`).
 */
function asCallError(error: unknown, origin: NodeJS.UncaughtExceptionOrigin): Error {
  const failure = new Error(error instanceof Error ? error.message : String(error));
  failure.name = origin;
  if (error instanceof Error && error.stack)
    failure.stack = `${origin}: ${error.stack.split("\n").slice(1).join("\n")}`;
  return failure;
}

const guard = processWide("uncaughtGuard", () => ({ installed: false }));

function guardProcess(): void {
  if (guard.installed) return;
  guard.installed = true;
  process.on("uncaughtException", (error, origin) => {
    const call = calls.getStore();
    if (call) {
      if (!call.fail(asCallError(error, origin))) {
        // Straight to stderr: `console` inside the call's context is captured as that call's log lines.
        process.stderr.write(`${call.udfPath}: uncaught after the call ended: ${format(error)}\n`);
      }
      return;
    }
    // Not a user's: the server's own bug. Other listeners (a test runner's) decide; alone, do as Node does.
    if (process.listenerCount("uncaughtException") > 1) return;
    console.error(origin === "unhandledRejection" ? "Unhandled rejection:" : "Uncaught exception:", error);
    process.exit(1);
  });
}
