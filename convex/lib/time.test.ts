import { describe, expect, it } from "vitest";
import {
  calendarDaysFromNow,
  formatCountdown,
  formatStreamTime,
  formatRangeForViewer,
  formatShowForViewer,
  formatTimeForViewer,
  formatTimeRange,
  isFormattableTime,
  isoDateTime,
  isValidTimeZone,
  relativeDayLabel,
  TIME_UNAVAILABLE,
  utcToZonedInput,
  viewerTimeZone,
  zonedInputToUtc,
} from "./time";

const NY = "America/New_York";
const LA = "America/Los_Angeles";
const CHICAGO = "America/Chicago";
const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;

/** Sat, Nov 21 2026, 7:30 PM in New York (EST, UTC-5). */
const SATURDAY_EVENING = Date.UTC(2026, 10, 22, 0, 30);

describe("formatStreamTime", () => {
  it("shows the time in the given zone with its abbreviation", () => {
    expect(formatStreamTime(SATURDAY_EVENING, NY)).toBe("Sat, Nov 21, 7:30 PM EST");
    expect(formatStreamTime(SATURDAY_EVENING, LA)).toBe("Sat, Nov 21, 4:30 PM PST");
  });
  it("uses daylight time in summer", () => {
    expect(formatStreamTime(Date.UTC(2026, 6, 4, 23, 0), NY)).toBe("Sat, Jul 4, 7:00 PM EDT");
  });
  it("adds the year on request", () => {
    expect(formatStreamTime(SATURDAY_EVENING, NY, { withYear: true })).toBe("Sat, Nov 21, 2026, 7:30 PM EST");
  });
  it("follows another locale when asked", () => {
    expect(formatStreamTime(SATURDAY_EVENING, NY, { locale: "en-GB" })).toContain("19:30");
  });
  it("falls back to New York for an unknown zone instead of throwing", () => {
    expect(formatStreamTime(SATURDAY_EVENING, "Mars/Olympus")).toBe("Sat, Nov 21, 7:30 PM EST");
  });
});

describe("formatTimeRange", () => {
  it("writes a same-day show compactly", () => {
    expect(formatTimeRange(SATURDAY_EVENING, SATURDAY_EVENING + 90 * MINUTE, NY)).toBe(
      "Sat, Nov 21, 7:30 – 9:00 PM EST",
    );
  });
  it("writes both ends in full when the show runs past midnight", () => {
    expect(formatTimeRange(SATURDAY_EVENING, SATURDAY_EVENING + 5 * HOUR, NY)).toBe(
      "Sat, Nov 21, 7:30 PM EST – Sun, Nov 22, 12:30 AM EST",
    );
  });
  it("names both zones when the show spans the spring DST change", () => {
    // 1:00 AM EST to 4:00 AM EDT on Sunday, March 8 2026.
    expect(formatTimeRange(Date.UTC(2026, 2, 8, 6, 0), Date.UTC(2026, 2, 8, 8, 0), NY)).toBe(
      "Sun, Mar 8, 1:00 AM EST – Sun, Mar 8, 4:00 AM EDT",
    );
  });
  it("adds the year to both ends across New Year", () => {
    expect(formatTimeRange(Date.UTC(2027, 0, 1, 4, 0), Date.UTC(2027, 0, 1, 6, 0), NY)).toBe(
      "Thu, Dec 31, 2026, 11:00 PM EST – Fri, Jan 1, 2027, 1:00 AM EST",
    );
  });
  it("does not pretend a backwards range is a span", () => {
    expect(formatTimeRange(SATURDAY_EVENING, SATURDAY_EVENING - HOUR, NY)).toBe(
      "Sat, Nov 21, 7:30 PM EST – Sat, Nov 21, 6:30 PM EST",
    );
  });
});

