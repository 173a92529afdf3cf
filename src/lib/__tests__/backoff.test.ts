import { describe, expect, test } from "vitest";
import { backoffDelayMs } from "../backoff";

const SPEC = { initialDelayMs: 125, factor: 2, maxRetries: 5 };

describe("backoffDelayMs", () => {
  test("follows the schedule of docs/product.md#errors: 125 ms, doubling, five retries", () => {
    expect([1, 2, 3, 4, 5].map((retry) => backoffDelayMs(retry, SPEC))).toEqual([125, 250, 500, 1000, 2000]);
  });

  test("has nothing to offer once the retries are used up", () => {
    expect(backoffDelayMs(6, SPEC)).toBeNull();
    expect(backoffDelayMs(1, { ...SPEC, maxRetries: 0 })).toBeNull();
  });

  test("refuses retry numbers that are not 1, 2, 3…", () => {
    expect(backoffDelayMs(0, SPEC)).toBeNull();
    expect(backoffDelayMs(-1, SPEC)).toBeNull();
    expect(backoffDelayMs(1.5, SPEC)).toBeNull();
  });
});
