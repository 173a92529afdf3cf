import { describe, expect, test } from "vitest";
import {
  buildIcsCalendar,
  buildIcsEvent,
  escapeIcsText,
  foldIcsLine,
  formatIcsDate,
  icsFileName,
  showCalendarEvent,
} from "./ics";

const START = Date.UTC(2026, 10, 21, 19, 30);
const event = {
  uid: "stream-abc@livelocal",
  title: "Denim drop",
  startUtc: START,
  endUtc: START + 90 * 60_000,
  url: "https://livelocal.example/stream/abc",
  now: Date.UTC(2026, 10, 20, 8, 0, 5),
};

describe("buildIcsEvent", () => {
  test("ends every line with CRLF and has one VEVENT with UID, DTSTAMP, times in UTC and the URL", () => {
    const ics = buildIcsEvent(event);
    expect(ics.endsWith("\r\n")).toBe(true);
    expect(ics.replace(/\r\n/g, "")).not.toMatch(/[\r\n]/);
    const lines = ics.split("\r\n");
    expect(lines[0]).toBe("BEGIN:VCALENDAR");
    expect(lines).toContain("VERSION:2.0");
    expect(lines).toContain("UID:stream-abc@livelocal");
    expect(lines).toContain("DTSTAMP:20261120T080005Z");
    expect(lines).toContain("DTSTART:20261121T193000Z");
    expect(lines).toContain("DTEND:20261121T210000Z");
    expect(lines).toContain("URL:https://livelocal.example/stream/abc");
    expect(lines).toContain("SUMMARY:Denim drop");
    expect(lines.filter((line) => line === "BEGIN:VEVENT")).toHaveLength(1);
  });

  test("an event without an end (or ending before it starts) lasts an hour", () => {
    expect(buildIcsEvent({ ...event, endUtc: undefined })).toContain("DTEND:20261121T203000Z");
    expect(buildIcsEvent({ ...event, endUtc: START - 1 })).toContain("DTEND:20261121T203000Z");
  });

  test("escapes commas, semicolons, backslashes and newlines in text", () => {
    expect(escapeIcsText("Jeans, jackets; more\\less\nnext\r\nline")).toBe(
      "Jeans\\, jackets\\; more\\\\less\\nnext\\nline",
    );
    expect(buildIcsEvent({ ...event, description: "a,b;c\nd" })).toContain("DESCRIPTION:a\\,b\\;c\\nd");
  });

  test("folds lines longer than 75 octets, continuation lines starting with a space", () => {
    const ics = buildIcsEvent({ ...event, description: "x".repeat(200) });
    const encoder = new TextEncoder();
    for (const line of ics.split("\r\n")) expect(encoder.encode(line).length).toBeLessThanOrEqual(75);
    const unfolded = ics.replace(/\r\n /g, "");
    expect(unfolded).toContain(`DESCRIPTION:${"x".repeat(200)}`);
  });

  test("never splits a multi-byte character when folding", () => {
    const folded = foldIcsLine(`SUMMARY:${"é".repeat(60)}`);
    const encoder = new TextEncoder();
    for (const line of folded.split("\r\n")) {
      expect(encoder.encode(line).length).toBeLessThanOrEqual(75);
      expect(line).not.toContain("\uFFFD");
    }
    expect(folded.replace(/\r\n /g, "")).toBe(`SUMMARY:${"é".repeat(60)}`);
  });
});

test("formatIcsDate writes UTC basic format", () => {
  expect(formatIcsDate(Date.UTC(2026, 0, 2, 3, 4, 5))).toBe("20260102T030405Z");
});

test("icsFileName makes a safe file name", () => {
  expect(icsFileName("Spring Denim Drop!")).toBe("spring-denim-drop.ics");
  expect(icsFileName("***")).toBe("livelocal-show.ics");
});

