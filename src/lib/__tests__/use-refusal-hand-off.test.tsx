import { renderHook } from "@testing-library/react";
import { describe, expect, test, vi } from "vitest";
import { useRefusalHandOff } from "../use-refusal-hand-off";

function setUp() {
  const orphaned = vi.fn<(message: string) => void>();
  const shown = vi.fn<(message: string) => void>();
  const hook = renderHook(() => useRefusalHandOff(orphaned));
  return { orphaned, shown, hook };
}

describe("a refusal that outlives what it refused", () => {
  test("is shown beside it while it is on the page, and handed on when it leaves", () => {
    const { orphaned, shown, hook } = setUp();
    hook.result.current.refuse("The shop is already a draft.", shown);
    expect(shown).toHaveBeenCalledWith("The shop is already a draft.");
    expect(orphaned).not.toHaveBeenCalled();
    hook.unmount();
    expect(orphaned).toHaveBeenCalledExactlyOnceWith("The shop is already a draft.");
  });

  test("that comes once it has left goes straight to the page", () => {
    const { orphaned, shown, hook } = setUp();
    const { refuse } = hook.result.current;
    hook.unmount();
    refuse("This request has already been answered.", shown);
    expect(shown).not.toHaveBeenCalled();
    expect(orphaned).toHaveBeenCalledExactlyOnceWith("This request has already been answered.");
  });

  test("that was read (cleared) is not handed on", () => {
    const { orphaned, shown, hook } = setUp();
    hook.result.current.refuse("Too late.", shown);
    hook.result.current.clear();
    hook.unmount();
    expect(orphaned).not.toHaveBeenCalled();
  });

  test("keeps the same functions between renders", () => {
    const { hook } = setUp();
    const first = hook.result.current;
    hook.rerender();
    expect(hook.result.current).toBe(first);
  });
});
