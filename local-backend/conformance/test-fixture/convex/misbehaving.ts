/**
 * Functions that misbehave (user-code.test.ts): actions whose code fails outside the promise they
 * return or never settles, and functions that loop, compute past the limit or allocate without bound
 * (each also called honestly, to show the next call works).
 */
import { readFile, readFileSync } from "node:fs";
import http from "node:http";
import { makeFunctionReference } from "convex/server";
import { v } from "convex/values";
import { action, mutation, query } from "./_generated/server";

const addRef = makeFunctionReference<"mutation", { channel: string; author: string; body: string }, string>(
  "messages:add",
);

export const throwInTimer = action({
  args: {},
  handler: () =>
    new Promise<never>(() => {
      setTimeout(() => {
        throw new Error("thrown in a timer");
      }, 1);
    }),
});

export const throwInFileCallback = action({
  args: {},
  handler: () =>
    new Promise<never>(() => {
      readFile("/no/such/file", () => {
        throw new Error("thrown in a file callback");
      });
    }),
});

/** An `'error'` event nobody listens to: the connection is refused. */
export const unhandledErrorEvent = action({
  args: {},
  handler: () =>
    new Promise<never>(() => {
      http.get("http://127.0.0.1:1/");
    }),
});

export const rejectUnhandled = action({
  args: {},
  handler: () =>
    new Promise<never>(() => {
      void Promise.reject(new Error("a rejection nobody handled"));
    }),
});

/** Never settles; once past its timeout it tries to write, which must not land. */
export const neverSettles = action({
  args: { channel: v.string(), afterMs: v.number() },
  handler: (ctx, { channel, afterMs }) =>
    new Promise<never>(() => {
      setTimeout(() => {
        void ctx.runMutation(addRef, { channel, author: "late", body: "written after the timeout" });
      }, afterMs);
    }),
});

export const loop = query({
  args: { forever: v.boolean() },
  handler: (_ctx, { forever }) => {
    while (forever) {
      // spins
    }
    return "done";
  },
});

/** Writes, then loops: the write must not be committed. */
export const writeThenLoop = mutation({
  args: { channel: v.string(), forever: v.boolean() },
  handler: async (ctx, { channel, forever }) => {
    await ctx.db.insert("messages", { channel, author: "looper", body: "written before the loop", rank: 0 });
    while (forever) {
      // spins
    }
    return "done";
  },
});

/** This thread's own CPU time in ms (Linux), or null. */
function threadCpuMs(): number | null {
  try {
    const fields = readFileSync("/proc/thread-self/stat", "latin1").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/** Computes for `cpuMs` of its own CPU time (wall time where the OS does not count it). */
export const compute = query({
  args: { cpuMs: v.number() },
  handler: (_ctx, { cpuMs }) => {
    const now = () => threadCpuMs() ?? Date.now();
    const start = now();
    let x = 0;
    while (now() - start < cpuMs) {
      for (let i = 0; i < 100_000; i++) x = (x * 31 + i) % 1_000_003;
    }
    return x >= 0 ? "computed" : "never";
  },
});

// An action, not a query: the heap limit is the same in both, and an action's 5 s (in the test) leaves a
// busy host room to reach it, where allocating 128 MB can take more than a query's 1 s of CPU.
export const allocate = action({
  args: { unbounded: v.boolean() },
  handler: (_ctx, { unbounded }) => {
    const kept: number[][] = [];
    do kept.push(new Array<number>(1_000_000).fill(kept.length));
    while (unbounded);
    return kept.length;
  },
});

export const loopAction = action({
  args: { forever: v.boolean() },
  handler: (_ctx, { forever }) => {
    while (forever) {
      // spins
    }
    return Promise.resolve("done");
  },
});
