/**
 * Which frames of a stack are the function's own, and how they are named, for stacks as V8 writes them
 * without Vite's stack formatting too (nameless frames as a bare location, `file://` URLs).
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { functionFrames, registerFunctionsFolder } from "./error-frames.ts";

const APP = path.resolve("/tmp/frames-app");
const ENGINE = path.resolve(import.meta.dirname, "..");
registerFunctionsFolder(path.join(APP, "convex"));

function thrown(message: string, frames: string[]): Error {
  const error = new Error(message);
  error.stack = [`Error: ${message}`, ...frames.map((frame) => `    at ${frame}`)].join("\n");
  return error;
}

describe("functionFrames", () => {
  it("keeps the function's own frames up to where the engine entered it, named from out/", () => {
    const error = thrown("outer\n    at <anonymous> (/tmp/frames-app/convex/callee.ts:9:9)\n", [
      `file://${APP}/convex/sub/x.ts:3:9`,
      "Array.map (<anonymous>)",
      `async helper (${APP}/shared/h.ts:7:1)`,
      "invokeFunction (/deps/node_modules/convex/dist/esm/server/impl/registration_impl.js:1:1)",
      `<anonymous> (${ENGINE}/runtime/user-code.ts:77:11)`,
      `handler (${APP}/convex/caller.ts:1:1)`,
    ]);
    expect(functionFrames(error)).toEqual([
      "    at <anonymous> (../../convex/sub/x.ts:3:9)",
      "    at async helper (../shared/h.ts:7:1)",
    ]);
  });

  it("leaves out the engine's and convex's frames before the function's (a syscall that threw)", () => {
    const error = thrown("Queries cannot write", [
      `Runner.syscall (${ENGINE}/runtime/runner.ts:1:1)`,
      "performSyscall (/deps/node_modules/convex/dist/esm/server/impl/syscall.js:1:1)",
      `eval (${APP}/convex/x.ts:5:5)`,
      "process.processTicksAndRejections (node:internal/process/task_queues:95:5)",
    ]);
    expect(functionFrames(error)).toEqual(["    at <anonymous> (../convex/x.ts:5:5)"]);
  });

  it("gives none when no frame is the functions' (an error of the engine's own)", () => {
    expect(functionFrames(thrown("no", [`Runner.run (${ENGINE}/runtime/runner.ts:1:1)`]))).toEqual([]);
  });
});
