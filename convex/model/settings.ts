/**
 * A person's own settings (issue 7): profile picture, notification and privacy switches, terms
 * acceptance and display-only card references. Every helper works on the caller's own row, which the
 * public function takes from `ctx.viewer`, never from an argument.
 */
import type { Doc } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
import { TERMS_VERSION } from "../lib/constants";
import {
  MAX_PAYMENT_METHODS,
  type CardBrand,
  type NotificationPreferencesInput,
  type PrivacyPreferencesInput,
} from "../lib/validation";
import type { PaymentMethod } from "../schema";
import { appError } from "./errors";
import { patchUser } from "./users";

/** What the settings page shows beyond `users.viewer` (which has the picture): preferences, terms, cards. */
export function toSettingsView(user: Doc<"users">) {
  return {
    notificationPreferences: user.notificationPreferences,
    privacyPreferences: user.privacyPreferences,
    termsAcceptance: user.termsAcceptance,
    paymentMethods: user.paymentMethods,
    defaultPaymentMethodId: user.defaultPaymentMethodId,
  };
}

/**
 * Sets the profile picture (a link, or the address of the person's own upload), or removes it when
 * `avatar` is undefined; a replaced upload is deleted (patchUser, model/images.ts).
 */
export async function setAvatar(ctx: MutationCtx, user: Doc<"users">, avatar: string | undefined) {
  if (avatar === user.avatar) return;
  await patchUser(ctx, user._id, { avatar });
}

export async function updateNotificationPreferences(
  ctx: MutationCtx,
  user: Doc<"users">,
  changes: Partial<NotificationPreferencesInput>,
) {
  await patchUser(ctx, user._id, {
    notificationPreferences: { ...user.notificationPreferences, ...definedOnly(changes) },
  });
}

export async function updatePrivacyPreferences(
  ctx: MutationCtx,
  user: Doc<"users">,
  changes: Partial<PrivacyPreferencesInput>,
) {
  await patchUser(ctx, user._id, {
    privacyPreferences: { ...user.privacyPreferences, ...definedOnly(changes) },
  });
}

function definedOnly<T extends object>(changes: T): Partial<T> {
  return Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/** Records that the caller accepted `version` now; only the current terms can be accepted. */
export async function acceptTerms(ctx: MutationCtx, user: Doc<"users">, version: string, now = Date.now()) {
  if (version !== TERMS_VERSION) {
    throw appError(
      "INVALID_ARGUMENT",
      `Version ${version} is not the current terms; reload the page to read version ${TERMS_VERSION}.`,
    );
  }
  await patchUser(ctx, user._id, { termsAcceptance: { version, acceptedAt: now } }, now);
}

export type NewCard = { brand: CardBrand; last4: string; expMonth: number; expYear: number };

/**
 * Saves a card reference and returns its id. The first card becomes the default, as does any card
 * added with `makeDefault`. The same card twice, or more than MAX_PAYMENT_METHODS, is refused.
 */
export async function addPaymentMethod(
  ctx: MutationCtx,
  user: Doc<"users">,
  card: NewCard,
  makeDefault = false,
): Promise<string> {
  if (user.paymentMethods.length >= MAX_PAYMENT_METHODS) {
    throw appError(
      "LIMIT_EXCEEDED",
      `You can save up to ${MAX_PAYMENT_METHODS} cards. Remove one before adding another.`,
    );
  }
  const duplicate = user.paymentMethods.some(
    (saved) =>
      saved.brand === card.brand &&
      saved.last4 === card.last4 &&
      saved.expMonth === card.expMonth &&
      saved.expYear === card.expYear,
  );
  if (duplicate) throw appError("CONFLICT", "This card is already saved.");
  const id = `pm_${crypto.randomUUID()}`;
  const paymentMethod: PaymentMethod = { id, ...card };
  const becomesDefault = makeDefault || defaultIdOf(user) === undefined;
  await patchUser(ctx, user._id, {
    paymentMethods: [...user.paymentMethods, paymentMethod],
    ...(becomesDefault && { defaultPaymentMethodId: id }),
  });
  return id;
}

/** Removes a saved card; when it was the default, the first remaining card becomes the default. */
export async function removePaymentMethod(ctx: MutationCtx, user: Doc<"users">, paymentMethodId: string) {
  findPaymentMethodOrThrow(user, paymentMethodId);
  const remaining = user.paymentMethods.filter((saved) => saved.id !== paymentMethodId);
  const currentDefault = defaultIdOf(user);
  const defaultPaymentMethodId =
    currentDefault === paymentMethodId || currentDefault === undefined ? remaining[0]?.id : currentDefault;
  await patchUser(ctx, user._id, { paymentMethods: remaining, defaultPaymentMethodId });
}

export async function setDefaultPaymentMethod(ctx: MutationCtx, user: Doc<"users">, paymentMethodId: string) {
  findPaymentMethodOrThrow(user, paymentMethodId);
  if (user.defaultPaymentMethodId === paymentMethodId) return;
  await patchUser(ctx, user._id, { defaultPaymentMethodId: paymentMethodId });
}

/** The default card's id, when it names a card still saved. */
function defaultIdOf(user: Doc<"users">): string | undefined {
  const id = user.defaultPaymentMethodId;
  return user.paymentMethods.some((saved) => saved.id === id) ? id : undefined;
}

function findPaymentMethodOrThrow(user: Doc<"users">, paymentMethodId: string): PaymentMethod {
  const found = user.paymentMethods.find((saved) => saved.id === paymentMethodId);
  if (!found) throw appError("NOT_FOUND", "This card is not among your saved cards. Reload the page.");
  return found;
}
