"use node";
/**
 * Actions of a `"use node"` module, which Convex runs in Node: one that never settles is timed out in
 * the words of Convex's Node executor (user-code.test.ts); console lines are written as it writes
 * them (behaviour.test.ts).
 */
import { action } from "./_generated/server";

export const neverSettles = action({
  args: {},
  handler: () => new Promise<never>(() => undefined),
});

export const logs = action({
  args: {},
  handler: () => {
    console.log("plain", 3, { a: "b" });
    console.time("foo");
    console.time("foo");
    console.timeLog("foo", "bar", 3);
    console.timeEnd("foo");
    console.timeEnd("foo");
  },
});
