import { beforeEach, expect, test } from "vitest";
import {
  PENDING_ACTION_KEY,
  PENDING_ACTION_TTL_MS,
  readPendingAction,
  rememberPendingAction,
  takePendingAction,
} from "../pending-action";

const NOW = Date.UTC(2026, 10, 21, 12, 0);

beforeEach(() => sessionStorage.clear());

test("remembers one action, the latest, and takes it once", () => {
  rememberPendingAction({ kind: "saveStream", id: "stream1", label: "Denim drop" }, NOW - 1000);
  rememberPendingAction({ kind: "followShop", id: "shop1", label: "East Austin Denim Co." }, NOW);
  expect(readPendingAction(NOW)).toEqual({
    kind: "followShop",
    id: "shop1",
    label: "East Austin Denim Co.",
    at: NOW,
  });
  expect(takePendingAction(NOW + 1000)?.id).toBe("shop1");
  expect(takePendingAction(NOW + 1000)).toBeNull();
  expect(sessionStorage.getItem(PENDING_ACTION_KEY)).toBeNull();
});

test("keeps a shop's id as the embedded backend writes it (digits, then the table's name)", () => {
  const id = "000000000000120112345678901234567890liveShops";
  rememberPendingAction({ kind: "followShop", id, label: "East Austin Denim Co." }, NOW);
  expect(takePendingAction(NOW)?.id).toBe(id);
});

test("an action older than 30 minutes is ignored and forgotten", () => {
  rememberPendingAction({ kind: "saveStream", id: "stream1", label: "Denim drop" }, NOW);
  expect(readPendingAction(NOW + PENDING_ACTION_TTL_MS)).not.toBeNull();
  expect(readPendingAction(NOW + PENDING_ACTION_TTL_MS + 1)).toBeNull();
  expect(sessionStorage.getItem(PENDING_ACTION_KEY)).toBeNull();
});

test.each([
  ["not JSON", "{"],
  ["not an object", "42"],
  ["an unknown kind", { kind: "deleteShop", id: "shop1", label: "x", at: NOW }],
  ["an id that is not a Convex id", { kind: "saveStream", id: "../admin", label: "x", at: NOW }],
  ["an empty label", { kind: "saveStream", id: "stream1", label: "", at: NOW }],
  ["a missing time", { kind: "saveStream", id: "stream1", label: "x" }],
  ["a time in the future", { kind: "saveStream", id: "stream1", label: "x", at: NOW + 3_600_000 }],
])("an entry with %s is ignored and forgotten", (_what, entry) => {
  sessionStorage.setItem(PENDING_ACTION_KEY, typeof entry === "string" ? entry : JSON.stringify(entry));
  expect(readPendingAction(NOW)).toBeNull();
  expect(sessionStorage.getItem(PENDING_ACTION_KEY)).toBeNull();
});
