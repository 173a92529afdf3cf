import { ConvexError } from "convex/values";
import { describe, expect, it } from "vitest";
import { fromWire, toWire } from "./protocol.ts";

/** Through structured clone, as a message between threads. */
const across = <T>(value: T): T => structuredClone(value);

describe("errors between the backend's thread and an isolate", () => {
  it("keeps a ConvexError's class, message and data", () => {
    const thrown = new ConvexError({ code: "NOT_ALLOWED", n: 1n });
    const error = fromWire(across(toWire(thrown)));
    expect(error).toBeInstanceOf(ConvexError);
    expect((error as { data: unknown }).data).toEqual({ code: "NOT_ALLOWED", n: 1n });
    expect((error as Error).message).toBe(thrown.message);
  });

  it("keeps an error's name, message and stack, and the data `asyncSyscall` marshals", () => {
    const thrown = Object.assign(new TypeError("bad"), { data: { code: "X" } });
    const error = fromWire(across(toWire(thrown))) as Error & { data: unknown };
    expect([error.name, error.message, error.stack, error.data]).toEqual([
      "TypeError",
      "bad",
      thrown.stack,
      { code: "X" },
    ]);
  });

  it("gives back the sender's own error when the receiver throws it on", () => {
    const original = new Error("from a syscall");
    const kept = new Map([[7, original]]);
    // The isolate rebuilds it, user code lets it through, and it comes back with its token.
    const inIsolate = fromWire(across(toWire(original, 7)));
    expect(inIsolate).not.toBe(original);
    expect(fromWire(across(toWire(inIsolate)), (token) => kept.get(token))).toBe(original);
  });

  it("keeps a thrown string a string", () => {
    expect(fromWire(across(toWire("just a string")))).toBe("just a string");
  });
});
