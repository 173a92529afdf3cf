/**
 * The backend's figures (metrics.ts) and what they read: a bounded count of an index range (the
 * e-mail queue's way), failures by class, readiness in words.
 */
import { Registry } from "prom-client";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { m, newHttpClient, startFixtureBackend } from "../conformance/test-helpers.ts";
import { failureClass, registerBackendMetrics, registerBackupMetrics } from "./metrics.ts";
import type { RunningLocalBackend } from "./start.ts";

let backend: RunningLocalBackend;

beforeAll(async () => {
  backend = await startFixtureBackend();
});
afterAll(async () => {
  await backend?.stop();
});

describe("countIndexPrefix", () => {
  test("counts the documents of an index prefix, at most the limit; null without such an index", async () => {
    const client = newHttpClient(backend.url);
    for (const channel of ["a", "b", "c"]) {
      await client.mutation(m("limited:send"), { channel, body: "x" });
    }
    const core = backend.core;
    // @convex-dev/rate-limiter's `rateLimits` by ["name", "key", "shard"]: one row per channel.
    expect(core.countIndexPrefix("rateLimiter", "rateLimits", "name", ["send"], 100)).toBe(3);
    expect(core.countIndexPrefix("rateLimiter", "rateLimits", "name", ["send"], 2)).toBe(2);
    expect(core.countIndexPrefix("rateLimiter", "rateLimits", "name", ["send", "b"], 100)).toBe(1);
    expect(core.countIndexPrefix("rateLimiter", "rateLimits", "name", ["other"], 100)).toBe(0);
    expect(core.countIndexPrefix("resend", "emails", "by_status_segment", ["waiting"], 100)).toBeNull();
  });
});

describe("the backend's figures", () => {
  test("a failing mutation is counted by kind and class; the scheduler is ready", async () => {
    const registry = new Registry();
    const stop = registerBackendMetrics(registry, backend.core);
    try {
      await newHttpClient(backend.url)
        .mutation(m("messages:failWithConvexError"), {})
        .catch(() => null);
      const text = await registry.metrics();
      expect(text).toContain('livelocal_function_errors_total{kind="mutation",class="convex_error"} 1');
      expect(text).toContain('livelocal_scheduled_functions{state="pending"} 0');
      expect(backend.core.readiness()).toEqual([]);
    } finally {
      stop();
    }
  });

  test.each([
    [{ convexError: true, errorMessage: "Uncaught ConvexError: {}" }, "convex_error"],
    [{ convexError: false, errorMessage: "ArgumentValidationError: Object is missing" }, "refused"],
    [{ convexError: false, errorMessage: "Could not find public function for 'x:y'" }, "refused"],
    [{ convexError: false, errorMessage: "Uncaught Error: boom\n    at handler" }, "uncaught"],
    [{ convexError: false, errorMessage: "Function execution timed out" }, "system"],
  ])("%j is %s", (failure, expected) => {
    expect(failureClass({ udfPath: "x:y", kind: "mutation", ...failure })).toBe(expected);
  });
});

describe("the backups' figures", () => {
  test("say when the newest complete backup was taken, its size, and how many failed", async () => {
    const registry = new Registry();
    const backups = { lastSuccess: () => null as { at: number; bytes: number } | null, failures: 0 };
    registerBackupMetrics(registry, backups);
    expect(await registry.metrics()).toMatch(/^livelocal_backup_last_success_timestamp_seconds 0$/m);
    backups.lastSuccess = () => ({ at: Date.UTC(2026, 10, 30, 6), bytes: 2048 });
    backups.failures = 2;
    const text = await registry.metrics();
    expect(text).toMatch(/^livelocal_backup_last_success_timestamp_seconds 1796018400$/m);
    expect(text).toMatch(/^livelocal_backup_last_success_bytes 2048$/m);
    expect(text).toMatch(/^livelocal_backup_failures 2$/m);
  });
});
