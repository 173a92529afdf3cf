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

/**
 * Ways to allocate without bound. Node's own heap limit on a worker thread aborts the whole process on
 * all but the first (nodejs/node#47224: one allocation near the limit larger than Node's 16 MB of
 * leeway); the heap guard (decision 090) fails the call alone.
 */
export const ALLOCATION_SHAPES = [
  "8 MB arrays",
  "32 MB arrays",
  "one growing array",
  "20 MB strings",
] as const;

// An action, not a query: the heap limit is the same in both, and an action's time (Convex's 10 minutes,
// in the test too) leaves a busy host room to reach it, where allocating 128 MB can take more than a
// query's 1 s of CPU.
export const allocate = action({
  args: {
    unbounded: v.boolean(),
    shape: v.optional(v.union(...ALLOCATION_SHAPES.map((shape) => v.literal(shape)))),
  },
  handler: (_ctx, { unbounded, shape = "8 MB arrays" }) => {
    const kept: unknown[] = [];
    const grown: number[] = [];
    let steps = 0;
    do {
      steps++;
      if (shape === "8 MB arrays") kept.push(new Array<number>(1_000_000).fill(steps));
      else if (shape === "32 MB arrays") kept.push(new Array<number>(4_000_000).fill(steps));
      else if (shape === "one growing array") for (let i = 0; i < 1_000_000; i++) grown.push(i);
      else {
        const text = "ab".repeat(5_000_000) + String(steps);
        // Reading a character flattens the string into one 20 MB allocation.
        if (text.charCodeAt(1) === 98) kept.push(text);
      }
    } while (unbounded);
    return steps;
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
