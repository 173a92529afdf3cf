import { api } from "@convex/_generated/api";
import { TERMS_VERSION } from "@convex/lib/constants";
import type { ConvexTestBackend, TestPerson } from "@/test/convex-backend";
import { setQueryResult } from "@/test/convex-mock";
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

/** A signed-in viewer with `overrides` applied to the default settings. */
export function signedInWith(overrides: Partial<Settings> = {}, avatar?: string) {
  setQueryResult(api.users.viewer, {
    _id: "u1",
    email: "maria@livelocal.test",
    name: "Maria Delgado",
    role: "seller",
    ...(avatar !== undefined && { avatar }),
  });
  setQueryResult(api.settings.mySettings, settingsWith(overrides));
}

/**
 * On the embedded backend: signs in Maria Delgado, a seller, whose user row carries `overrides` of the
 * default settings, and returns her.
 */
export async function signInWithSettings(
  convex: ConvexTestBackend,
  overrides: Partial<Settings> = {},
): Promise<TestPerson> {
  const maria = await convex.addUser("seller", { key: "maria", name: "Maria Delgado" });
  const { termsAcceptance, ...rest } = settingsWith(overrides);
  await convex.run((ctx) => ctx.db.patch(maria.userId, { ...rest, termsAcceptance }));
  return await convex.signInAs(maria);
}
