/** Shared setup for the conformance tests: the fixture backend and official clients. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ConvexClient, ConvexHttpClient } from "convex/browser";
import { makeFunctionReference, type FunctionReference } from "convex/server";
import type { Value } from "convex/values";
import { WebSocket } from "ws";
import { startLocalBackend, type RunningLocalBackend, type StartLocalBackendOptions } from "./start.ts";

export const fixtureDir = path.join(import.meta.dirname, "test-fixture", "convex");

export function tempDataDir(): string {
  return mkdtempSync(path.join(tmpdir(), "local-backend-test-"));
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

export async function startFixtureBackend(
  options: StartLocalBackendOptions = {},
): Promise<RunningLocalBackend> {
  return await startLocalBackend({
    functionsDir: fixtureDir,
    dataDir: null,
    port: 0,
    crons: false,
    watch: false,
    functionLogs: "none",
    ...options,
  });
}

export function newClient(url: string): ConvexClient {
  return new ConvexClient(url, {
    webSocketConstructor: WebSocket as unknown as typeof globalThis.WebSocket,
    skipConvexDeploymentUrlCheck: true,
    logger: false,
  });
}

export function newHttpClient(url: string): ConvexHttpClient {
  return new ConvexHttpClient(url, { skipConvexDeploymentUrlCheck: true, logger: false });
}

type AnyArgs = Record<string, Value>;
export const q = (name: string) => makeFunctionReference<"query", AnyArgs, Value>(name);
export const m = (name: string) => makeFunctionReference<"mutation", AnyArgs, Value>(name);
export const a = (name: string) => makeFunctionReference<"action", AnyArgs, Value>(name);

/** Subscribes and records every value; `next(pred)` waits for a value matching `pred`. */
export function watch<T extends Value>(
  client: ConvexClient,
  query: FunctionReference<"query", "public", AnyArgs, Value>,
  args: AnyArgs,
): {
  values: T[];
  errors: Error[];
  next(pred: (value: T) => boolean, timeoutMs?: number): Promise<T>;
  stop(): void;
} {
  const values: T[] = [];
  const errors: Error[] = [];
  const waiters: { pred: (value: T) => boolean; resolve: (value: T) => void }[] = [];
  const unsubscribe = client.onUpdate(
    query,
    args,
    (value) => {
      values.push(value as T);
      for (const waiter of [...waiters]) {
        if (waiter.pred(value as T)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(value as T);
        }
      }
    },
    (error) => errors.push(error),
  );
  return {
    values,
    errors,
    next(pred, timeoutMs = 5000) {
      const found = values.find(pred);
      if (found !== undefined) return Promise.resolve(found);
      return new Promise<T>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`timed out; values seen: ${JSON.stringify(values)}`)),
          timeoutMs,
        );
        waiters.push({
          pred,
          resolve: (value) => {
            clearTimeout(timer);
            resolve(value);
          },
        });
      });
    },
    stop: () => unsubscribe(),
  };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await sleep(20);
  }
}
