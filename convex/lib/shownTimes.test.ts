import { describe, expect, test } from "vitest";
import { checkStreamTransition, timesRecordedByMove } from "./lifecycle";
import { shownEnd, shownStart, shownStreamTimes } from "./shownTimes";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
// Planned for Dec 3, 7:00–8:30 PM Eastern.
const PLANNED_START = Date.UTC(2026, 11, 4, 0);
const PLANNED_STOP = PLANNED_START + 1.5 * HOUR;
const plan = { streamStartUTC: PLANNED_START, streamStopUTC: PLANNED_STOP };
// Went live on Nov 28 and ended 40 minutes later.
const WENT_LIVE = PLANNED_START - 5 * DAY;
const ENDED = WENT_LIVE + 40 * 60_000;

describe("the times a show is shown with (decision 058)", () => {
  test("a scheduled show: its plan", () => {
    expect(shownStreamTimes({ streamStatus: "SCHEDULED", ...plan })).toEqual({
      start: PLANNED_START,
      stop: PLANNED_STOP,
      started: false,
      ended: false,
    });
  });

  test("live early: when it went live, and the planned stop, which has not happened yet", () => {
    expect(shownStreamTimes({ streamStatus: "LIVE", ...plan, streamStartedUTC: WENT_LIVE })).toEqual({
      start: WENT_LIVE,
      stop: PLANNED_STOP,
      started: true,
      ended: false,
    });
  });

  test("live early and ended early: both as they happened", () => {
    const shown = shownStreamTimes({
      streamStatus: "ENDED",
      ...plan,
      streamStartedUTC: WENT_LIVE,
      streamEndedUTC: ENDED,
    });
    expect(shown).toEqual({ start: WENT_LIVE, stop: ENDED, started: true, ended: true });
  });

  test("live late, past its planned stop: no stop is shown until it ends", () => {
    const late = PLANNED_STOP + HOUR;
    expect(shownStreamTimes({ streamStatus: "PAUSED", ...plan, streamStartedUTC: late })).toEqual({
      start: late,
      stop: undefined,
      started: true,
      ended: false,
    });
  });

  test("cancelled while paused: it started and stopped; cancelled before: only the plan", () => {
    const stopped = { streamStatus: "CANCELLED" as const, ...plan };
    expect(shownStreamTimes({ ...stopped, streamStartedUTC: WENT_LIVE, streamEndedUTC: ENDED })).toEqual({
      start: WENT_LIVE,
      stop: ENDED,
      started: true,
      ended: true,
    });
    expect(shownStreamTimes(stopped)).toEqual({
      start: PLANNED_START,
      stop: PLANNED_STOP,
      started: false,
      ended: false,
    });
  });

  test("a row from before times were recorded: the plan, as before", () => {
    expect(shownStreamTimes({ streamStatus: "ENDED", ...plan })).toEqual({
      start: PLANNED_START,
      stop: PLANNED_STOP,
      started: true,
      ended: true,
    });
    expect(shownStreamTimes({ streamStatus: "CREATED" })).toEqual({ started: false, ended: false });
  });

  test("sort keys: the shown start, missing last; the shown end, else the start", () => {
    expect(shownStart({ streamStatus: "LIVE", ...plan, streamStartedUTC: WENT_LIVE })).toBe(WENT_LIVE);
    expect(shownStart({ streamStatus: "CREATED" })).toBe(Infinity);
    expect(
      shownEnd({ streamStatus: "ENDED", ...plan, streamStartedUTC: WENT_LIVE, streamEndedUTC: ENDED }),
    ).toBe(ENDED);
    expect(shownEnd({ streamStatus: "LIVE", streamStartUTC: WENT_LIVE })).toBe(WENT_LIVE);
  });
});

describe("what a status change records", () => {
  const now = WENT_LIVE;
  const owner = { isOwner: true, isAdmin: false };
  const admin = { isOwner: false, isAdmin: true };
  const move = (
    from: "SCHEDULED" | "LIVE" | "PAUSED",
    to: "LIVE" | "PAUSED" | "ENDED" | "CANCELLED",
    extra = {},
  ) =>
    checkStreamTransition({
      from,
      to,
      actor: to === "ENDED" && from !== "SCHEDULED" ? admin : owner,
      stream: { streamTitle: "Denim drop", ...plan, ...extra },
      shopStatus: "active",
      now,
      reason: "Off-topic",
    });

  test("going live early records when, and keeps the plan", () => {
    expect(move("SCHEDULED", "LIVE")).toEqual({
      ok: true,
      patch: { streamStatus: "LIVE", streamStartedUTC: now },
    });
  });

  test("a resume records no new start", () => {
    expect(move("PAUSED", "LIVE", { streamStartedUTC: now - HOUR })).toEqual({
      ok: true,
      patch: { streamStatus: "LIVE" },
    });
  });

  test("an admin ending it early records when, with the reason", () => {
    expect(move("LIVE", "ENDED", { streamStartedUTC: now - HOUR })).toEqual({
      ok: true,
      patch: { streamStatus: "ENDED", streamEndedUTC: now, statusReason: "Off-topic" },
    });
  });

  test("cancelling a paused show records its end; cancelling a scheduled one records nothing", () => {
    expect(timesRecordedByMove("PAUSED", "CANCELLED", plan, now)).toEqual({ streamEndedUTC: now });
    expect(timesRecordedByMove("SCHEDULED", "CANCELLED", plan, now)).toEqual({});
  });

  test("going live without a plan plans it now too (docs/product.md), ending without a stop likewise", () => {
    expect(timesRecordedByMove("CREATED", "LIVE", {}, now)).toEqual({
      streamStartUTC: now,
      streamStartedUTC: now,
    });
    expect(timesRecordedByMove("LIVE", "ENDED", { streamStartUTC: now - HOUR }, now)).toEqual({
      streamStopUTC: now,
      streamEndedUTC: now,
    });
  });
});
