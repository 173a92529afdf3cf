/**
 * Scheduled functions (`ctx.scheduler`): rows of `_scheduled_functions` written in the scheduling
 * transaction, run by timers once it has committed; a mutation's job changes state in the
 * mutation's own transaction (exactly once), an action's around it.
 */
import { AsyncResource } from "node:async_hooks";
import { convexToJson, jsonToConvex, type JSONValue, type Value } from "convex/values";
import type { ComponentPath, Document } from "../storage/document.ts";
import { AFTER, encodeKey } from "../values/values.ts";
import { measureValue } from "../values/limits.ts";
import { SYSCALL } from "./convex-abi.ts";
import { describeThrown, executions, type Execution, type Syscall } from "./execution.ts";
import { newCallRecord, type CallRecord } from "./instrument.ts";
import { addressOf } from "./nested-calls.ts";
import type { Runner } from "./runner.ts";

/** Timers for scheduled functions start from here, outside the function that scheduled them. */
const rootScope = new AsyncResource("livelocal-scheduler");

export class ScheduledFunctions {
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  /** When each armed job is due, and its component. */
  private readonly dueTimes = new Map<string, number>();
  private readonly dueComponents = new Map<string, ComponentPath>();
  private readonly inFlight = new Set<Promise<void>>();
  private stopped = false;

  constructor(private readonly runner: Runner) {}

  async schedule(execution: Execution, args: Record<string, JSONValue>): Promise<string> {
    const { component, udfPath } = addressOf(this.runner, execution, args);
    const fn = await this.runner.resolve(component, udfPath);
    if (!fn || fn.isQuery) throw new Error(`Could not find a mutation or action '${udfPath}' to schedule`);
    const scheduledTime = Number(args.ts) * 1000;
    return await this.runner.inWriteTransaction(execution, (tx) => {
      const jobArgs = [jsonToConvex(args.args ?? {})];
      tx.meter.schedule(measureValue(jobArgs).size);
      const doc: Document = {
        name: udfPath,
        args: jobArgs,
        scheduledTime,
        state: { kind: "pending" },
        _id: this.runner.store.newId(component, "_scheduled_functions"),
        _creationTime: this.runner.store.newCreationTime(component),
      };
      this.runner.store.write(component, "_scheduled_functions", null, doc);
      tx.scheduled.push({ id: doc._id as string, component, time: scheduledTime });
      return doc._id as string;
    });
  }

  async cancelJob(execution: Execution, id: string): Promise<null> {
    return await this.runner.inWriteTransaction(execution, () => {
      const stored = this.runner.store.get(id);
      if (!stored || stored.table !== "_scheduled_functions") throw new Error(`No scheduled function ${id}`);
      const state = (stored.doc.state as { kind: string }).kind;
      if (state === "pending" || state === "inProgress") {
        this.runner.store.write(stored.component, stored.table, stored.doc, {
          ...stored.doc,
          state: { kind: "canceled" },
          completedTime: Date.now(),
        });
      }
      return null;
    });
  }

  arm(id: string, component: ComponentPath, time: number): void {
    if (this.stopped) return;
    clearTimeout(this.timers.get(id));
    this.dueTimes.set(id, time);
    this.dueComponents.set(id, component);
    rootScope.runInAsyncScope(() => {
      const timer = setTimeout(
        () => {
          this.forget(id);
          const run = this.runJob(id, component).finally(() => this.inFlight.delete(run));
          this.inFlight.add(run);
        },
        Math.max(0, time - Date.now()),
      );
      timer.unref?.();
      this.timers.set(id, timer);
    });
  }

  /** Starts the pending jobs of the store (after a start) and fails the ones a stop interrupted. */
  async resumeScheduledFunctions(): Promise<void> {
    const record = newCallRecord(this.runner.owner, "scheduler");
    for (const component of this.runner.componentPaths()) {
      const index = this.runner.store.index(component, "_scheduled_functions", "by_state");
      if (!index) continue;
      for (const kind of ["inProgress", "pending"]) {
        const prefix = encodeKey([kind]);
        const rows = this.runner.store.scan(
          index,
          prefix,
          Buffer.concat([prefix, Buffer.from([AFTER])]),
          "asc",
          null,
          100_000,
        );
        for (const { doc } of rows) {
          if (kind === "pending") {
            this.arm(doc._id as string, component, doc.scheduledTime as number);
            continue;
          }
          await this.runner.transaction(component, record, true, () => {
            this.runner.store.write(component, "_scheduled_functions", doc, {
              ...doc,
              state: { kind: "failed", error: "The backend stopped while this function ran" },
              completedTime: Date.now(),
            });
            return Promise.resolve();
          });
        }
      }
    }
  }

