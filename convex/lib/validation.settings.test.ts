import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import type { z } from "zod";
import {
  CARD_BRANDS,
  CARD_NUMBER_EXPLANATION,
  LIMITS,
  MAX_CARD_YEARS_AHEAD,
  avatarSettingSchema,
  cardExpiryProblem,
  fieldErrors,
  newPaymentMethodSchema,
  notificationPreferencesPatchSchema,
  paymentMethodIdSchema,
  privacyPreferencesPatchSchema,
  termsVersionSchema,
} from "./validation";

const NOW = Date.UTC(2026, 5, 15, 12);
const card = { brand: "visa", last4: "4242", expMonth: 12, expYear: 2028 };

function accepts(schema: z.ZodType, input: unknown): boolean {
  return schema.safeParse(input).success;
}

function errorsOf(schema: z.ZodType, input: unknown): Record<string, string> {
  const result = schema.safeParse(input);
  if (result.success) throw new Error("expected the input to be refused");
  return fieldErrors(result.error);
}

/** An https link exactly `length` characters long. */
function linkOfLength(length: number): string {
  const start = "https://example.com/";
  return start + "a".repeat(length - start.length);
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(NOW);
});
afterEach(() => {
  vi.useRealTimers();
});

describe("profile picture", () => {
  test(`a link of ${LIMITS.avatar} characters is accepted and one more is refused`, () => {
    expect(avatarSettingSchema.parse(linkOfLength(LIMITS.avatar))).toHaveLength(LIMITS.avatar);
    expect(errorsOf(avatarSettingSchema, linkOfLength(LIMITS.avatar + 1))).toEqual({
      "": "A link must be at most 600 characters.",
    });
  });

  test("blank or absent means no picture", () => {
    expect(avatarSettingSchema.parse("   ")).toBeUndefined();
    expect(avatarSettingSchema.parse(undefined)).toBeUndefined();
  });

  test.each([
    "javascript:alert(1)",
    "data:image/png;base64,AAAA",
    "ftp://example.com/me.png",
    "//example.com/me.png",
    "/demo/users/me.png",
    "example.com/me.png",
    "https://user:secret@example.com/me.png",
  ])("%s is refused: only absolute http(s) links", (value) => {
    expect(accepts(avatarSettingSchema, value)).toBe(false);
  });

  test("http and https links are accepted, trimmed", () => {
    expect(avatarSettingSchema.parse(" https://example.com/me.png ")).toBe("https://example.com/me.png");
    expect(accepts(avatarSettingSchema, "http://example.com/me.png")).toBe(true);
  });
});

describe("preferences", () => {
  test("a change may name one switch", () => {
    expect(notificationPreferencesPatchSchema.parse({ emailDigest: true })).toEqual({ emailDigest: true });
    expect(privacyPreferencesPatchSchema.parse({ showProfile: false })).toEqual({ showProfile: false });
  });

  test("switches are true or false, nothing else", () => {
    expect(accepts(notificationPreferencesPatchSchema, { emailDigest: "yes" })).toBe(false);
    expect(accepts(privacyPreferencesPatchSchema, { analytics: 1 })).toBe(false);
  });
});

describe("terms version", () => {
  test("at most 20 characters", () => {
    expect(accepts(termsVersionSchema, "1".repeat(20))).toBe(true);
    expect(accepts(termsVersionSchema, "1".repeat(21))).toBe(false);
    expect(accepts(termsVersionSchema, " ")).toBe(false);
  });
});