describe("formatTimeForViewer", () => {
  it("gives a viewer in another zone their time first, and the shop's", () => {
    expect(formatTimeForViewer(SATURDAY_EVENING, LA, NY)).toEqual({
      inViewerZone: "Sat, Nov 21, 4:30 PM PST",
      inShopZone: "Sat, Nov 21, 7:30 PM EST",
    });
    // Berlin is already Sunday: the day changes with the zone.
    expect(formatTimeForViewer(SATURDAY_EVENING, "Europe/Berlin", NY).inViewerZone).toBe(
      "Sun, Nov 22, 1:30 AM GMT+1",
    );
  });
  it("gives a viewer whose clock reads the same one line", () => {
    expect(formatTimeForViewer(SATURDAY_EVENING, NY, NY)).toEqual({
      inViewerZone: "Sat, Nov 21, 7:30 PM EST",
    });
    expect(formatTimeForViewer(SATURDAY_EVENING, "America/Detroit", NY)).toEqual({
      inViewerZone: "Sat, Nov 21, 7:30 PM EST",
    });
  });
  it("a range too", () => {
    expect(formatRangeForViewer(SATURDAY_EVENING, SATURDAY_EVENING + 90 * MINUTE, LA, CHICAGO)).toEqual({
      inViewerZone: "Sat, Nov 21, 4:30 – 6:00 PM PST",
      inShopZone: "Sat, Nov 21, 6:30 – 8:00 PM CST",
    });
  });
});

describe("formatShowForViewer", () => {
  it("a range when the stop comes after the start, else the start alone", () => {
    expect(formatShowForViewer(SATURDAY_EVENING, SATURDAY_EVENING + 90 * MINUTE, LA, CHICAGO)).toEqual(
      formatRangeForViewer(SATURDAY_EVENING, SATURDAY_EVENING + 90 * MINUTE, LA, CHICAGO),
    );
    for (const stop of [undefined, SATURDAY_EVENING, SATURDAY_EVENING - HOUR]) {
      expect(formatShowForViewer(SATURDAY_EVENING, stop, LA, NY)).toEqual({
        inViewerZone: "Sat, Nov 21, 4:30 PM PST",
        inShopZone: "Sat, Nov 21, 7:30 PM EST",
      });
    }
  });
});

describe("viewerTimeZone", () => {
  it("returns the zone the runtime resolves", () => {
    expect(viewerTimeZone(() => "Europe/Paris")).toBe("Europe/Paris");
    expect(isValidTimeZone(viewerTimeZone())).toBe(true);
  });
  it("falls back to America/New_York when the zone is missing, invalid or resolving throws", () => {
    expect(viewerTimeZone(() => undefined)).toBe(NY);
    expect(viewerTimeZone(() => "Not/AZone")).toBe(NY);
    expect(
      viewerTimeZone(() => {
        throw new Error("no Intl");
      }),
    ).toBe(NY);
  });
});

