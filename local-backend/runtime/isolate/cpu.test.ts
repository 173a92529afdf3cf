import { describe, expect, it } from "vitest";
import { ThreadCpuClock, ownThreadId } from "./cpu.ts";

const linux = process.platform === "linux";

describe.runIf(linux)("a thread's own CPU time", () => {
  it("grows while the thread computes and not while it waits", () => {
    const tid = ownThreadId()!;
    expect(tid).toBeGreaterThan(0);
    const clock = new ThreadCpuClock(tid);
    const threadCpuMs = () => clock.ms();
    const before = threadCpuMs()!;
    let x = 0;
    while (threadCpuMs()! - before < 200) for (let i = 0; i < 100_000; i++) x = (x * 31 + i) % 1_000_003;
    expect(x).toBeGreaterThanOrEqual(0);
    const computed = threadCpuMs()!;
    expect(computed - before).toBeGreaterThanOrEqual(200);
    // Blocked as an isolate waits for a syscall's answer: no CPU time, however long the wait.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 500);
    expect(threadCpuMs()! - computed).toBeLessThan(100);
    clock.close();
    expect(clock.ms()).toBeNull();
  });

  it("is unknown for a thread that does not exist", () => {
    expect(new ThreadCpuClock(2 ** 30).ms()).toBeNull();
  });
});
