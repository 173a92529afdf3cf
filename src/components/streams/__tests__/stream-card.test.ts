import { describe, expect, test } from "vitest";
import { streamStartLabel } from "../stream-card";

const NOW = Date.UTC(2026, 10, 21, 12);
const HOUR = 3_600_000;

describe("streamStartLabel", () => {
  test.each([
    ["SCHEDULED", false, NOW + HOUR, "Starts"],
    ["LIVE", true, NOW - HOUR, "Started"],
    ["PAUSED", true, NOW - HOUR, "Started"],
    ["ENDED", true, NOW - HOUR, "Started"],
    // Went live, then was cancelled while paused: it did start.
    ["CANCELLED", true, NOW - HOUR, "Started"],
    // Taken live before its planned start with no recorded start (a row from before decision 058): the
    // start shown is still ahead, so it never reads "Started", but a live (or paused) show says so.
    ["LIVE", true, NOW + HOUR, "Live now, planned for"],
    ["PAUSED", true, NOW + HOUR, "Paused, planned for"],
    ["ENDED", true, NOW + HOUR, "Planned for"],
    // Not (yet) happened, its time passed: a draft, a late show, a cancelled one.
    ["SCHEDULED", false, NOW - HOUR, "Planned for"],
    ["CREATED", false, NOW - HOUR, "Planned for"],
    ["CANCELLED", false, NOW + HOUR, "Planned for"],
    ["CANCELLED", false, NOW - HOUR, "Planned for"],
  ] as const)("%s (started: %s) starting at %d reads %s", (status, started, start, label) => {
    expect(streamStartLabel(status, started, start, NOW)).toBe(label);
  });
});
