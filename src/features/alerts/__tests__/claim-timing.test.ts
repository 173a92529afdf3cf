import { describe, expect, test } from "vitest";
import { HIDDEN_TAB_GRACE_MS, planClaims } from "../claim-timing";

const base = {
  pendingIds: ["a", "b"],
  tried: new Set<string>(),
  firstSeenAt: new Map<string, number>(),
  visible: true,
  now: 10_000,
};

describe("planClaims", () => {
  test("a visible tab claims every new alert at once and has nothing to wait for", () => {
    expect(planClaims(base)).toEqual({ claimNow: ["a", "b"], recheckInMs: null });
  });

  test("an alert this tab already tried is never claimed again, visible or not", () => {
    const tried = new Set(["a"]);
    expect(planClaims({ ...base, tried })).toEqual({ claimNow: ["b"], recheckInMs: null });
    const seenLongAgo = new Map([
      ["a", 0],
      ["b", 0],
    ]);
    expect(planClaims({ ...base, tried, visible: false, firstSeenAt: seenLongAgo })).toEqual({
      claimNow: ["b"],
      recheckInMs: null,
    });
    expect(planClaims({ ...base, tried: new Set(["a", "b"]) })).toEqual({ claimNow: [], recheckInMs: null });
  });

  test("a hidden tab waits out the grace from when it first saw each alert", () => {
    const firstSeenAt = new Map([
      ["a", 10_000 - 1000],
      ["b", 10_000 - 3000],
    ]);
    // Neither is due: look again when the older one is.
    expect(planClaims({ ...base, visible: false, firstSeenAt })).toEqual({
      claimNow: [],
      recheckInMs: HIDDEN_TAB_GRACE_MS - 3000,
    });
    // The older one is due exactly at the end of its grace; the other still waits.
    expect(planClaims({ ...base, visible: false, firstSeenAt, now: 10_000 + 1000 })).toEqual({
      claimNow: ["b"],
      recheckInMs: HIDDEN_TAB_GRACE_MS - 2000,
    });
  });

  test("an alert not seen before counts as seen now: a hidden tab waits the whole grace", () => {
    expect(planClaims({ ...base, pendingIds: ["a"], visible: false })).toEqual({
      claimNow: [],
      recheckInMs: HIDDEN_TAB_GRACE_MS,
    });
  });

  test("a tab that becomes visible claims what it was waiting on without finishing the grace", () => {
    const firstSeenAt = new Map([["a", 10_000 - 10]]);
    expect(planClaims({ ...base, pendingIds: ["a"], firstSeenAt, visible: true })).toEqual({
      claimNow: ["a"],
      recheckInMs: null,
    });
  });

  test("a clock that went back never makes the wait longer than the grace", () => {
    const firstSeenAt = new Map([["a", 50_000]]);
    expect(planClaims({ ...base, pendingIds: ["a"], firstSeenAt, visible: false })).toEqual({
      claimNow: [],
      recheckInMs: HIDDEN_TAB_GRACE_MS,
    });
  });

  test("an id listed twice is claimed once", () => {
    expect(planClaims({ ...base, pendingIds: ["a", "a"] }).claimNow).toEqual(["a"]);
  });
});
