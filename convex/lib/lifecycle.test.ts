import { describe, expect, it } from "vitest";
import {
  AUTO_END_AFTER_MS,
  SHOP_STATUSES,
  STREAM_STATUSES,
  type ShopStatus,
  type StreamStatus,
} from "./constants";
import {
  allowedShopTransitions,
  allowedStreamTransitions,
  canSetReplayUrl,
  canViewStreamPage,
  checkShopTransition,
  checkStreamTransition,
  describeShopRequirements,
  isShopPublic,
  isShopTemporarilyClosed,
  isStreamListedPublicly,
  isStreamPagePublic,
  isTerminalStreamStatus,
  MAX_STATUS_REASON_LENGTH,
  mustKeepShopRequirements,
  shouldAutoEnd,
  streamAttention,
  streamMoveNeedsReason,
  type Actor,
  type ShopDetails,
  type StreamTimes,
} from "./lifecycle";

const owner: Actor = { isOwner: true, isAdmin: false };
const admin: Actor = { isOwner: false, isAdmin: true };
const stranger: Actor = { isOwner: false, isAdmin: false };
const ownerWhoIsAdmin: Actor = { isOwner: true, isAdmin: true };
const everyone = { owner, admin, stranger, ownerWhoIsAdmin };

const NOW = Date.UTC(2026, 10, 21, 23, 0);
const HOUR = 60 * 60 * 1000;
const readyStream: StreamTimes = {
  streamTitle: "Vintage denim drop",
  streamStartUTC: NOW + HOUR,
  streamStopUTC: NOW + 3 * HOUR,
};

function streamChange(
  from: StreamStatus,
  to: StreamStatus,
  actor: Actor,
  overrides: { stream?: Partial<StreamTimes>; shopStatus?: ShopStatus; reason?: string } = {},
) {
  return checkStreamTransition({
    from,
    to,
    actor,
    stream: { ...readyStream, ...overrides.stream },
    shopStatus: overrides.shopStatus ?? "active",
    now: NOW,
    reason: overrides.reason,
  });
}

/** What an admin says when ending or cancelling someone else's stream. */
const REASON = "Counterfeit goods on air.";

/** docs/product.md's stream table, written out again so the test does not just re-read the code's table. */
const STREAM_TABLE: { from: StreamStatus; to: StreamStatus; who: "owner" | "owner, admin" }[] = [
  { from: "CREATED", to: "SCHEDULED", who: "owner" },
  { from: "CREATED", to: "LIVE", who: "owner" },
  { from: "SCHEDULED", to: "LIVE", who: "owner" },
  { from: "SCHEDULED", to: "CREATED", who: "owner" },
  { from: "LIVE", to: "PAUSED", who: "owner, admin" },
  { from: "LIVE", to: "ENDED", who: "owner, admin" },
  { from: "PAUSED", to: "LIVE", who: "owner" },
  { from: "PAUSED", to: "ENDED", who: "owner, admin" },
  { from: "CREATED", to: "CANCELLED", who: "owner, admin" },
  { from: "SCHEDULED", to: "CANCELLED", who: "owner, admin" },
  { from: "PAUSED", to: "CANCELLED", who: "owner, admin" },
];

