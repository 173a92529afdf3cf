import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { api } from "./_generated/api";
import { TERMS_VERSION } from "./lib/constants";
import { CARD_NUMBER_EXPLANATION, MAX_PAYMENT_METHODS } from "./lib/validation";
import { getUserByClerkId, insertUser } from "./model/users";
import { newTest } from "./test.setup";

const vera = { subject: "user_vera", email: "vera@livelocal.test", name: "Vera" };
const omar = { subject: "user_omar", email: "omar@livelocal.test", name: "Omar" };

/** Mid-2026, so expiry rules are checked against a fixed "now". */
const NOW = Date.UTC(2026, 5, 15, 12);
const card = { brand: "visa", last4: "4242", expMonth: 12, expYear: 2028 };

async function setUp() {
  const t = newTest();
  await t.run(async (ctx) => {
    await insertUser(ctx, { clerkId: vera.subject, email: vera.email, name: vera.name }, NOW - 1000);
    await insertUser(ctx, { clerkId: omar.subject, email: omar.email, name: omar.name }, NOW - 1000);
  });
  const rowOf = (identity: typeof vera) =>
    t.run(async (ctx) => (await getUserByClerkId(ctx, identity.subject))!);
  return { t, asVera: t.withIdentity(vera), asOmar: t.withIdentity(omar), rowOf };
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(NOW);
});
afterEach(() => {
  vi.useRealTimers();
});

describe("mySettings", () => {
  test("a new user has the defaults and has accepted the current terms", async () => {
    const { asVera } = await setUp();
    expect(await asVera.query(api.settings.mySettings, {})).toEqual({
      notificationPreferences: { goLiveSavedStreams: true, goLiveFollowedShops: true, emailDigest: false },
      privacyPreferences: { analytics: false, personalization: true, showProfile: false },
      termsAcceptance: { version: TERMS_VERSION, acceptedAt: NOW - 1000 },
      paymentMethods: [],
    });
  });

  test("signed out, there are no settings", async () => {
    const { t } = await setUp();
    expect(await t.query(api.settings.mySettings, {})).toBeNull();
  });
});

describe("profile picture", () => {
  test("an https link is saved and a blank one removes it", async () => {
    const { asVera } = await setUp();
    await asVera.mutation(api.settings.setAvatar, { avatar: "  https://example.com/vera.png " });
    expect((await asVera.query(api.users.viewer, {}))?.avatar).toBe("https://example.com/vera.png");
    await asVera.mutation(api.settings.setAvatar, { avatar: " " });
    expect((await asVera.query(api.users.viewer, {}))?.avatar).toBeUndefined();
  });

  test.each([
    "javascript:alert(1)",
    "data:image/png;base64,AAAA",
    "/demo/users/vera.png",
    `https://example.com/${"a".repeat(600)}`,
  ])("%s is refused and nothing changes", async (avatar) => {
    const { asVera, rowOf } = await setUp();
    const before = await rowOf(vera);
    await expect(asVera.mutation(api.settings.setAvatar, { avatar })).rejects.toMatchObject({
      data: { code: "INVALID_ARGUMENT", fields: { avatar: expect.any(String) as unknown } },
    });
    expect(await rowOf(vera)).toEqual(before);
  });

  test("changes only the caller's own row", async () => {
    const { asVera, rowOf } = await setUp();
    await asVera.mutation(api.settings.setAvatar, { avatar: "https://example.com/vera.png" });
    expect((await rowOf(omar)).avatar).toBeUndefined();
  });
});

describe("preferences", () => {
  test("a notification switch changes alone and sticks", async () => {
    const { asVera, asOmar } = await setUp();
    await asVera.mutation(api.settings.setNotificationPreferences, { preferences: { emailDigest: true } });
    await asVera.mutation(api.settings.setNotificationPreferences, {
      preferences: { goLiveFollowedShops: false },
    });
    expect((await asVera.query(api.settings.mySettings, {}))?.notificationPreferences).toEqual({
      goLiveSavedStreams: true,
      goLiveFollowedShops: false,
      emailDigest: true,
    });
    expect((await asOmar.query(api.settings.mySettings, {}))?.notificationPreferences.emailDigest).toBe(
      false,
    );
  });

  test("privacy switches change alone", async () => {
    const { asVera } = await setUp();
    await asVera.mutation(api.settings.setPrivacyPreferences, {
      preferences: { analytics: true, showProfile: false },
    });
    expect((await asVera.query(api.settings.mySettings, {}))?.privacyPreferences).toEqual({
      analytics: true,
      personalization: true,
      showProfile: false,
    });
  });

  test("a switch must be true or false", async () => {
    const { asVera } = await setUp();
    await expect(
      asVera.mutation(api.settings.setPrivacyPreferences, {
        preferences: { analytics: "yes" as unknown as boolean },
      }),
    ).rejects.toThrow();
  });
});

