/**
 * The times a show is shown with (decision 058): what happened where it happened, the plan for what has
 * not happened yet. Every page, card, schema.org Event, link preview, .ics file, calendar feed, e-mail
 * and the watch list take a show's times from `shownStreamTimes`, never from the planned fields alone.
 */
import type { StreamStatus } from "./constants";

/** A stream's planned times and what going live and ending recorded (absent on rows from before 058). */
export type StreamTimeFields = {
  streamStatus: StreamStatus;
  streamStartUTC?: number;
  streamStopUTC?: number;
  streamStartedUTC?: number;
  streamEndedUTC?: number;
};

export type ShownStreamTimes = {
  start?: number;
  stop?: number;
  /** The start shown is when it went live (or, on an older row, a live or past show's plan). */
  started: boolean;
  /** The stop shown is when it ended (or, on an older row, an ended show's plan). */
  ended: boolean;
};

const HAS_STARTED: readonly StreamStatus[] = ["LIVE", "PAUSED", "ENDED"];

/**
 * A show that went live shows when it did; one that ended shows when it did. Otherwise the plan stands,
 * except a planned stop at or before the recorded start (a show that went live after its planned end):
 * that plan no longer says when it ends, so no stop is shown.
 */
export function shownStreamTimes(stream: StreamTimeFields): ShownStreamTimes {
  const { streamStartedUTC: startedAt, streamEndedUTC: endedAt } = stream;
  const start = startedAt ?? stream.streamStartUTC;
  const started = startedAt !== undefined || HAS_STARTED.includes(stream.streamStatus);
  const ended = endedAt !== undefined || stream.streamStatus === "ENDED";
  const planStop = stream.streamStopUTC;
  const stop =
    endedAt ??
    (startedAt !== undefined && planStop !== undefined && planStop <= startedAt ? undefined : planStop);
  return { start, stop, started, ended };
}

/** For sorting: the shown start, missing ones last. */
export function shownStart(stream: StreamTimeFields): number {
  return shownStreamTimes(stream).start ?? Infinity;
}

/** For sorting past shows: when it ended (else started), missing ones as 0. */
export function shownEnd(stream: StreamTimeFields): number {
  const { start, stop } = shownStreamTimes(stream);
  return stop ?? start ?? 0;
}

/**
 * What going live and ending would have recorded for a show that ran as planned: demo and bench data
 * (which arrive already live or ended) stay consistent with shows taken through their lifecycle.
 */
export function timesAsPlanned(
  status: StreamStatus,
  start: number | undefined,
  stop: number | undefined,
): Pick<StreamTimeFields, "streamStartedUTC" | "streamEndedUTC"> {
  return {
    ...(HAS_STARTED.includes(status) && start !== undefined && { streamStartedUTC: start }),
    ...(status === "ENDED" && stop !== undefined && { streamEndedUTC: stop }),
  };
}