describe("buildIcsCalendar", () => {
  test("with no events is a valid, empty calendar", () => {
    const lines = buildIcsCalendar([]).split("\r\n");
    expect(lines[0]).toBe("BEGIN:VCALENDAR");
    expect(lines).toContain("VERSION:2.0");
    expect(lines).toContain("END:VCALENDAR");
    expect(lines).not.toContain("BEGIN:VEVENT");
    expect(lines.at(-1)).toBe("");
  });

  test("holds each event once, in the order given, between the calendar's lines", () => {
    const second = { ...event, uid: "stream-def@livelocal", title: "Records night" };
    const lines = buildIcsCalendar([event, second]).split("\r\n");
    expect(lines.filter((line) => line === "BEGIN:VEVENT")).toHaveLength(2);
    expect(lines.filter((line) => line === "END:VEVENT")).toHaveLength(2);
    const uids = lines.filter((line) => line.startsWith("UID:"));
    expect(uids).toEqual(["UID:stream-abc@livelocal", "UID:stream-def@livelocal"]);
    expect(lines.indexOf("BEGIN:VEVENT")).toBeGreaterThan(lines.indexOf("METHOD:PUBLISH"));
    expect(lines.lastIndexOf("END:VEVENT")).toBeLessThan(lines.indexOf("END:VCALENDAR"));
  });

  test("names the calendar and tells calendar apps how often to refresh only when asked", () => {
    const lines = buildIcsCalendar([event], { name: "LiveLocal: saved shows", refreshMinutes: 60 }).split(
      "\r\n",
    );
    expect(lines).toContain("X-WR-CALNAME:LiveLocal: saved shows");
    expect(lines).toContain("REFRESH-INTERVAL;VALUE=DURATION:PT60M");
    expect(lines).toContain("X-PUBLISHED-TTL:PT60M");
    const plain = buildIcsCalendar([event]);
    expect(plain).not.toContain("X-WR-CALNAME");
    expect(plain).not.toContain("REFRESH-INTERVAL");
    expect(buildIcsCalendar([], { name: "Shows, mine; all" })).toContain("X-WR-CALNAME:Shows\\, mine\\; all");
  });
});

describe("showCalendarEvent", () => {
  const show = {
    _id: "abc123",
    streamTitle: "Denim drop",
    streamDescription: "Jackets and jeans.",
    liveShopName: "Sarah's Vintage",
    streamStatus: "SCHEDULED" as const,
    streamStartUTC: START,
    streamStopUTC: START + 90 * 60_000,
  };
  const pageUrl = "https://livelocal.example/stream/abc123";

  test("one stable UID per show, its times, its page as URL and location, the host in the description", () => {
    const made = showCalendarEvent(show, pageUrl, event.now);
    expect(made).toEqual({
      uid: "abc123@livelocal",
      title: "Denim drop",
      description: `Jackets and jeans.\n\nHosted by Sarah's Vintage. ${pageUrl}`,
      startUtc: START,
      endUtc: START + 90 * 60_000,
      url: pageUrl,
      location: pageUrl,
      now: event.now,
    });
    expect(showCalendarEvent(show, pageUrl, event.now + 1000)?.uid).toBe(made?.uid);
  });

  test("a show taken live early, then ended, is in the calendar when it ran, not when it was planned", () => {
    const made = showCalendarEvent(
      {
        ...show,
        streamStatus: "ENDED",
        streamStartedUTC: START - 5 * 86_400_000,
        streamEndedUTC: START - 5 * 86_400_000 + 40 * 60_000,
      },
      pageUrl,
      event.now,
    );
    expect(made).toMatchObject({
      startUtc: START - 5 * 86_400_000,
      endUtc: START - 5 * 86_400_000 + 40 * 60_000,
    });
    // Live now and started early: its real start, with the planned stop still ahead.
    const live = showCalendarEvent(
      { ...show, streamStatus: "LIVE", streamStartedUTC: START - 30 * 60_000 },
      pageUrl,
      event.now,
    );
    expect(live).toMatchObject({ startUtc: START - 30 * 60_000, endUtc: START + 90 * 60_000 });
  });

  test("no event without a start a date can hold", () => {
    expect(showCalendarEvent({ ...show, streamStartUTC: undefined }, pageUrl, event.now)).toBeNull();
    expect(
      showCalendarEvent({ ...show, streamStartUTC: Number.MAX_SAFE_INTEGER }, pageUrl, event.now),
    ).toBeNull();
  });

  test("without a description, only the host line; without a stop time, an hour-long event", () => {
    const made = showCalendarEvent(
      { ...show, streamDescription: undefined, streamStopUTC: undefined },
      pageUrl,
      event.now,
    );
    expect(made?.description).toBe(`Hosted by Sarah's Vintage. ${pageUrl}`);
    expect(buildIcsEvent(made!)).toContain("DTEND:20261121T203000Z");
  });
});

describe("a stored time that cannot be written", () => {
  const LARGEST = Number.MAX_SAFE_INTEGER;

  test("leaves its event out and keeps the others, instead of failing the file", () => {
    const ics = buildIcsCalendar([
      { ...event, uid: "bad-start@livelocal", startUtc: LARGEST, endUtc: undefined },
      { ...event, uid: "past-date-range@livelocal", startUtc: 8.64e15 + 10 },
      { ...event, uid: "last-moment@livelocal", startUtc: 8.64e15, endUtc: undefined },
      event,
    ]);
    const lines = ics.split("\r\n");
    expect(lines.filter((line) => line === "BEGIN:VEVENT")).toHaveLength(1);
    expect(lines).toContain("UID:stream-abc@livelocal");
    expect(lines.at(-2)).toBe("END:VCALENDAR");
  });

  test("a stop time that cannot be written makes the event an hour long", () => {
    expect(buildIcsEvent({ ...event, endUtc: LARGEST })).toContain("DTEND:20261121T203000Z");
  });
});