describe("stream lifecycle (docs/product.md)", () => {
  describe("CREATED → SCHEDULED: owner; title, start and stop times set, stop after start, shop active", () => {
    it("the owner schedules a titled stream with a start and a later stop in an active shop", () => {
      expect(streamChange("CREATED", "SCHEDULED", owner)).toEqual({
        ok: true,
        patch: { streamStatus: "SCHEDULED" },
      });
    });
    it("an admin who does not own the shop cannot schedule it", () => {
      expect(streamChange("CREATED", "SCHEDULED", admin)).toMatchObject({ ok: false, code: "FORBIDDEN" });
    });
    it("someone else cannot schedule it", () => {
      expect(streamChange("CREATED", "SCHEDULED", stranger)).toMatchObject({ ok: false, code: "FORBIDDEN" });
    });
    it("is refused without a title (blank counts as missing)", () => {
      const result = streamChange("CREATED", "SCHEDULED", owner, { stream: { streamTitle: "  " } });
      expect(result).toMatchObject({ ok: false, code: "MISSING_TITLE" });
    });
    it("is refused without a start time", () => {
      const result = streamChange("CREATED", "SCHEDULED", owner, { stream: { streamStartUTC: undefined } });
      expect(result).toMatchObject({ ok: false, code: "MISSING_TIMES", message: "Set a start time first." });
    });
    it("is refused without a stop time", () => {
      const result = streamChange("CREATED", "SCHEDULED", owner, { stream: { streamStopUTC: undefined } });
      expect(result).toMatchObject({ ok: false, code: "MISSING_TIMES", message: "Set a stop time first." });
    });
    it("is refused when the stop time is before the start time", () => {
      const stream = { streamStartUTC: NOW + 2 * HOUR, streamStopUTC: NOW + HOUR };
      expect(streamChange("CREATED", "SCHEDULED", owner, { stream })).toMatchObject({
        ok: false,
        code: "STOP_BEFORE_START",
      });
    });
    it("is refused when the stop time equals the start time (stop must be after start)", () => {
      const stream = { streamStartUTC: NOW + HOUR, streamStopUTC: NOW + HOUR };
      expect(streamChange("CREATED", "SCHEDULED", owner, { stream })).toMatchObject({
        code: "STOP_BEFORE_START",
      });
    });
    it.each(SHOP_STATUSES.filter((status) => status !== "active"))(
      "is refused while the shop is %s",
      (shopStatus) => {
        expect(streamChange("CREATED", "SCHEDULED", owner, { shopStatus })).toMatchObject({
          ok: false,
          code: "SHOP_NOT_ACTIVE",
        });
      },
    );
  });

  describe("CREATED, SCHEDULED → LIVE: owner; shop active; start time set to now if missing", () => {
    it.each(["CREATED", "SCHEDULED"] as const)("the owner takes a %s stream live", (from) => {
      expect(streamChange(from, "LIVE", owner)).toEqual({
        ok: true,
        patch: { streamStatus: "LIVE", streamStartedUTC: NOW },
      });
    });
    it.each(["CREATED", "SCHEDULED"] as const)(
      "going live from %s without a start time sets it to now",
      (from) => {
        expect(streamChange(from, "LIVE", owner, { stream: { streamStartUTC: undefined } })).toEqual({
          ok: true,
          patch: { streamStatus: "LIVE", streamStartUTC: NOW, streamStartedUTC: NOW },
        });
      },
    );
    it("going live keeps a start time that is already set, even when going live early, and records when", () => {
      expect(streamChange("SCHEDULED", "LIVE", owner)).toEqual({
        ok: true,
        patch: { streamStatus: "LIVE", streamStartedUTC: NOW },
      });
    });
    it("going live needs only an active shop, not a stop time", () => {
      const stream = { streamStopUTC: undefined, streamStartUTC: undefined };
      expect(streamChange("CREATED", "LIVE", owner, { stream })).toMatchObject({ ok: true });
    });
    it.each(["CREATED", "SCHEDULED"] as const)("an admin cannot take a %s stream live", (from) => {
      expect(streamChange(from, "LIVE", admin)).toMatchObject({ ok: false, code: "FORBIDDEN" });
      expect(streamChange(from, "LIVE", stranger)).toMatchObject({ ok: false, code: "FORBIDDEN" });
    });
    it.each(["CREATED", "SCHEDULED"] as const)(
      "going live from %s is refused unless the shop is active",
      (from) => {
        for (const shopStatus of SHOP_STATUSES.filter((status) => status !== "active")) {
          expect(streamChange(from, "LIVE", owner, { shopStatus })).toMatchObject({
            code: "SHOP_NOT_ACTIVE",
          });
        }
      },
    );
  });

  describe("SCHEDULED → CREATED: owner; back to draft", () => {
    it("the owner moves a scheduled stream back to draft", () => {
      expect(streamChange("SCHEDULED", "CREATED", owner)).toEqual({
        ok: true,
        patch: { streamStatus: "CREATED" },
      });
    });
    it("works whatever the shop's status, so a draft can be fixed while the shop is not active", () => {
      expect(streamChange("SCHEDULED", "CREATED", owner, { shopStatus: "suspended" })).toMatchObject({
        ok: true,
      });
    });
    it("an admin or someone else cannot move it back to draft", () => {
      expect(streamChange("SCHEDULED", "CREATED", admin)).toMatchObject({ code: "FORBIDDEN" });
      expect(streamChange("SCHEDULED", "CREATED", stranger)).toMatchObject({ code: "FORBIDDEN" });
    });
  });

  describe("LIVE → PAUSED, ENDED: owner, admin", () => {
    it.each(["PAUSED", "ENDED"] as const)("the owner and an admin can move a live stream to %s", (to) => {
      expect(streamChange("LIVE", to, owner)).toMatchObject({ ok: true, patch: { streamStatus: to } });
      expect(streamChange("LIVE", to, admin, { reason: REASON })).toMatchObject({
        ok: true,
        patch: { streamStatus: to },
      });
    });
    it.each(["PAUSED", "ENDED"] as const)("someone else cannot move a live stream to %s", (to) => {
      expect(streamChange("LIVE", to, stranger)).toMatchObject({ ok: false, code: "FORBIDDEN" });
    });
    it("ending a stream without a stop time records now as its stop time", () => {
      expect(
        streamChange("LIVE", "ENDED", admin, { stream: { streamStopUTC: undefined }, reason: REASON }),
      ).toEqual({
        ok: true,
        patch: { streamStatus: "ENDED", streamStopUTC: NOW, streamEndedUTC: NOW, statusReason: REASON },
      });
    });
  });

  describe("PAUSED → LIVE, ENDED: owner (LIVE), owner or admin (ENDED)", () => {
    it("the owner resumes a paused stream", () => {
      expect(streamChange("PAUSED", "LIVE", owner)).toEqual({ ok: true, patch: { streamStatus: "LIVE" } });
    });
    it("an admin cannot resume a paused stream", () => {
      expect(streamChange("PAUSED", "LIVE", admin)).toMatchObject({ ok: false, code: "FORBIDDEN" });
      expect(streamChange("PAUSED", "LIVE", stranger)).toMatchObject({ ok: false, code: "FORBIDDEN" });
    });
    it("the owner or an admin ends a paused stream", () => {
      expect(streamChange("PAUSED", "ENDED", owner)).toMatchObject({ ok: true });
      expect(streamChange("PAUSED", "ENDED", admin, { reason: REASON })).toMatchObject({ ok: true });
    });
    it("someone else cannot end a paused stream", () => {
      expect(streamChange("PAUSED", "ENDED", stranger)).toMatchObject({ ok: false, code: "FORBIDDEN" });
    });
  });

  describe("CREATED, SCHEDULED, PAUSED → CANCELLED: owner, admin", () => {
    it.each(["CREATED", "SCHEDULED", "PAUSED"] as const)(
      "the owner and an admin can cancel a %s stream",
      (from) => {
        // A paused show did run: cancelling it records when it stopped (decision 058).
        const ended = from === "PAUSED" ? { streamEndedUTC: NOW } : {};
        expect(streamChange(from, "CANCELLED", owner)).toEqual({
          ok: true,
          patch: { streamStatus: "CANCELLED", ...ended },
        });
        expect(streamChange(from, "CANCELLED", admin, { reason: REASON })).toEqual({
          ok: true,
          patch: { streamStatus: "CANCELLED", statusReason: REASON, ...ended },
        });
      },
    );
    it.each(["CREATED", "SCHEDULED", "PAUSED"] as const)("someone else cannot cancel a %s stream", (from) => {
      expect(streamChange(from, "CANCELLED", stranger)).toMatchObject({ ok: false, code: "FORBIDDEN" });
    });
    it("a live stream cannot be cancelled, only paused or ended", () => {
      expect(streamChange("LIVE", "CANCELLED", owner)).toMatchObject({
        ok: false,
        code: "INVALID_TRANSITION",
      });
    });
  });

  describe("ENDED, CANCELLED: terminal; an ENDED stream may still get a replay URL", () => {
    it.each(["ENDED", "CANCELLED"] as const)("a %s stream changes to no other status", (from) => {
      for (const to of STREAM_STATUSES) {
        for (const actor of Object.values(everyone)) {
          expect(streamChange(from, to, actor)).toMatchObject({ ok: false, code: "INVALID_TRANSITION" });
        }
      }
      expect(isTerminalStreamStatus(from)).toBe(true);
      expect(allowedStreamTransitions(from, ownerWhoIsAdmin)).toEqual([]);
    });
    it("an ENDED stream may still get a replay URL, and no other status may", () => {
      expect(STREAM_STATUSES.filter(canSetReplayUrl)).toEqual(["ENDED"]);
    });
  });

  describe("every pair that is not in the table is refused", () => {
    const pairs = STREAM_STATUSES.flatMap((from) => STREAM_STATUSES.map((to) => ({ from, to })));
    const missing = pairs.filter(
      ({ from, to }) => !STREAM_TABLE.some((row) => row.from === from && row.to === to),
    );
    it("the table has 11 pairs and 25 others are refused", () => {
      expect(missing).toHaveLength(36 - 11);
    });
    it.each(missing)("$from → $to is refused for everyone, the owner-admin included", ({ from, to }) => {
      for (const actor of Object.values(everyone)) {
        expect(streamChange(from, to, actor)).toMatchObject({ ok: false, code: "INVALID_TRANSITION" });
      }
    });
    it("a refusal to stay in the same status says so in words", () => {
      expect(streamChange("LIVE", "LIVE", owner)).toMatchObject({ message: "The stream is already live." });
    });
  });

  describe("actors", () => {
    it.each(STREAM_TABLE)("$from → $to is allowed to an owner who is also an admin", ({ from, to }) => {
      expect(streamChange(from, to, ownerWhoIsAdmin)).toMatchObject({ ok: true });
    });
    it("a refusal for the wrong actor names who may do it", () => {
      expect(streamChange("CREATED", "SCHEDULED", admin)).toMatchObject({
        message: "Only the shop's owner can schedule this stream.",
      });
    });
    // Every action reads as a sentence, not as its button's label dropped in (issue 16 item 9).
    it.each([
      ["CREATED", "SCHEDULED", "Only the shop's owner can schedule this stream."],
      ["CREATED", "LIVE", "Only the shop's owner can take this stream live."],
      ["SCHEDULED", "LIVE", "Only the shop's owner can take this stream live."],
      ["SCHEDULED", "CREATED", "Only the shop's owner can move this stream back to draft."],
      ["LIVE", "PAUSED", "Only the shop's owner or an admin can pause this stream."],
      ["LIVE", "ENDED", "Only the shop's owner or an admin can end this stream."],
      ["PAUSED", "LIVE", "Only the shop's owner can resume this stream."],
      ["PAUSED", "ENDED", "Only the shop's owner or an admin can end this stream."],
      ["CREATED", "CANCELLED", "Only the shop's owner or an admin can cancel this stream."],
      ["SCHEDULED", "CANCELLED", "Only the shop's owner or an admin can cancel this stream."],
      ["PAUSED", "CANCELLED", "Only the shop's owner or an admin can cancel this stream."],
    ] as const)("%s → %s refused to the wrong actor: %s", (from, to, message) => {
      expect(streamChange(from, to, stranger)).toMatchObject({
        ok: false,
        code: "FORBIDDEN",
        message,
      });
    });
  });

  describe("allowedStreamTransitions offers the buttons of the table, with their labels", () => {
    it("the owner of a draft: Schedule, Go live, Cancel", () => {
      expect(allowedStreamTransitions("CREATED", owner).map((t) => t.label)).toEqual([
        "Schedule",
        "Go live",
        "Cancel",
      ]);
    });
    it("the owner of a scheduled stream: Go live, Back to draft, Cancel", () => {
      expect(allowedStreamTransitions("SCHEDULED", owner).map((t) => t.label)).toEqual([
        "Go live",
        "Back to draft",
        "Cancel",
      ]);
    });
    it("the owner of a live stream: Pause, End; of a paused one: Resume, End, Cancel", () => {
      expect(allowedStreamTransitions("LIVE", owner).map((t) => t.label)).toEqual(["Pause", "End"]);
      expect(allowedStreamTransitions("PAUSED", owner).map((t) => t.label)).toEqual([
        "Resume",
        "End",
        "Cancel",
      ]);
    });
    it("an admin moderates: pause or end a live stream, end or cancel a paused one, cancel a draft", () => {
      expect(allowedStreamTransitions("LIVE", admin).map((t) => t.action)).toEqual(["pause", "end"]);
      expect(allowedStreamTransitions("PAUSED", admin).map((t) => t.action)).toEqual(["end", "cancel"]);
      expect(allowedStreamTransitions("CREATED", admin)).toEqual([
        { to: "CANCELLED", action: "cancel", label: "Cancel", needsReason: true },
      ]);
    });
    it("someone else gets no buttons", () => {
      for (const status of STREAM_STATUSES) expect(allowedStreamTransitions(status, stranger)).toEqual([]);
    });
    it("every offered button is a transition checkStreamTransition allows for a ready stream", () => {
      for (const from of STREAM_STATUSES) {
        for (const actor of Object.values(everyone)) {
          for (const { to, needsReason } of allowedStreamTransitions(from, actor)) {
            const reason = needsReason ? REASON : undefined;
            expect(streamChange(from, to, actor, { reason })).toMatchObject({ ok: true });
          }
        }
      }
    });
  });

  describe("an admin ending or cancelling someone else's stream gives a reason, as suspending a shop does", () => {
    it.each([
      ["LIVE", "ENDED"],
      ["PAUSED", "ENDED"],
      ["CREATED", "CANCELLED"],
      ["SCHEDULED", "CANCELLED"],
      ["PAUSED", "CANCELLED"],
    ] as const)("%s → %s without a reason is refused, blank too; the reason is kept trimmed", (from, to) => {
      for (const reason of [undefined, "", "   "]) {
        expect(streamChange(from, to, admin, { reason })).toEqual({
          ok: false,
          code: "REASON_REQUIRED",
          message: "Give a reason; the stream's owner will see it.",
        });
      }
      expect(streamChange(from, to, admin, { reason: `  ${REASON}  ` })).toMatchObject({
        ok: true,
        patch: { streamStatus: to, statusReason: REASON },
      });
    });

    it("a reason over the shop-suspension limit is refused; one at the limit is kept", () => {
      expect(MAX_STATUS_REASON_LENGTH).toBe(500);
      expect(
        streamChange("LIVE", "ENDED", admin, { reason: "x".repeat(MAX_STATUS_REASON_LENGTH + 1) }),
      ).toMatchObject({ ok: false, code: "REASON_TOO_LONG" });
      expect(
        streamChange("LIVE", "ENDED", admin, { reason: "x".repeat(MAX_STATUS_REASON_LENGTH) }),
      ).toMatchObject({ ok: true, patch: { statusReason: "x".repeat(MAX_STATUS_REASON_LENGTH) } });
    });

    it("the owner (an admin too) ending or cancelling their own stream, and any pause, need none and keep none", () => {
      for (const actor of [owner, ownerWhoIsAdmin]) {
        expect(streamChange("LIVE", "ENDED", actor, { reason: REASON })).toEqual({
          ok: true,
          patch: { streamStatus: "ENDED", streamEndedUTC: NOW },
        });
        expect(streamChange("SCHEDULED", "CANCELLED", actor)).toEqual({
          ok: true,
          patch: { streamStatus: "CANCELLED" },
        });
      }
      expect(streamChange("LIVE", "PAUSED", admin)).toEqual({ ok: true, patch: { streamStatus: "PAUSED" } });
    });

    it("the buttons say which moves ask for a reason", () => {
      expect(streamMoveNeedsReason("end", admin)).toBe(true);
      expect(streamMoveNeedsReason("cancel", admin)).toBe(true);
      expect(streamMoveNeedsReason("pause", admin)).toBe(false);
      expect(streamMoveNeedsReason("end", ownerWhoIsAdmin)).toBe(false);
      expect(streamMoveNeedsReason("cancel", owner)).toBe(false);
      expect(
        allowedStreamTransitions("LIVE", admin).map(({ action, needsReason }) => [action, needsReason]),
      ).toEqual([
        ["pause", false],
        ["end", true],
      ]);
      expect(allowedStreamTransitions("LIVE", owner).every(({ needsReason }) => !needsReason)).toBe(true);
    });
  });

  describe("A LIVE or PAUSED stream whose stop time passed more than two hours ago is ended by a scheduled job", () => {
    const longAgo = NOW - AUTO_END_AFTER_MS - 1;
    it.each(["LIVE", "PAUSED"] as const)(
      "a %s stream stopped more than two hours ago is auto-ended",
      (status) => {
        expect(shouldAutoEnd({ streamStatus: status, streamStopUTC: longAgo }, NOW)).toBe(true);
      },
    );
    it("exactly two hours after the stop time is not yet more than two hours", () => {
      expect(shouldAutoEnd({ streamStatus: "LIVE", streamStopUTC: NOW - AUTO_END_AFTER_MS }, NOW)).toBe(
        false,
      );
    });
    it("a live stream without a stop time is never auto-ended", () => {
      expect(shouldAutoEnd({ streamStatus: "LIVE" }, NOW)).toBe(false);
    });
    it.each(["CREATED", "SCHEDULED", "ENDED", "CANCELLED"] as const)(
      "a %s stream is not auto-ended",
      (status) => {
        expect(shouldAutoEnd({ streamStatus: status, streamStopUTC: longAgo }, NOW)).toBe(false);
      },
    );
  });
});

