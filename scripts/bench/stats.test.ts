import { describe, expect, it } from "vitest";
import { ms, ratio, recordMsFigure } from "./stats";

describe("figures printed against their budgets", () => {
  it("prints two decimals where they show which side of the budget a value lies", () => {
    expect(ms(4.514)).toBe("4.51 ms");
    expect(ms(4.514, 5)).toBe("4.51 ms");
    expect(ms(5, 5)).toBe("5.00 ms");
    expect(ratio(1.234, 1.5)).toBe("×1.23");
  });

  it("adds decimals to a value over its budget that two would round down to it", () => {
    expect(ms(5.004, 5)).toBe("5.004 ms");
    expect(ms(5.0004, 5)).toBe("5.0004 ms");
    expect(ratio(1.5001, 1.5)).toBe("×1.5001");
  });

  it("adds decimals to a value within its budget that two would round past it, not to it", () => {
    expect(ms(4.996, 4.999)).toBe("4.996 ms");
    expect(ms(4.996, 5)).toBe("5.00 ms");
  });

  it("records a time over its budget by any amount as over it, and one at it as within", () => {
    expect(recordMsFigure("test", "a time just over", 5.004, 5)).toBe("OVER BUDGET");
    expect(recordMsFigure("test", "a time at the budget", 5, 5)).toBe("within budget");
  });
});