describe("datetime-local values in the shop's zone", () => {
  it("reads a November evening in New York as EST (UTC-5)", () => {
    expect(zonedInputToUtc("2026-11-21T19:30", NY)).toBe(SATURDAY_EVENING);
  });
  it("reads a summer evening in Los Angeles as PDT (UTC-7)", () => {
    expect(zonedInputToUtc("2026-07-04T18:00", LA)).toBe(Date.UTC(2026, 6, 5, 1, 0));
    expect(utcToZonedInput(Date.UTC(2026, 6, 5, 1, 0), LA)).toBe("2026-07-04T18:00");
  });
  it("reads a winter morning in Los Angeles as PST (UTC-8)", () => {
    expect(zonedInputToUtc("2026-01-15T09:00", LA)).toBe(Date.UTC(2026, 0, 15, 17, 0));
  });
  it("writes a UTC time back as the wall clock in the zone", () => {
    expect(utcToZonedInput(SATURDAY_EVENING, NY)).toBe("2026-11-21T19:30");
    expect(utcToZonedInput(SATURDAY_EVENING, CHICAGO)).toBe("2026-11-21T18:30");
  });

  describe("March transition in New York (Sunday, March 8 2026, 2:00 AM EST → 3:00 AM EDT)", () => {
    it("1:30 AM is still EST and 3:30 AM is already EDT", () => {
      expect(zonedInputToUtc("2026-03-08T01:30", NY)).toBe(Date.UTC(2026, 2, 8, 6, 30));
      expect(zonedInputToUtc("2026-03-08T03:30", NY)).toBe(Date.UTC(2026, 2, 8, 7, 30));
    });
    it("2:30 AM does not exist and moves an hour later, to 3:30 AM EDT", () => {
      expect(zonedInputToUtc("2026-03-08T02:30", NY)).toBe(Date.UTC(2026, 2, 8, 7, 30));
      expect(utcToZonedInput(Date.UTC(2026, 2, 8, 7, 30), NY)).toBe("2026-03-08T03:30");
    });
    it("a show from 1:00 to 4:00 AM that day lasts two hours", () => {
      const start = zonedInputToUtc("2026-03-08T01:00", NY);
      const stop = zonedInputToUtc("2026-03-08T04:00", NY);
      expect(start !== null && stop !== null && stop - start).toBe(2 * HOUR);
    });
  });

  describe("November transition in New York (Sunday, November 1 2026, 2:00 AM EDT → 1:00 AM EST)", () => {
    it("12:30 AM is still EDT and 2:30 AM is EST", () => {
      expect(zonedInputToUtc("2026-11-01T00:30", NY)).toBe(Date.UTC(2026, 10, 1, 4, 30));
      expect(zonedInputToUtc("2026-11-01T02:30", NY)).toBe(Date.UTC(2026, 10, 1, 7, 30));
    });
    it("1:30 AM happens twice and is read as the first (EDT); both write back as 1:30", () => {
      expect(zonedInputToUtc("2026-11-01T01:30", NY)).toBe(Date.UTC(2026, 10, 1, 5, 30));
      expect(utcToZonedInput(Date.UTC(2026, 10, 1, 5, 30), NY)).toBe("2026-11-01T01:30");
      expect(utcToZonedInput(Date.UTC(2026, 10, 1, 6, 30), NY)).toBe("2026-11-01T01:30");
    });
  });

  it("spring transition in Los Angeles (March 8 2026): 2:30 AM becomes 3:30 AM PDT", () => {
    expect(zonedInputToUtc("2026-03-08T02:30", LA)).toBe(Date.UTC(2026, 2, 8, 10, 30));
    expect(zonedInputToUtc("2026-03-08T01:59", LA)).toBe(Date.UTC(2026, 2, 8, 9, 59));
  });

  it("every value written for a moment reads back to the same wall clock, hourly through both DST weeks", () => {
    const weeks = [Date.UTC(2026, 2, 5), Date.UTC(2026, 9, 29)];
    for (const zone of [NY, CHICAGO, "America/Denver", LA]) {
      for (const weekStart of weeks) {
        for (let ms = weekStart; ms < weekStart + 7 * 24 * HOUR; ms += HOUR) {
          const input = utcToZonedInput(ms, zone);
          expect(utcToZonedInput(zonedInputToUtc(input, zone) ?? Number.NaN, zone)).toBe(input);
        }
      }
    }
  });

  it("refuses values that are not a real date and time", () => {
    for (const value of [
      "",
      "2026-02-30T10:00",
      "2026-11-21",
      "2026-11-21T25:00",
      "21/11/2026 19:30",
      "2026-11-21T19:30:00",
    ]) {
      expect(zonedInputToUtc(value, NY)).toBeNull();
    }
  });
});