const completeShop: ShopDetails = {
  liveShopName: "Brooklyn Thrift",
  slug: "brooklyn-thrift",
  timezone: "America/New_York",
  description: "Vintage clothing, live on Thursdays.",
  categoryCount: 1,
  msaCount: 1,
};

function shopChange(
  from: ShopStatus,
  to: ShopStatus,
  actor: Actor,
  overrides: { shop?: Partial<ShopDetails>; reason?: string } = {},
) {
  return checkShopTransition({
    from,
    to,
    actor,
    shop: { ...completeShop, ...overrides.shop },
    reason: overrides.reason,
  });
}

const SHOP_TABLE: { from: ShopStatus; to: ShopStatus; who: "owner" | "admin" }[] = [
  { from: "draft", to: "pending_verification", who: "owner" },
  { from: "pending_verification", to: "active", who: "admin" },
  { from: "pending_verification", to: "draft", who: "admin" },
  { from: "active", to: "maintenance", who: "owner" },
  { from: "maintenance", to: "active", who: "owner" },
  { from: "active", to: "suspended", who: "admin" },
  { from: "maintenance", to: "suspended", who: "admin" },
  { from: "suspended", to: "active", who: "admin" },
  { from: "draft", to: "inactive", who: "owner" },
  { from: "active", to: "inactive", who: "owner" },
  { from: "maintenance", to: "inactive", who: "owner" },
  { from: "inactive", to: "draft", who: "owner" },
];

