import { describe, expect, test } from "vitest";
import { contrastRatio, MIN_TEXT_CONTRAST } from "../contrast";

describe("contrastRatio (WCAG 2.x)", () => {
  test("black on white is 21:1 and a colour on itself is 1:1", () => {
    expect(contrastRatio("#000000", "#ffffff")).toBeCloseTo(21);
    expect(contrastRatio("#16a34a", "#16a34a")).toBeCloseTo(1);
  });

  test("matches published figures: #767676 is the lightest grey that passes on white", () => {
    expect(contrastRatio("#767676", "#FFFFFF")).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
    expect(contrastRatio("#777777", "#ffffff")).toBeLessThan(MIN_TEXT_CONTRAST);
  });

  test("is null for anything but #rrggbb", () => {
    expect(contrastRatio("#fff", "#ffffff")).toBeNull();
    expect(contrastRatio("green", "#ffffff")).toBeNull();
  });
});