describe("formatCountdown", () => {
  it.each([
    [2 * HOUR + 5 * MINUTE, "in 2 h 5 min"],
    [2 * HOUR + 5 * MINUTE + 59 * 1000, "in 2 h 5 min"],
    [3 * HOUR, "in 3 h"],
    [12 * MINUTE, "in 12 min"],
    [45 * 1000, "in 45 s"],
    [44_100, "in 45 s"],
    [59_500, "in 1 min"],
    [1, "in 1 s"],
    [0, "now"],
    [-5 * MINUTE, "now"],
    [26 * HOUR, "in 1 d 2 h"],
    [48 * HOUR + 30 * MINUTE, "in 2 d"],
  ])("%i ms reads %s", (ms, text) => {
    expect(formatCountdown(ms)).toBe(text);
  });
});

describe("relative days, counted in the stream's zone", () => {
  const now = Date.UTC(2026, 10, 21, 15, 0); // Sat, Nov 21, 10:00 AM in New York
  it("today, tomorrow and yesterday", () => {
    expect(relativeDayLabel(SATURDAY_EVENING, now, NY)).toBe("Today");
    expect(relativeDayLabel(SATURDAY_EVENING + 24 * HOUR, now, NY)).toBe("Tomorrow");
    expect(relativeDayLabel(now - 24 * HOUR, now, NY)).toBe("Yesterday");
    expect(relativeDayLabel(now + 3 * 24 * HOUR, now, NY)).toBeNull();
  });
  it("the same moment can be today in Los Angeles and tomorrow in New York", () => {
    const lateEvening = Date.UTC(2026, 10, 21, 4, 0); // Fri 11 PM in New York, Fri 8 PM in LA
    const pastMidnightInNy = Date.UTC(2026, 10, 21, 6, 0); // Sat 1 AM in New York, Fri 10 PM in LA
    expect(calendarDaysFromNow(pastMidnightInNy, lateEvening, NY)).toBe(1);
    expect(calendarDaysFromNow(pastMidnightInNy, lateEvening, LA)).toBe(0);
  });
});

describe("a stored time JavaScript cannot show (before times were bounded)", () => {
  const PAST_DATE_RANGE = 8.64e15 + 10;
  const LARGEST = Number.MAX_SAFE_INTEGER;

  it("knows which times can be shown", () => {
    expect(isFormattableTime(SATURDAY_EVENING)).toBe(true);
    expect(isFormattableTime(8.64e15)).toBe(true);
    expect(isFormattableTime(-8.64e15)).toBe(true);
    expect(isFormattableTime(PAST_DATE_RANGE)).toBe(false);
    expect(isFormattableTime(LARGEST)).toBe(false);
    expect(isFormattableTime(Number.NaN)).toBe(false);
    expect(isFormattableTime(Number.POSITIVE_INFINITY)).toBe(false);
  });

  it("reads as unavailable instead of throwing, alone, in a range and for the viewer", () => {
    expect(formatStreamTime(PAST_DATE_RANGE, NY)).toBe(TIME_UNAVAILABLE);
    expect(formatStreamTime(LARGEST, NY, { withYear: true })).toBe(TIME_UNAVAILABLE);
    expect(formatTimeRange(SATURDAY_EVENING, LARGEST, NY)).toBe(
      `Sat, Nov 21, 7:30 PM EST – ${TIME_UNAVAILABLE}`,
    );
    expect(formatTimeRange(PAST_DATE_RANGE, LARGEST, NY)).toBe(`${TIME_UNAVAILABLE} – ${TIME_UNAVAILABLE}`);
    expect(formatTimeForViewer(LARGEST, LA, NY)).toEqual({ inViewerZone: TIME_UNAVAILABLE });
  });

  it("has no ISO form, leaves the form's field blank and is never today", () => {
    expect(isoDateTime(SATURDAY_EVENING)).toBe("2026-11-22T00:30:00.000Z");
    expect(isoDateTime(PAST_DATE_RANGE)).toBeUndefined();
    expect(utcToZonedInput(LARGEST, NY)).toBe("");
    expect(relativeDayLabel(LARGEST, SATURDAY_EVENING, NY)).toBeNull();
    expect(relativeDayLabel(PAST_DATE_RANGE, SATURDAY_EVENING, NY)).toBeNull();
  });
});
