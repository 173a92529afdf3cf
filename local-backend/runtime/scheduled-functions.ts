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
import { splitUdfPath } from "../core/paths.ts";
import { ConvexSystemError } from "../database/transaction.ts";
import { SYSCALL } from "./convex-abi.ts";
import { describeThrown, executions, type Execution, type Syscall } from "./execution.ts";
import { newCallRecord, type CallRecord } from "./instrument.ts";
import { addressOf } from "./nested-calls.ts";
import type { Runner } from "./runner.ts";

/**
 * Scheduled functions this process holds (`backlog`): armed and waiting (`pending`), of those the ones
 * whose time has come and that have not started (`due`: the scheduler is behind), and running. A job
 * canceled while armed counts as pending until its time, when it is dropped.
 */
export type SchedulerBacklog = { pending: number; due: number; running: number };

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

  /**
   * Stores a job in the caller's `_scheduled_functions`, as Convex's scheduler keeps it with whoever
   * scheduled it, even when it runs a child component's function (its id resolves for the caller,
   * who may watch or cancel it). Whether the function can be scheduled is decided when it runs.
   */
  async schedule(execution: Execution, args: Record<string, JSONValue>): Promise<string> {
    const { component: target, udfPath } = addressOf(this.runner, execution, args);
    const owner = execution.component;
    const scheduledTime = Number(args.ts) * 1000;
    return await this.runner.inWriteTransaction(execution, (tx) => {
      const jobArgs = [jsonToConvex(args.args ?? {})];
      tx.meter.schedule(measureValue(jobArgs).size);
      const doc: Document = {
        name: udfPath,
        args: jobArgs,
        scheduledTime,
        state: { kind: "pending" },
        _id: this.runner.store.newId(owner, "_scheduled_functions"),
        _creationTime: this.runner.store.newCreationTime(owner),
      };
      this.runner.store.write(owner, "_scheduled_functions", null, doc);
      if (target !== owner) {
        // Convex's job document does not show the component: it is kept beside it, by the job's id.
        this.runner.store.write(owner, TARGETS_TABLE, null, {
          _id: targetIdOf(doc._id as string),
          _creationTime: doc._creationTime,
          component: target,
        });
      }
      tx.scheduled.push({ id: doc._id as string, component: owner, time: scheduledTime });
      return doc._id as string;
    });
  }

  /** The component whose function the job `id` of `owner` runs. */
  private targetOf(owner: ComponentPath, id: string): ComponentPath {
    const kept = this.runner.store.get(targetIdOf(id));
    return kept && kept.component === owner ? (kept.doc.component as ComponentPath) : owner;
  }

  async cancelJob(execution: Execution, id: string): Promise<null> {
    return await this.runner.inWriteTransaction(execution, () => {
      const stored = this.runner.store.get(id);
      if (!stored || stored.table !== "_scheduled_functions" || stored.component !== execution.component)
        throw new Error(`No scheduled function ${id}`);
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

  /**
   * Runs the job `id` of `owner`'s `_scheduled_functions`: its function (of the component it names),
   * then its state in `owner`. A job its own mutation canceled stays canceled, its writes kept.
   */
  private async runJob(id: string, owner: ComponentPath): Promise<void> {
    if (this.stopped) return;
    const job = this.runner.store.get(id);
    if (!job || (job.doc.state as { kind: string }).kind !== "pending") return;
    const name = job.doc.name as string;
    const args = ((job.doc.args as Value[])[0] ?? {}) as Record<string, Value>;
    const component = this.targetOf(owner, id);
    const record = newCallRecord(this.runner.owner, name);
    try {
      const fn = await this.runner.resolve(component, name);
      if (!fn) throw new ConvexSystemError(`Could not find function for '${name}'`);
      if (fn.isMutation) {
        // Exactly once: the job's state changes in the mutation's own transaction.
        await this.runner.transaction(component, record, true, async (tx) => {
          if (!isPending(this.runner.store.get(id))) return;
          const checked = this.runner.checkArgs(fn, args, name);
          const text = await executions.run(
            this.runner.executionFor("mutation", component, name, null, record)(tx),
            () => fn.invokeMutation!(JSON.stringify(convexToJson([checked]))),
          );
          this.runner.checkReturns(fn, text, name);
          const current = this.runner.store.get(id);
          if (!isPending(current)) return;
          this.runner.store.write(owner, "_scheduled_functions", current!.doc, {
            ...current!.doc,
            state: { kind: "success" },
            completedTime: Date.now(),
          });
        });
      } else if (fn.isAction) {
        if (!(await this.setJobState(owner, id, { kind: "inProgress" }, record, "pending"))) return;
        await this.runner.run({ component, udfPath: name, args, identity: null, kind: "action" }, record);
        await this.setJobState(owner, id, { kind: "success" }, record, "inProgress");
      } else {
        throw new ConvexSystemError(unsupportedJobType(name, component));
      }
    } catch (e) {
      const thrown = describeThrown(e);
      record.logLines.push(
        e instanceof ConvexSystemError
          ? `[ERROR] ${thrown.message}`
          : `[ERROR] Uncaught ${thrown.name}: ${thrown.message}`,
      );
      const state = { kind: "failed", error: thrown.message };
      await this.setJobState(owner, id, state, record, "inProgress").then(
        (done) => done ?? this.setJobState(owner, id, state, record, "pending"),
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

  /** In memory: the armed jobs' times are walked, nothing is read from the store. */
  backlog(now: number): SchedulerBacklog {
    let due = 0;
    for (const time of this.dueTimes.values()) if (time <= now) due += 1;
    return { pending: this.dueTimes.size, due, running: this.inFlight.size };
  }

  /** Whether jobs are started (false once stopped). */
  get running(): boolean {
    return !this.stopped;
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

/** Where a job that runs another component's function keeps that component (a system table). */
const TARGETS_TABLE = "_scheduled_function_targets";

function targetIdOf(jobId: string): string {
  return jobId.slice(0, -"_scheduled_functions".length) + TARGETS_TABLE;
}

function isPending(stored: { doc: Document } | null): boolean {
  return stored !== null && (stored.doc.state as { kind: string }).kind === "pending";
}

/** Convex's words for a job whose function is a query (`crates/application/src/scheduled_jobs`). */
function unsupportedJobType(udfPath: string, component: ComponentPath): string {
  const { modulePath, exportName } = splitUdfPath(udfPath);
  const where = component ? ` in component "${component}"` : "";
  return `Unsupported function type. "${exportName}" in module "${modulePath}.js"${where} is defined as a Query. Only Mutation and Action can be scheduled.`;
}

/** The scheduler's syscalls (`asyncSyscall`). */
export const schedulerSyscalls: Record<string, Syscall<Promise<Value | undefined>>> = {
  [SYSCALL.schedule]: (runner, execution, args) => runner.scheduled.schedule(execution, args),
  [SYSCALL.actionSchedule]: (runner, execution, args) => runner.scheduled.schedule(execution, args),
  [SYSCALL.cancelJob]: (runner, execution, args) => runner.scheduled.cancelJob(execution, args.id as string),
  [SYSCALL.actionCancelJob]: (runner, execution, args) =>
    runner.scheduled.cancelJob(execution, args.id as string),
};