  private async setJobState(
    component: ComponentPath,
    id: string,
    state: Value,
    record: CallRecord,
    expect: string,
  ): Promise<Document | null> {
    return await this.runner.transaction(component, record, true, () => {
      const stored = this.runner.store.get(id);
      if (!stored || (stored.doc.state as { kind: string }).kind !== expect) return Promise.resolve(null);
      const next: Document = { ...stored.doc, state };
      if ((state as { kind: string }).kind !== "inProgress") next.completedTime = Date.now();
      this.runner.store.write(component, "_scheduled_functions", stored.doc, next);
      return Promise.resolve(stored.doc);
    });
  }

  private async runJob(id: string, component: ComponentPath): Promise<void> {
    if (this.stopped) return;
    const job = this.runner.store.get(id);
    if (!job || (job.doc.state as { kind: string }).kind !== "pending") return;
    const name = job.doc.name as string;
    const args = ((job.doc.args as Value[])[0] ?? {}) as Record<string, Value>;
    const record = newCallRecord(this.runner.owner, name);
    const fn = await this.runner.resolve(component, name).catch(() => null);
    try {
      if (fn?.isMutation) {
        // Exactly once: the job's state changes in the mutation's own transaction.
        const outcome = await this.runner.transaction(component, record, true, async (tx) => {
          const current = this.runner.store.get(id);
          if (!current || (current.doc.state as { kind: string }).kind !== "pending") return false;
          const checked = this.runner.checkArgs(fn, args, name);
          const text = await executions.run(
            this.runner.executionFor("mutation", component, name, null, record)(tx),
            () => fn.invokeMutation!(JSON.stringify(convexToJson([checked]))),
          );
          this.runner.checkReturns(fn, text, name);
          this.runner.store.write(component, "_scheduled_functions", current.doc, {
            ...current.doc,
            state: { kind: "success" },
            completedTime: Date.now(),
          });
          return true;
        });
        void outcome;
      } else if (fn?.isAction) {
        if (!(await this.setJobState(component, id, { kind: "inProgress" }, record, "pending"))) return;
        await this.runner.run({ component, udfPath: name, args, identity: null, kind: "action" }, record);
        await this.setJobState(component, id, { kind: "success" }, record, "inProgress");
      } else {
        throw new Error(`Could not find a mutation or action '${name}'`);
      }
    } catch (e) {
      const message = describeThrown(e).message;
      record.logLines.push(`[ERROR] Uncaught ${describeThrown(e).name}: ${message}`);
      const state = { kind: "failed", error: message };
      await this.setJobState(component, id, state, record, "inProgress").then(
        (done) => done ?? this.setJobState(component, id, state, record, "pending"),
      );
    } finally {
      record.active = false;
      for (const line of record.logLines) this.runner.owner.onBackgroundLog(line, name);
    }
  }

  /** Waits until scheduled functions already running have finished. */
  async finishInProgressScheduledFunctions(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /** Stops starting scheduled functions (they stay pending in the store). */
  stop(): void {
    this.stopped = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    this.dueTimes.clear();
    this.dueComponents.clear();
  }

  /**
   * Runs every scheduled function that is due (and those they schedule that are due), and resolves
   * when none is due or running: convex-test's `finishAllScheduledFunctions` without moving time.
   */
  async runDueJobs(): Promise<void> {
    for (;;) {
      await this.finishInProgressScheduledFunctions();
      // `runAfter(0)` stores (now + 0) / 1000 seconds: back in milliseconds it may be a hair past now.
      const due = [...this.dueTimes].filter(([, time]) => time <= Date.now() + 1).map(([id]) => id);
      if (due.length === 0) return;
      for (const id of due) {
        const component = this.dueComponents.get(id) ?? "";
        clearTimeout(this.timers.get(id));
        this.forget(id);
        const run = this.runJob(id, component).finally(() => this.inFlight.delete(run));
        this.inFlight.add(run);
      }
    }
  }

  private forget(id: string): void {
    this.timers.delete(id);
    this.dueTimes.delete(id);
    this.dueComponents.delete(id);
  }
}

/** The scheduler's syscalls (`asyncSyscall`). */
export const schedulerSyscalls: Record<string, Syscall<Promise<Value | undefined>>> = {
  [SYSCALL.schedule]: (runner, execution, args) => runner.scheduled.schedule(execution, args),
  [SYSCALL.actionSchedule]: (runner, execution, args) => runner.scheduled.schedule(execution, args),
  [SYSCALL.cancelJob]: (runner, execution, args) => runner.scheduled.cancelJob(execution, args.id as string),
  [SYSCALL.actionCancelJob]: (runner, execution, args) =>
    runner.scheduled.cancelJob(execution, args.id as string),
};
