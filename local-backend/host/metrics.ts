/**
 * The backend's figures in Prometheus's terms (prom-client; decision 094): live sockets, subscriptions,
 * commit latency, the scheduler's backlog and function errors. Gauges are read when scraped, from
 * counts the backend keeps in memory; nothing here reads the store. The process's own figures (CPU,
 * memory, event loop lag, GC) are registered once per process (`processMetrics`).
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import { processWide } from "../core/process-wide.ts";
import type { FunctionFailure } from "../runtime/engine.ts";
import type { LocalBackendCore } from "./backend.ts";
import type { BackupSchedule } from "./backup-schedule.ts";

/** Commits are flushed in well under a millisecond on an SSD, tens of ms on a slow disk. */
const COMMIT_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

/**
 * Node's own figures (`process_*`, `nodejs_*`), one set per process however many servers it runs (the
 * tests start several): a registry of its own, scraped beside each server's.
 */
export function processMetrics(): Registry {
  return processWide("processMetrics", () => {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });
    return registry;
  });
}

/**
 * What a function's failure was: thrown on purpose (`ConvexError`, the app's answer), a call the
 * backend refused before running it (no such function, wrong kind, bad arguments), an uncaught error
 * of the function's code, or the backend's own (a database error, a timeout).
 */
export function failureClass(failure: FunctionFailure): "convex_error" | "refused" | "uncaught" | "system" {
  if (failure.convexError) return "convex_error";
  const message = failure.errorMessage;
  if (
    /^(ArgumentValidationError|ReturnsValidationError|Could not find public function|Trying to execute)/.test(
      message,
    )
  )
    return "refused";
  if (message.startsWith("Uncaught ")) return "uncaught";
  return "system";
}

/** Registers the backend's figures on `registry`; returns what stops listening to the backend. */
export function registerBackendMetrics(registry: Registry, core: LocalBackendCore): () => void {
  new Gauge({
    name: "livelocal_websocket_connections",
    help: "Sync WebSocket connections open.",
    registers: [registry],
    collect() {
      this.set(core.sync.connectionCount());
    },
  });
  new Gauge({
    name: "livelocal_subscriptions",
    help: "Queries subscribed over every sync connection (one asked for by two clients counts twice).",
    registers: [registry],
    collect() {
      this.set(core.sync.subscriptionCount());
    },
  });
  new Gauge({
    name: "livelocal_subscription_computations",
    help: "Query computations kept live (subscriptions with the same function, arguments and identity share one).",
    registers: [registry],
    collect() {
      this.set(core.subscriptions.computationCount());
    },
  });
  new Gauge({
    name: "livelocal_scheduled_functions",
    help: "Scheduled functions: pending (armed, waiting for their time), due (their time has come, not yet started), running.",
    labelNames: ["state"],
    registers: [registry],
    collect() {
      const backlog = core.schedulerBacklog();
      this.set({ state: "pending" }, backlog.pending);
      this.set({ state: "due" }, backlog.due);
      this.set({ state: "running" }, backlog.running);
    },
  });
  new Gauge({
    name: "livelocal_cron_jobs",
    help: "Cron jobs (convex/crons.ts) armed.",
    registers: [registry],
    collect() {
      this.set(core.crons.jobCount());
    },
  });
  const commits = new Histogram({
    name: "livelocal_commit_duration_seconds",
    help: "Time from a transaction's COMMIT to its write-ahead log flushed to disk (commits that wrote something).",
    buckets: COMMIT_BUCKETS,
    registers: [registry],
  });
  const failures = new Counter({
    name: "livelocal_function_errors_total",
    help: "Functions that failed, by kind (query, mutation, action, http) and class (convex_error, refused, uncaught, system).",
    labelNames: ["kind", "class"],
    registers: [registry],
  });
  const stopTiming = core.commits.timeCommits((ms) => commits.observe(ms / 1000));
  const stopFailures = core.onFunctionFailure((failure) =>
    failures.inc({ kind: failure.kind ?? "unknown", class: failureClass(failure) }),
  );
  return () => {
    stopTiming();
    stopFailures();
  };
}

/** The scheduled backups' figures (`npm start -- --backup-dir`, decision 096): alert when the last is old. */
export function registerBackupMetrics(
  registry: Registry,
  backups: Pick<BackupSchedule, "lastSuccess" | "failures">,
): void {
  new Gauge({
    name: "livelocal_backup_last_success_timestamp_seconds",
    help: "When the newest complete backup was taken (0: none yet).",
    registers: [registry],
    collect() {
      this.set((backups.lastSuccess()?.at ?? 0) / 1000);
    },
  });
  new Gauge({
    name: "livelocal_backup_last_success_bytes",
    help: "The newest complete backup's size.",
    registers: [registry],
    collect() {
      this.set(backups.lastSuccess()?.bytes ?? 0);
    },
  });
  new Gauge({
    name: "livelocal_backup_failures",
    help: "Backups that failed since the server started.",
    registers: [registry],
    collect() {
      this.set(backups.failures);
    },
  });
}
