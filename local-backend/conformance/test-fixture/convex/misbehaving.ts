/** Actions whose code fails outside the promise they return, or never settles (user-code.test.ts). */
import { readFile } from "node:fs";
import http from "node:http";
import { makeFunctionReference } from "convex/server";
import { v } from "convex/values";
import { action } from "./_generated/server";

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
