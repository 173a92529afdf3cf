import { expect, test } from "vitest";
import { LATE_START_AFTER_MS } from "@convex/lib/lifecycle";
import { showCountdown } from "../countdown";
import { HOUR, MINUTE, NOW } from "./fixtures";

test("counts down in days, hours and minutes, then says the show is starting, then late", () => {
  const label = (start: number) => showCountdown(start, NOW).label;
  expect(label(NOW + 3 * 24 * HOUR + 2 * HOUR)).toBe("Starts in 3 d 2 h");
  expect(label(NOW + 2 * HOUR + 5 * MINUTE)).toBe("Starts in 2 h 5 min");
  expect(label(NOW + 12 * MINUTE)).toBe("Starts in 12 min");
  expect(label(NOW + MINUTE + 1)).toBe("Starts in 1 min");
  expect(label(NOW + MINUTE)).toBe("Starts in under a minute");
  expect(label(NOW + 1)).toBe("Starts in under a minute");
  expect(label(NOW)).toBe("Starting now");
  expect(label(NOW - LATE_START_AFTER_MS)).toBe("Starting now");
  expect(label(NOW - LATE_START_AFTER_MS - 1)).toBe("Running late");
});

test("gives each phase its tone", () => {
  expect(showCountdown(NOW + HOUR, NOW).tone).toBe("soon");
  expect(showCountdown(NOW - MINUTE, NOW).tone).toBe("now");
  expect(showCountdown(NOW - HOUR, NOW).tone).toBe("late");
});