describe("terms", () => {
  test("accepting the current version records when", async () => {
    const { t, asVera } = await setUp();
    await t.run(async (ctx) => {
      const row = (await getUserByClerkId(ctx, vera.subject))!;
      await ctx.db.patch("users", row._id, { termsAcceptance: { version: "0.9", acceptedAt: 1 } });
    });
    vi.setSystemTime(NOW + 5000);
    await asVera.mutation(api.settings.acceptTerms, { version: TERMS_VERSION });
    expect((await asVera.query(api.settings.mySettings, {}))?.termsAcceptance).toEqual({
      version: TERMS_VERSION,
      acceptedAt: NOW + 5000,
    });
  });

  test.each(["0.9", "2.0", ""])("version %j cannot be accepted", async (version) => {
    const { asVera, rowOf } = await setUp();
    const before = await rowOf(vera);
    await expect(asVera.mutation(api.settings.acceptTerms, { version })).rejects.toMatchObject({
      data: { code: "INVALID_ARGUMENT" },
    });
    expect(await rowOf(vera)).toEqual(before);
  });
});

describe("payment methods", () => {
  test("the first card becomes the default; only display fields are stored", async () => {
    const { asVera } = await setUp();
    const id = await asVera.mutation(api.settings.addPaymentMethod, { card });
    const settings = await asVera.query(api.settings.mySettings, {});
    expect(settings?.paymentMethods).toEqual([{ id, ...card }]);
    expect(settings?.defaultPaymentMethodId).toBe(id);
  });

  test("a later card becomes the default only when asked", async () => {
    const { asVera } = await setUp();
    const first = await asVera.mutation(api.settings.addPaymentMethod, { card });
    await asVera.mutation(api.settings.addPaymentMethod, { card: { ...card, last4: "1111" } });
    expect((await asVera.query(api.settings.mySettings, {}))?.defaultPaymentMethodId).toBe(first);
    const third = await asVera.mutation(api.settings.addPaymentMethod, {
      card: { ...card, last4: "2222" },
      makeDefault: true,
    });
    expect((await asVera.query(api.settings.mySettings, {}))?.defaultPaymentMethodId).toBe(third);
  });

  test.each([
    { field: "last4", value: "4242424242424242" },
    { field: "last4", value: "4242 4242 4242 4242" },
    { field: "last4", value: "4242-4242-4242-4242" },
    { field: "last4", value: "3782 822463 10005" },
    { field: "brand", value: "visa 4242424242424242" },
    { field: "expYear", value: 4242424242424242 },
  ])("a full card number in $field is refused with the explanation", async ({ field, value }) => {
    const { asVera, rowOf } = await setUp();
    const before = await rowOf(vera);
    await expect(
      asVera.mutation(api.settings.addPaymentMethod, { card: { ...card, [field]: value } }),
    ).rejects.toMatchObject({
      data: {
        code: "INVALID_ARGUMENT",
        message: CARD_NUMBER_EXPLANATION,
        fields: { [`card.${field}`]: CARD_NUMBER_EXPLANATION },
      },
    });
    expect(await rowOf(vera)).toEqual(before);
  });

  test.each([
    { change: { brand: "Visa Gold" }, path: "card.brand" },
    { change: { last4: "424" }, path: "card.last4" },
    { change: { last4: "42424" }, path: "card.last4" },
    { change: { expMonth: 13 }, path: "card.expMonth" },
    { change: { expMonth: 5, expYear: 2026 }, path: "card.expMonth" },
  ])("$change is refused", async ({ change, path }) => {
    const { asVera } = await setUp();
    await expect(
      asVera.mutation(api.settings.addPaymentMethod, { card: { ...card, ...change } }),
    ).rejects.toMatchObject({
      data: { code: "INVALID_ARGUMENT", fields: { [path]: expect.any(String) as unknown } },
    });
  });

  test("a card expiring this month is still accepted", async () => {
    const { asVera } = await setUp();
    await expect(
      asVera.mutation(api.settings.addPaymentMethod, { card: { ...card, expMonth: 6, expYear: 2026 } }),
    ).resolves.toEqual(expect.any(String));
  });

  test(`at most ${MAX_PAYMENT_METHODS} cards, and the same card only once`, async () => {
    const { asVera, rowOf } = await setUp();
    for (let index = 0; index < MAX_PAYMENT_METHODS; index++) {
      await asVera.mutation(api.settings.addPaymentMethod, { card: { ...card, last4: `100${index}` } });
    }
    const before = await rowOf(vera);
    await expect(
      asVera.mutation(api.settings.addPaymentMethod, { card: { ...card, last4: "9999" } }),
    ).rejects.toMatchObject({
      data: {
        code: "LIMIT_EXCEEDED",
        message: `You can save up to ${MAX_PAYMENT_METHODS} cards. Remove one before adding another.`,
      },
    });
    expect(await rowOf(vera)).toEqual(before);
    const { asVera: fresh } = await setUp();
    await fresh.mutation(api.settings.addPaymentMethod, { card });
    await expect(fresh.mutation(api.settings.addPaymentMethod, { card })).rejects.toMatchObject({
      data: { code: "CONFLICT" },
    });
  });

  test("removing the default passes it to the next card, and the last one clears it", async () => {
    const { asVera } = await setUp();
    const first = await asVera.mutation(api.settings.addPaymentMethod, { card });
    const second = await asVera.mutation(api.settings.addPaymentMethod, { card: { ...card, last4: "1111" } });
    await asVera.mutation(api.settings.removePaymentMethod, { paymentMethodId: first });
    let settings = await asVera.query(api.settings.mySettings, {});
    expect(settings?.paymentMethods.map((saved) => saved.id)).toEqual([second]);
    expect(settings?.defaultPaymentMethodId).toBe(second);
    await asVera.mutation(api.settings.removePaymentMethod, { paymentMethodId: second });
    settings = await asVera.query(api.settings.mySettings, {});
    expect(settings?.paymentMethods).toEqual([]);
    expect(settings?.defaultPaymentMethodId).toBeUndefined();
  });

  test("removing another card keeps the default", async () => {
    const { asVera } = await setUp();
    const first = await asVera.mutation(api.settings.addPaymentMethod, { card });
    const second = await asVera.mutation(api.settings.addPaymentMethod, { card: { ...card, last4: "1111" } });
    await asVera.mutation(api.settings.removePaymentMethod, { paymentMethodId: second });
    expect((await asVera.query(api.settings.mySettings, {}))?.defaultPaymentMethodId).toBe(first);
  });

  test("set default picks one of the caller's cards", async () => {
    const { asVera } = await setUp();
    await asVera.mutation(api.settings.addPaymentMethod, { card });
    const second = await asVera.mutation(api.settings.addPaymentMethod, { card: { ...card, last4: "1111" } });
    await asVera.mutation(api.settings.setDefaultPaymentMethod, { paymentMethodId: second });
    expect((await asVera.query(api.settings.mySettings, {}))?.defaultPaymentMethodId).toBe(second);
  });

  test("another person's card cannot be removed or made default", async () => {
    const { asVera, asOmar, rowOf } = await setUp();
    const veras = await asVera.mutation(api.settings.addPaymentMethod, { card });
    const before = await rowOf(vera);
    await expect(
      asOmar.mutation(api.settings.removePaymentMethod, { paymentMethodId: veras }),
    ).rejects.toMatchObject({ data: { code: "NOT_FOUND" } });
    await expect(
      asOmar.mutation(api.settings.setDefaultPaymentMethod, { paymentMethodId: veras }),
    ).rejects.toMatchObject({ data: { code: "NOT_FOUND" } });
    expect(await rowOf(vera)).toEqual(before);
    expect((await rowOf(omar)).paymentMethods).toEqual([]);
  });
});

describe("signed out", () => {
  test("every change is refused", async () => {
    const { t } = await setUp();
    await expect(t.mutation(api.settings.acceptTerms, { version: TERMS_VERSION })).rejects.toMatchObject({
      data: { code: "UNAUTHENTICATED" },
    });
    await expect(t.mutation(api.settings.addPaymentMethod, { card })).rejects.toMatchObject({
      data: { code: "UNAUTHENTICATED" },
    });
  });
});