describe("live shop lifecycle (docs/product.md)", () => {
  describe("draft → pending_verification: owner; needs name, slug, timezone, description, ≥1 category, ≥1 metro area", () => {
    it("the owner submits a complete draft for verification", () => {
      expect(shopChange("draft", "pending_verification", owner)).toEqual({
        ok: true,
        patch: { status: "pending_verification", statusReason: undefined },
      });
    });
    it("an admin or someone else cannot submit it", () => {
      expect(shopChange("draft", "pending_verification", admin)).toMatchObject({ code: "FORBIDDEN" });
      expect(shopChange("draft", "pending_verification", stranger)).toMatchObject({ code: "FORBIDDEN" });
    });
    it.each([
      ["name", { liveShopName: " " }],
      ["slug", { slug: "" }],
      ["timezone", { timezone: undefined }],
      ["description", { description: "" }],
      ["category", { categoryCount: 0 }],
      ["metroArea", { msaCount: 0 }],
    ] as const)("is refused without a %s, and says that is what is missing", (requirement, shop) => {
      expect(shopChange("draft", "pending_verification", owner, { shop })).toMatchObject({
        ok: false,
        code: "MISSING_SHOP_DETAILS",
        missing: [requirement],
      });
    });
    it("an unknown time zone counts as missing", () => {
      expect(
        shopChange("draft", "pending_verification", owner, { shop: { timezone: "Europe/Paris" } }),
      ).toMatchObject({
        missing: ["timezone"],
      });
    });
    it("reports every missing detail at once, in one sentence", () => {
      const shop = { description: undefined, categoryCount: 0, msaCount: 0 };
      expect(shopChange("draft", "pending_verification", owner, { shop })).toEqual({
        ok: false,
        code: "MISSING_SHOP_DETAILS",
        missing: ["description", "category", "metroArea"],
        message:
          "Add a description, at least one category and at least one metro area before submitting for verification.",
      });
    });
  });

  describe("pending_verification → active: admin (approve)", () => {
    it("an admin approves a shop waiting for verification", () => {
      expect(shopChange("pending_verification", "active", admin)).toEqual({
        ok: true,
        patch: { status: "active", statusReason: undefined },
      });
    });
    it("the owner cannot approve their own shop", () => {
      expect(shopChange("pending_verification", "active", owner)).toMatchObject({
        ok: false,
        code: "FORBIDDEN",
      });
    });
  });

  describe("pending_verification → draft: admin (reject, with a reason shown to the owner)", () => {
    it("an admin rejects with a reason, which is stored for the owner to see", () => {
      expect(
        shopChange("pending_verification", "draft", admin, { reason: "  Add a real description. " }),
      ).toEqual({
        ok: true,
        patch: { status: "draft", statusReason: "Add a real description." },
      });
    });
    it("a rejection without a reason is refused", () => {
      expect(shopChange("pending_verification", "draft", admin)).toMatchObject({
        ok: false,
        code: "REASON_REQUIRED",
      });
      expect(shopChange("pending_verification", "draft", admin, { reason: "   " })).toMatchObject({
        code: "REASON_REQUIRED",
      });
    });
    it("a reason longer than the limit is refused", () => {
      const reason = "x".repeat(MAX_STATUS_REASON_LENGTH + 1);
      expect(shopChange("pending_verification", "draft", admin, { reason })).toMatchObject({
        code: "REASON_TOO_LONG",
      });
    });
    it("the owner cannot reject (withdraw) their own submission", () => {
      expect(shopChange("pending_verification", "draft", owner, { reason: "oops" })).toMatchObject({
        code: "FORBIDDEN",
      });
    });
  });

  describe('active → maintenance, and back: owner ("temporarily closed")', () => {
    it("the owner closes an active shop temporarily and opens it again", () => {
      expect(shopChange("active", "maintenance", owner)).toMatchObject({
        ok: true,
        patch: { status: "maintenance" },
      });
      expect(shopChange("maintenance", "active", owner)).toMatchObject({
        ok: true,
        patch: { status: "active" },
      });
    });
    it("an admin or someone else cannot close or reopen it temporarily", () => {
      for (const actor of [admin, stranger]) {
        expect(shopChange("active", "maintenance", actor)).toMatchObject({ code: "FORBIDDEN" });
        expect(shopChange("maintenance", "active", actor)).toMatchObject({ code: "FORBIDDEN" });
      }
    });
  });

  describe("active, maintenance → suspended: admin, with a reason", () => {
    it.each(["active", "maintenance"] as const)("an admin suspends a %s shop with a reason", (from) => {
      expect(shopChange(from, "suspended", admin, { reason: "Counterfeit goods" })).toEqual({
        ok: true,
        patch: { status: "suspended", statusReason: "Counterfeit goods" },
      });
    });
    it.each(["active", "maintenance"] as const)(
      "suspending a %s shop without a reason is refused",
      (from) => {
        expect(shopChange(from, "suspended", admin)).toMatchObject({ ok: false, code: "REASON_REQUIRED" });
      },
    );
    it.each(["active", "maintenance"] as const)("the owner cannot suspend a %s shop", (from) => {
      expect(shopChange(from, "suspended", owner, { reason: "r" })).toMatchObject({ code: "FORBIDDEN" });
    });
  });

  describe("suspended → active: admin", () => {
    it("an admin reinstates a suspended shop, which clears the suspension reason", () => {
      expect(shopChange("suspended", "active", admin)).toEqual({
        ok: true,
        patch: { status: "active", statusReason: undefined },
      });
    });
    it("the owner cannot reinstate their suspended shop", () => {
      expect(shopChange("suspended", "active", owner)).toMatchObject({ code: "FORBIDDEN" });
    });
  });

  describe("draft, active, maintenance → inactive: owner (close the shop)", () => {
    it.each(["draft", "active", "maintenance"] as const)("the owner closes a %s shop", (from) => {
      expect(shopChange(from, "inactive", owner)).toMatchObject({ ok: true, patch: { status: "inactive" } });
    });
    it.each(["draft", "active", "maintenance"] as const)("an admin cannot close a %s shop", (from) => {
      expect(shopChange(from, "inactive", admin)).toMatchObject({ code: "FORBIDDEN" });
    });
    it("a suspended shop cannot be closed by its owner to escape the suspension", () => {
      expect(shopChange("suspended", "inactive", owner)).toMatchObject({ code: "INVALID_TRANSITION" });
    });
  });

  describe("inactive → draft: owner (reopen)", () => {
    it("the owner reopens a closed shop as a draft", () => {
      expect(shopChange("inactive", "draft", owner)).toMatchObject({ ok: true, patch: { status: "draft" } });
    });
    it("an admin cannot reopen it", () => {
      expect(shopChange("inactive", "draft", admin)).toMatchObject({ code: "FORBIDDEN" });
    });
  });

  describe("every pair that is not in the table is refused", () => {
    const pairs = SHOP_STATUSES.flatMap((from) => SHOP_STATUSES.map((to) => ({ from, to })));
    const missing = pairs.filter(
      ({ from, to }) => !SHOP_TABLE.some((row) => row.from === from && row.to === to),
    );
    it("the table has 12 pairs and 24 others are refused", () => {
      expect(missing).toHaveLength(36 - 12);
    });
    it.each(missing)("$from → $to is refused for everyone, the owner-admin included", ({ from, to }) => {
      for (const actor of Object.values(everyone)) {
        expect(shopChange(from, to, actor, { reason: "any" })).toMatchObject({
          ok: false,
          code: "INVALID_TRANSITION",
        });
      }
    });
  });

  describe("actors", () => {
    it.each(SHOP_TABLE)("$from → $to is allowed to an owner who is also an admin", ({ from, to }) => {
      expect(shopChange(from, to, ownerWhoIsAdmin, { reason: "Reason" })).toMatchObject({ ok: true });
    });
    it.each(SHOP_TABLE)(
      "$from → $to is refused to someone who is neither owner nor admin",
      ({ from, to }) => {
        expect(shopChange(from, to, stranger, { reason: "Reason" })).toMatchObject({ code: "FORBIDDEN" });
      },
    );
    it.each([
      ["draft", "pending_verification", "Only the shop's owner can submit this shop for verification."],
      ["pending_verification", "active", "Only an admin can approve this shop."],
      ["pending_verification", "draft", "Only an admin can reject this shop."],
      ["active", "maintenance", "Only the shop's owner can close this shop temporarily."],
      ["maintenance", "active", "Only the shop's owner can end this shop's temporary closure."],
      ["active", "suspended", "Only an admin can suspend this shop."],
      ["suspended", "active", "Only an admin can reinstate this shop."],
      ["active", "inactive", "Only the shop's owner can close this shop."],
      ["inactive", "draft", "Only the shop's owner can reopen this shop."],
    ] as const)("%s → %s refused to the wrong actor: %s", (from, to, message) => {
      expect(shopChange(from, to, stranger, { reason: "Reason" })).toMatchObject({ message });
    });
  });

  describe("allowedShopTransitions offers the buttons of the table, with their labels", () => {
    it("the owner of a draft: Submit for verification, Close shop", () => {
      expect(allowedShopTransitions("draft", owner).map((t) => t.label)).toEqual([
        "Submit for verification",
        "Close shop",
      ]);
    });
    it("an admin reviewing a submission: Approve, Reject (which asks for a reason)", () => {
      expect(allowedShopTransitions("pending_verification", admin)).toEqual([
        { to: "active", action: "approve", label: "Approve", needsReason: false },
        { to: "draft", action: "reject", label: "Reject", needsReason: true },
      ]);
    });
    it("the owner of an active shop: Close temporarily, Close shop; an admin: Suspend", () => {
      expect(allowedShopTransitions("active", owner).map((t) => t.label)).toEqual([
        "Close temporarily",
        "Close shop",
      ]);
      expect(allowedShopTransitions("active", admin).map((t) => t.label)).toEqual(["Suspend"]);
    });
    it("the owner of a shop in maintenance: End temporary closure, Close shop", () => {
      expect(allowedShopTransitions("maintenance", owner).map((t) => t.label)).toEqual([
        "End temporary closure",
        "Close shop",
      ]);
    });
    it("suspended: Reinstate for an admin, nothing for the owner; inactive: Reopen shop for the owner", () => {
      expect(allowedShopTransitions("suspended", admin).map((t) => t.label)).toEqual(["Reinstate"]);
      expect(allowedShopTransitions("suspended", owner)).toEqual([]);
      expect(allowedShopTransitions("inactive", owner).map((t) => t.label)).toEqual(["Reopen shop"]);
    });
    it("someone else gets no buttons", () => {
      for (const status of SHOP_STATUSES) expect(allowedShopTransitions(status, stranger)).toEqual([]);
    });
  });
});

