import { describe, expect, test } from "vitest";
import { buildIcsEvent, escapeIcsText, foldIcsLine, formatIcsDate, icsFileName } from "./ics";

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
