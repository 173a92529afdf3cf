import { describe, expect, test } from "vitest";
import { streamStartLabel } from "../stream-card";

const NOW = Date.UTC(2026, 10, 21, 12);
const HOUR = 3_600_000;

describe("streamStartLabel", () => {
  test.each([
    ["SCHEDULED", NOW + HOUR, "Starts"],
    ["LIVE", NOW - HOUR, "Started"],
    ["PAUSED", NOW - HOUR, "Started"],
    ["ENDED", NOW - HOUR, "Started"],
    // Taken live before its planned start: the start is still ahead, so it never reads "Started", but a
    // live (or paused) show says so (issue 16 item 9).
    ["LIVE", NOW + HOUR, "Live now, planned for"],
    ["PAUSED", NOW + HOUR, "Paused, planned for"],
    ["ENDED", NOW + HOUR, "Planned for"],
    // Not (yet) happened, its time passed: a draft, a late show, a cancelled one.
    ["SCHEDULED", NOW - HOUR, "Planned for"],
    ["CREATED", NOW - HOUR, "Planned for"],
    ["CANCELLED", NOW + HOUR, "Planned for"],
  ] as const)("%s starting at %d reads %s", (status, start, label) => {
    expect(streamStartLabel(status, start, NOW)).toBe(label);
  });
});