describe("visibility (docs/product.md)", () => {
  it('"Public pages show active shops; a shop in maintenance is shown with a "temporarily closed" notice"', () => {
    expect(SHOP_STATUSES.filter(isShopPublic)).toEqual(["active", "maintenance"]);
    expect(SHOP_STATUSES.filter(isShopTemporarilyClosed)).toEqual(["maintenance"]);
  });
  it('"Public lists show SCHEDULED, LIVE, PAUSED and ENDED streams of active shops"', () => {
    expect(STREAM_STATUSES.filter((status) => isStreamListedPublicly(status, "active"))).toEqual([
      "SCHEDULED",
      "LIVE",
      "PAUSED",
      "ENDED",
    ]);
  });
  it("streams of shops that are not active, maintenance included, are not listed", () => {
    for (const shopStatus of SHOP_STATUSES.filter((status) => status !== "active")) {
      expect(STREAM_STATUSES.filter((status) => isStreamListedPublicly(status, shopStatus))).toEqual([]);
    }
  });
  it('"CREATED is private to its owner"', () => {
    expect(isStreamPagePublic("CREATED", "active")).toBe(false);
    expect(canViewStreamPage("CREATED", "active", stranger)).toBe(false);
    expect(canViewStreamPage("CREATED", "active", owner)).toBe(true);
    expect(canViewStreamPage("CREATED", "active", admin)).toBe(true);
  });
  it('"a CANCELLED stream keeps its page with a notice"', () => {
    expect(isStreamPagePublic("CANCELLED", "active")).toBe(true);
  });
  it("a stream's page is public while its shop is shown, maintenance included", () => {
    expect(isStreamPagePublic("LIVE", "maintenance")).toBe(true);
    expect(isStreamPagePublic("ENDED", "suspended")).toBe(false);
    expect(canViewStreamPage("ENDED", "suspended", stranger)).toBe(false);
    expect(canViewStreamPage("ENDED", "suspended", owner)).toBe(true);
  });
});

