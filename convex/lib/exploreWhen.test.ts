import { describe, expect, test } from "vitest";
import {
  calendarDay,
  effectiveSort,
  exploreViewRefusal,
  inStartWindow,
  parseExploreView,
  planExploreWhen,
  writeExploreView,
  type ExploreView,
} from "./exploreWhen";

const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

function windowOf(view: ExploreView) {
  const plan = planExploreWhen(view);
  return { live: plan.live, from: iso(plan.upcoming?.from), before: iso(plan.upcoming?.before) };
}

describe("the viewer's day", () => {
  // 2026-11-21 03:30 UTC: still Friday the 20th in Los Angeles and Chicago, Saturday in Berlin.
  const instant = Date.UTC(2026, 10, 21, 3, 30);

  test.each([
    ["America/Los_Angeles", "2026-11-20"],
    ["America/Chicago", "2026-11-20"],
    ["Europe/Berlin", "2026-11-21"],
    ["UTC", "2026-11-21"],
  ])("in %s it is %s", (zone, day) => {
    expect(calendarDay(instant, zone)).toBe(day);
  });
});

describe("windows", () => {
  test("today runs from the viewer's midnight to the next, with the shows on now", () => {
    expect(windowOf({ when: "today", day: "2026-11-20", timeZone: "America/Los_Angeles" })).toEqual({
      live: true,
      from: "2026-11-20T08:00:00.000Z",
      before: "2026-11-21T08:00:00.000Z",
    });
    expect(windowOf({ when: "today", day: "2026-11-21", timeZone: "Europe/Berlin" })).toEqual({
      live: true,
      from: "2026-11-20T23:00:00.000Z",
      before: "2026-11-21T23:00:00.000Z",
    });
  });

  test("a day across a DST change is 23 or 25 hours long", () => {
    const spring = planExploreWhen({ when: "today", day: "2026-03-08", timeZone: "America/New_York" });
    expect((spring.upcoming!.before! - spring.upcoming!.from!) / 3_600_000).toBe(23);
    const fall = planExploreWhen({ when: "today", day: "2026-11-01", timeZone: "America/New_York" });
    expect((fall.upcoming!.before! - fall.upcoming!.from!) / 3_600_000).toBe(25);
  });

  test("the next 7 days are today and the six after it", () => {
    expect(windowOf({ when: "week", day: "2026-11-20", timeZone: "America/Chicago" })).toEqual({
      live: true,
      from: "2026-11-20T06:00:00.000Z",
      before: "2026-11-27T06:00:00.000Z",
    });
  });

  // November 2026: the 16th is a Monday, the 21st and 22nd the weekend.
  test.each([
    ["2026-11-16", false],
    ["2026-11-18", false],
    ["2026-11-20", false],
    ["2026-11-21", true],
    ["2026-11-22", true],
  ])("this weekend, seen on %s: Saturday 21 and Sunday 22 (shows on now included: %s)", (day, live) => {
    expect(windowOf({ when: "weekend", day, timeZone: "America/New_York" })).toEqual({
      live,
      from: "2026-11-21T05:00:00.000Z",
      before: "2026-11-23T05:00:00.000Z",
    });
  });

  test("the other views need no day", () => {
    expect(planExploreWhen({ when: "upcoming" })).toEqual({ live: true, upcoming: {}, ended: false });
    expect(planExploreWhen({ when: "live" })).toEqual({ live: true, upcoming: null, ended: false });
    expect(planExploreWhen({ when: "replays" })).toEqual({ live: false, upcoming: null, ended: true });
  });

  test("a start is in a window from its first millisecond up to, not including, its end", () => {
    expect(inStartWindow(10, { from: 10, before: 20 })).toBe(true);
    expect(inStartWindow(20, { from: 10, before: 20 })).toBe(false);
    expect(inStartWindow(9, { from: 10 })).toBe(false);
    expect(inStartWindow(9, {})).toBe(true);
  });
});

describe("refusals", () => {
  test.each([
    [{ when: "today" }, "calendar day"],
    [{ when: "today", day: "2026-02-30", timeZone: "UTC" }, "calendar day"],
    [{ when: "weekend", day: "20261121", timeZone: "UTC" }, "calendar day"],
    [{ when: "week", day: "2026-11-21" }, "time zone"],
    [{ when: "week", day: "2026-11-21", timeZone: "Mars/Olympus" }, "time zone"],
  ] as [ExploreView, string][])("%j is refused", (view, words) => {
    expect(exploreViewRefusal(view)).toContain(words);
  });

  test("the other views, and well-formed windows, are not", () => {
    expect(exploreViewRefusal({ when: "live" })).toBeNull();
    expect(exploreViewRefusal({ when: "today", day: "2026-11-21", timeZone: "Europe/Berlin" })).toBeNull();
  });
});

describe("the URL", () => {
  test.each([
    ["", { when: "upcoming", sort: "soonest" }],
    ["when=live", { when: "live", sort: "soonest" }],
    ["when=weekend&category=toys_kids", { when: "weekend", sort: "soonest" }],
    ["sort=newest", { when: "upcoming", sort: "newest" }],
    // A sort the view does not offer, and unknown values, read as the defaults.
    ["when=replays&sort=newest", { when: "replays", sort: "soonest" }],
    ["when=tomorrow&sort=loudest", { when: "upcoming", sort: "soonest" }],
  ])("%j reads as %j", (search, view) => {
    expect(parseExploreView(search)).toEqual(view);
  });

  test("writing leaves the defaults out and keeps the other parameters", () => {
    const params = new URLSearchParams("category=toys_kids&when=live");
    writeExploreView(params, { when: "upcoming", sort: "newest" });
    expect(params.toString()).toBe("category=toys_kids&sort=newest");
    writeExploreView(params, { when: "today", sort: "newest" });
    expect(params.toString()).toBe("category=toys_kids&when=today");
    expect(effectiveSort({ when: "today", sort: "newest" })).toBe("soonest");
  });
});
