import { TERMS_VERSION } from "@convex/lib/constants";
import type { ConvexTestBackend, TestPerson } from "@/test/convex-backend";
import type { Settings } from "../settings-data";

export const ACCEPTED_AT = Date.UTC(2026, 2, 4, 15);

export function settingsWith(overrides: Partial<Settings> = {}): Settings {
  return {
    defaultPaymentMethodId: undefined,
    notificationPreferences: { goLiveSavedStreams: true, goLiveFollowedShops: true, emailDigest: false },
    privacyPreferences: { analytics: false, personalization: true, showProfile: true },
    termsAcceptance: { version: TERMS_VERSION, acceptedAt: ACCEPTED_AT },
    paymentMethods: [],
    ...overrides,
  };
}

export function card(id: string, last4: string, expYear = new Date().getUTCFullYear() + 2) {
  return { id, brand: "visa", last4, expMonth: 12, expYear };
}

/**
 * On the embedded backend: signs in Maria Delgado, a seller, whose user row carries `overrides` of the
 * default settings (and `avatar`, a picture's address, when given), and returns her.
 */
export async function signInWithSettings(
  convex: ConvexTestBackend,
  overrides: Partial<Settings> = {},
  avatar?: string,
): Promise<TestPerson> {
  const maria = await convex.addUser("seller", { key: "maria", name: "Maria Delgado" });
  const { termsAcceptance, ...rest } = settingsWith(overrides);
  await convex.run((ctx) =>
    ctx.db.patch(maria.userId, { ...rest, termsAcceptance, ...(avatar !== undefined && { avatar }) }),
  );
  return await convex.signInAs(maria);
}

/** A token the backend signed for `person`, as the app's sign-in hands it to the upload form. */
export async function tokenOf(convex: ConvexTestBackend, person: TestPerson): Promise<string> {
  const issued = await convex.backend.issueToken({
    sub: person.subject,
    email: person.email,
    name: person.name,
  });
  return issued.token;
}