describe("dashboard attention (streamAttention)", () => {
  const now = 10 * 60 * 60 * 1000;
  const minutes = (n: number) => n * 60 * 1000;

  it("flags drafts and scheduled shows without both times", () => {
    expect(streamAttention({ streamStatus: "CREATED" }, now)).toEqual(["missingTimes"]);
    expect(streamAttention({ streamStatus: "SCHEDULED", streamStartUTC: now + 1 }, now)).toEqual([
      "missingTimes",
    ]);
    expect(
      streamAttention({ streamStatus: "CREATED", streamStartUTC: now, streamStopUTC: now + 1 }, now),
    ).toEqual([]);
  });

  it("flags a scheduled show whose start passed more than 15 minutes ago", () => {
    const at = (start: number) =>
      streamAttention(
        { streamStatus: "SCHEDULED", streamStartUTC: start, streamStopUTC: now + minutes(60) },
        now,
      );
    expect(at(now - minutes(15))).toEqual([]);
    expect(at(now - minutes(16))).toEqual(["startPassed"]);
  });

  it("flags a live or paused show past its stop time, and nothing that has finished", () => {
    for (const streamStatus of ["LIVE", "PAUSED"] as const) {
      expect(streamAttention({ streamStatus, streamStartUTC: 0, streamStopUTC: now - 1 }, now)).toEqual([
        "stopPassed",
      ]);
    }
    for (const streamStatus of ["ENDED", "CANCELLED"] as const) {
      expect(streamAttention({ streamStatus }, now)).toEqual([]);
    }
  });
});

describe("a submitted shop keeps its requirements", () => {
  it("applies from submission until the shop is closed", () => {
    const keeps = SHOP_STATUSES.filter((status) => mustKeepShopRequirements(status));
    expect(keeps).toEqual(["pending_verification", "active", "maintenance", "suspended"]);
  });

  it("names what is missing in words", () => {
    expect(describeShopRequirements(["category"])).toBe("at least one category");
    expect(describeShopRequirements(["description", "category", "metroArea"])).toBe(
      "a description, at least one category and at least one metro area",
    );
  });
});