describe("a new card", () => {
  test('last 4 digits "4242", a brand from the list and a future expiry are accepted', () => {
    expect(newPaymentMethodSchema.parse(card)).toEqual(card);
  });

  test.each(CARD_BRANDS)("brand %s is accepted", (brand) => {
    expect(accepts(newPaymentMethodSchema, { ...card, brand })).toBe(true);
  });

  test("a brand outside the list is refused", () => {
    expect(errorsOf(newPaymentMethodSchema, { ...card, brand: "Visa Gold" })).toEqual({
      brand: "Choose the card's brand.",
    });
  });

  test.each([
    { field: "last4", value: "4242424242424242" },
    { field: "last4", value: "4242 4242 4242 4242" },
    { field: "last4", value: "4242-4242-4242-4242" },
    { field: "last4", value: "378282246310005" },
    { field: "last4", value: "3782 822463 10005" },
    { field: "last4", value: "4242 - 4242 - 4242 - 4242" },
    { field: "last4", value: "6011111111111117000" },
    { field: "last4", value: "card 4242424242424242 exp 12/28" },
    { field: "last4", value: "424242424242" },
    { field: "brand", value: "4242 4242 4242 4242" },
    { field: "expMonth", value: 4242424242424242 },
    { field: "expYear", value: 4242424242424242 },
  ])("a full card number in $field ($value) is refused with the explanation", ({ field, value }) => {
    expect(errorsOf(newPaymentMethodSchema, { ...card, [field]: value })).toEqual({
      [field]: CARD_NUMBER_EXPLANATION,
    });
  });

  test("the explanation says that only the last 4 digits are wanted", () => {
    expect(CARD_NUMBER_EXPLANATION).toMatch(
      /^LiveLocal never stores card numbers — enter only the last 4 digits/,
    );
  });

  test("last 4 digits: exactly four digits", () => {
    expect(accepts(newPaymentMethodSchema, { ...card, last4: "0000" })).toBe(true);
    expect(accepts(newPaymentMethodSchema, { ...card, last4: " 4242 " })).toBe(true);
    for (const last4 of ["424", "42424", "42a2", "", "４２４２"]) {
      expect(accepts(newPaymentMethodSchema, { ...card, last4 }), last4).toBe(false);
    }
  });

  test("expiry month 1 to 12", () => {
    expect(accepts(newPaymentMethodSchema, { ...card, expMonth: 1 })).toBe(true);
    expect(accepts(newPaymentMethodSchema, { ...card, expMonth: 12 })).toBe(true);
    expect(accepts(newPaymentMethodSchema, { ...card, expMonth: 0 })).toBe(false);
    expect(accepts(newPaymentMethodSchema, { ...card, expMonth: 13 })).toBe(false);
    expect(accepts(newPaymentMethodSchema, { ...card, expMonth: 6.5 })).toBe(false);
  });

  test(`expiry up to ${MAX_CARD_YEARS_AHEAD} years ahead`, () => {
    expect(accepts(newPaymentMethodSchema, { ...card, expYear: 2026 + MAX_CARD_YEARS_AHEAD })).toBe(true);
    expect(errorsOf(newPaymentMethodSchema, { ...card, expYear: 2027 + MAX_CARD_YEARS_AHEAD })).toEqual({
      expMonth: "Enter an expiry year up to 2046.",
    });
  });

  test("an expired card is refused; one expiring this month is accepted", () => {
    expect(accepts(newPaymentMethodSchema, { ...card, expMonth: 6, expYear: 2026 })).toBe(true);
    expect(errorsOf(newPaymentMethodSchema, { ...card, expMonth: 5, expYear: 2026 })).toEqual({
      expMonth: "This card has expired; check the month and year.",
    });
    expect(accepts(newPaymentMethodSchema, { ...card, expMonth: 12, expYear: 2025 })).toBe(false);
  });
});

describe("cardExpiryProblem", () => {
  const june2026 = { expMonth: 6, expYear: 2026 };

  test("a card is good through the last day of its month, in every time zone", () => {
    // June 30, 23:59 in UTC-12 is July 1, 11:59 UTC.
    const lastMinute = Date.UTC(2026, 6, 1, 11, 59);
    expect(cardExpiryProblem(june2026.expMonth, june2026.expYear, lastMinute)).toBeUndefined();
    expect(cardExpiryProblem(june2026.expMonth, june2026.expYear, Date.UTC(2026, 6, 1, 12))).toBe(
      "This card has expired; check the month and year.",
    );
  });

  test("December rolls over to the next year", () => {
    expect(cardExpiryProblem(12, 2026, Date.UTC(2026, 11, 31, 23))).toBeUndefined();
    expect(cardExpiryProblem(12, 2026, Date.UTC(2027, 0, 2))).toBeDefined();
  });
});

describe("a saved card's id", () => {
  test("up to 64 characters", () => {
    expect(accepts(paymentMethodIdSchema, "p".repeat(64))).toBe(true);
    expect(accepts(paymentMethodIdSchema, "p".repeat(65))).toBe(false);
    expect(accepts(paymentMethodIdSchema, "")).toBe(false);
  });
});
