import { describe, expect, test } from "vitest";
import type { z } from "zod";
import {
  fieldErrors,
  LIMITS,
  liftRestrictionSchema,
  PRIVACY_DECISIONS,
  privacyDecisionSchema,
  privacyRequestSchema,
  REJECTION_REASON_REQUIRED,
} from "./validation";

function errorsOf(schema: z.ZodType, value: unknown): Record<string, string> {
  const result = schema.safeParse(value);
  return result.success ? {} : fieldErrors(result.error);
}

describe("privacy requests", () => {
  test("reason and details: at most 500 characters, trimmed, blank is absent", () => {
    expect(LIMITS.gdprReason).toBe(500);
    expect(LIMITS.correctionDetails).toBe(500);
    const atLimit = privacyRequestSchema.parse({
      type: "correction",
      reason: ` ${"r".repeat(500)} `,
      details: "d".repeat(500),
    });
    expect(atLimit.reason).toHaveLength(500);
    expect(errorsOf(privacyRequestSchema, { type: "access", reason: "r".repeat(501) })).toEqual({
      reason: "Reason must be at most 500 characters.",
    });
    expect(errorsOf(privacyRequestSchema, { type: "correction", details: "d".repeat(501) })).toEqual({
      details: "Details must be at most 500 characters.",
    });
    expect(privacyRequestSchema.parse({ type: "deletion", reason: "   " }).reason).toBeUndefined();
  });

  test("a correction says what to correct; the other types need nothing", () => {
    expect(errorsOf(privacyRequestSchema, { type: "correction" })).toEqual({
      details: "Tell us what should be corrected.",
    });
    for (const type of ["access", "deletion", "restriction"]) {
      expect(errorsOf(privacyRequestSchema, { type }), type).toEqual({});
    }
  });
});

describe("privacy decisions", () => {
  test("rejecting needs a reason; approving does not", () => {
    expect(PRIVACY_DECISIONS).toEqual(["approve", "reject"]);
    expect(errorsOf(privacyDecisionSchema, { decision: "reject" })).toEqual({
      reason: REJECTION_REASON_REQUIRED,
    });
    expect(errorsOf(privacyDecisionSchema, { decision: "reject", reason: "  " })).toEqual({
      reason: REJECTION_REASON_REQUIRED,
    });
    expect(privacyDecisionSchema.parse({ decision: "reject", reason: " Not yours. " })).toEqual({
      decision: "reject",
      reason: "Not yours.",
    });
    expect(errorsOf(privacyDecisionSchema, { decision: "approve" })).toEqual({});
  });

  test("the reason has the status-reason limit, and the decision is one of two", () => {
    expect(
      errorsOf(privacyDecisionSchema, { decision: "reject", reason: "x".repeat(LIMITS.statusReason + 1) }),
    ).toEqual({
      reason: `Reason must be at most ${LIMITS.statusReason} characters.`,
    });
    expect(errorsOf(privacyDecisionSchema, { decision: "maybe", reason: "x" })).toEqual({
      decision: "Choose approve or reject.",
    });
  });

  test("lifting a restriction takes an optional note", () => {
    expect(liftRestrictionSchema.parse({})).toEqual({});
    expect(liftRestrictionSchema.parse({ reason: " " }).reason).toBeUndefined();
    expect(errorsOf(liftRestrictionSchema, { reason: "x".repeat(LIMITS.statusReason + 1) })).toHaveProperty(
      "reason",
    );
  });
});
