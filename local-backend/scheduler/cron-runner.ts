/**
 * Runs the jobs of `convex/crons.ts` (its default export, a `Crons` from `cronJobs()`) on their
 * schedules in real time: intervals, hourly, daily, weekly, monthly and cron strings (UTC).
 */
import { CronExpressionParser } from "cron-parser";
import { jsonToConvex, type JSONValue, type Value } from "convex/values";
import { inRootScope } from "../core/root-scope.ts";
import type { CallOutcome } from "../runtime/call-outcome.ts";

type Schedule =
  | { type: "interval"; seconds?: number; minutes?: number; hours?: number }
  | { type: "hourly"; minuteUTC?: number }
  | { type: "daily"; hourUTC: number; minuteUTC?: number }
  | { type: "weekly"; dayOfWeek: string; hourUTC: number; minuteUTC?: number }
  | { type: "monthly"; day: number; hourUTC: number; minuteUTC?: number }
  | { type: "cron"; cron: string };

export type CronJob = { name: string; args: JSONValue[]; schedule: Schedule };

const DAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];

/** Convex picks a minute per job when none is given; a stable hash of the job's identifier here. */
function minuteFor(identifier: string, minuteUTC: number | undefined): number {
  if (minuteUTC !== undefined) return minuteUTC;
  let hash = 0;
  for (const char of identifier) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return hash % 60;
}

/** The cron string equivalent of a calendar schedule (null for intervals). */
export function cronStringFor(identifier: string, schedule: Schedule): string | null {
  switch (schedule.type) {
    case "interval":
      return null;
    case "hourly":
      return `${minuteFor(identifier, schedule.minuteUTC)} * * * *`;
    case "daily":
      return `${minuteFor(identifier, schedule.minuteUTC)} ${schedule.hourUTC} * * *`;
    case "weekly":
      return `${minuteFor(identifier, schedule.minuteUTC)} ${schedule.hourUTC} * * ${DAYS.indexOf(schedule.dayOfWeek.toLowerCase())}`;
    case "monthly":
      return `${minuteFor(identifier, schedule.minuteUTC)} ${schedule.hourUTC} ${schedule.day} * *`;
    case "cron":
      return schedule.cron;
  }
}

/** When a job runs next, in ms since the epoch. */
export function nextRunAt(identifier: string, schedule: Schedule, after: number): number {
  if (schedule.type === "interval") {
    const ms = ((schedule.seconds ?? 0) + (schedule.minutes ?? 0) * 60 + (schedule.hours ?? 0) * 3600) * 1000;
    return after + Math.max(ms, 1000);
  }
  const expression = cronStringFor(identifier, schedule) ?? "* * * * *";
  return CronExpressionParser.parse(expression, { currentDate: new Date(after), tz: "UTC" })
    .next()
    .getTime();
}

/** Reads the jobs from the `crons` module (none when it is missing or has no `Crons` default export). */
export function jobsFromModule(module: Record<string, unknown> | null): Record<string, CronJob> {
  const crons = module?.default as { isCrons?: boolean; crons?: Record<string, CronJob> } | undefined;
  return crons?.isCrons && crons.crons ? crons.crons : {};
}

export class CronRunner {
  private timers = new Map<string, ReturnType<typeof setTimeout>>();
  private stopped = false;
  private generation = 0;

  constructor(
    private readonly run: (udfPath: string, args: Value) => Promise<CallOutcome>,
    private readonly log: (line: string, udfPath: string) => void,
  ) {}

  /** Replaces the running jobs (on start and when `crons.ts` changes). */
  setJobs(jobs: Record<string, CronJob>): void {
    this.clear();
    this.generation += 1;
    if (this.stopped) return;
    for (const [identifier, job] of Object.entries(jobs)) {
      this.schedule(identifier, job, Date.now());
    }
  }

  jobCount(): number {
    return this.timers.size;
  }

  /** Whether jobs fire (false once stopped). */
  get running(): boolean {
    return !this.stopped;
  }

  private schedule(identifier: string, job: CronJob, after: number): void {
    const generation = this.generation;
    let at: number;
    try {
      at = nextRunAt(identifier, job.schedule, after);
    } catch (e) {
      this.log(`[ERROR] cron "${identifier}" has an invalid schedule: ${String(e)}`, job.name);
      return;
    }
    inRootScope(() => {
      const timer = setTimeout(
        () => {
          if (generation === this.generation) void this.fire(identifier, job, at, generation);
        },
        Math.min(Math.max(0, at - Date.now()), 2 ** 31 - 1),
      );
      timer.unref();
      this.timers.set(identifier, timer);
    });
  }

  private async fire(identifier: string, job: CronJob, at: number, generation: number): Promise<void> {
    if (this.stopped) return;
    if (Date.now() < at) {
      // A long delay was capped; wait again.
      this.schedule(identifier, job, at - 1);
      return;
    }
    const outcome = await this.run(job.name, jsonToConvex(job.args[0] ?? {}));
    for (const line of outcome.logLines) this.log(line, job.name);
    if (!outcome.success) this.log(`[ERROR] cron "${identifier}" failed: ${outcome.errorMessage}`, job.name);
    if (!this.stopped && generation === this.generation)
      this.schedule(identifier, job, Math.max(at, Date.now()));
  }

  private clear(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  stop(): void {
    this.stopped = true;
    this.clear();
  }
}
