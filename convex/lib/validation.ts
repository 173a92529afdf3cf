/**
 * The zod schemas for everything a person writes: the browser validates forms with them and the Convex
 * functions validate arguments with the same schemas (through `convex-helpers/server/zod4`).
 * Pure: no Convex server code, no browser APIs. Messages are shown beside form fields.
 */
import { z } from "zod";
import {
  DEFAULT_SCHEMA_TYPE,
  DEFAULT_TIME_ZONE,
  LANGUAGES,
  PLATFORM_TYPES,
  PLATFORMS,
  PRIVACY_REQUEST_STATUSES,
  PRIVACY_REQUEST_TYPES,
  ROLES,
  SCHEMA_TYPES,
  SHOP_STATUSES,
  STREAM_STATUSES,
  TIME_ZONES,
  type PlatformType,
} from "./constants";
import { LIMITS, TIME_RANGE } from "./limits";

// Before any schema exists: zod otherwise probes `new Function` once, which the served app's
// Content-Security-Policy forbids (scripts/serve/headers.ts), and the browser reports a violation.
z.config({ jitless: true });

// LIMITS lives in its own zod-free module, so pages that only need a number do not load zod.
export { LIMITS, TIME_RANGE };

export const MAX_PRICE = 1_000_000;
export const MAX_CATEGORY_PRIORITY = 1000;

function formatCount(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

function tooLong(label: string, max: number): string {
  return `${label} must be at most ${formatCount(max)} characters.`;
}

/** A trimmed string with a maximum length; blank stays "" (see `requiredText` and `optional`). */
function text(label: string, max: number) {
  return z
    .string({
      error: (issue) => (issue.input === undefined ? `${label} is required.` : `${label} must be text.`),
    })
    .trim()
    .max(max, tooLong(label, max));
}

/**
 * `value` cut to at most `max` UTF-16 units (what zod's `.max` counts), never inside a character, with
 * the space left at the cut trimmed.
 */
export function cutToLength(value: string, max: number): string {
  if (value.length <= max) return value;
  let cut = "";
  for (const character of value) {
    if (cut.length + character.length > max) break;
    cut += character;
  }
  return cut.trimEnd();
}

function requiredText(label: string, max: number) {
  return text(label, max).min(1, `${label} is required.`);
}

/**
 * Makes a string field optional where a blank form input means "not set": "" and whitespace become
 * `undefined` before the inner schema runs. Built as pipes so `zodToConvex` still sees `v.optional(v.string())`.
 */
function optional<T extends z.ZodType<unknown, string>>(schema: T) {
  return z
    .string()
    .transform((value) => (value.trim() === "" ? undefined : value))
    .pipe(schema.optional())
    .optional();
}

function optionalText(label: string, max: number) {
  return optional(text(label, max));
}

/**
 * For a cross-field refinement: run it even when other fields have errors (so a form shows every
 * problem at once), but only when the fields it reads parsed cleanly.
 */
function whenFieldsValid(...keys: string[]) {
  return (payload: z.core.ParsePayload): boolean =>
    payload.issues.every((issue) => {
      const [first] = issue.path ?? [];
      return first !== undefined && !keys.includes(String(first));
    });
}

// ---------------------------------------------------------------------------------------------------
// Enumerations

export const roleSchema = z.enum(ROLES, { error: "Choose a role." });
export const streamStatusSchema = z.enum(STREAM_STATUSES, { error: "Choose a stream status." });
export const shopStatusSchema = z.enum(SHOP_STATUSES, { error: "Choose a shop status." });
export const privacyRequestStatusSchema = z.enum(PRIVACY_REQUEST_STATUSES, {
  error: "Choose a request status.",
});
export const privacyRequestTypeSchema = z.enum(PRIVACY_REQUEST_TYPES, { error: "Choose a request type." });
export const platformTypeSchema = z.enum(PLATFORM_TYPES, { error: "Choose a platform." });
export const timeZoneSchema = z.enum(TIME_ZONES, { error: "Choose a time zone." });
export const languageSchema = z.enum(LANGUAGES, { error: "Choose a language from the list." });
export const schemaTypeSchema = z.enum(SCHEMA_TYPES, { error: "Choose a business type." });

// ---------------------------------------------------------------------------------------------------
// Building blocks

const URL_SCHEME_MESSAGE = "Only http:// and https:// links are allowed.";

/** Why `value` is not an acceptable link, or undefined when it is. */
function urlProblem(value: string, allowSitePath: boolean): string | undefined {
  const invalid = allowSitePath
    ? "Enter a link starting with https://, or a path on this site starting with /."
    : "Enter a full link starting with https://.";
  // Backslashes are refused because browsers read "/\host" as "//host", another site.
  if (/[\s\\\p{Cc}]/u.test(value)) return invalid;
  if (value.startsWith("//")) return URL_SCHEME_MESSAGE;
  if (value.startsWith("/")) return allowSitePath ? undefined : invalid;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(value)?.[1]?.toLowerCase();
  if (scheme === undefined) return invalid;
  if (scheme !== "http" && scheme !== "https") return URL_SCHEME_MESSAGE;
  if (!/^https?:\/\/[^/]/i.test(value)) return invalid;
  const url = parseUrl(value);
  if (url === undefined || url.hostname === "") return invalid;
  if (url.username !== "" || url.password !== "") return "Remove the user name and password from the link.";
  return undefined;
}

function parseUrl(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

function urlSchema(allowSitePath: boolean, max: number = LIMITS.url) {
  return z
    .string({ error: "Enter a link." })
    .trim()
    .min(1, { message: "Enter a link.", abort: true })
    .max(max, { message: `A link must be at most ${formatCount(max)} characters.`, abort: true })
    .superRefine((value, ctx) => {
      const problem = urlProblem(value, allowSitePath);
      if (problem !== undefined) ctx.addIssue({ code: "custom", message: problem });
    });
}

/** An http(s) link, or a path on this site such as `/demo/shops/banner.svg` (images shipped with the app). */
export const httpUrl = urlSchema(true);
/** An absolute http(s) link only: for links that lead off the site. */
export const absoluteHttpUrl = urlSchema(false);

const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export const slugSchema = requiredText("Slug", LIMITS.slug).regex(
  SLUG_PATTERN,
  "Use lowercase letters, numbers and single hyphens, like corner-bakery.",
);

/**
 * A suggested slug for a shop name; "" when the name has no letters or digits to keep. Apostrophes
 * (straight or curly) are dropped rather than made hyphens: "Nina's" is `ninas`, not `nina-s`.
 */
export function slugify(name: string): string {
  const dashed = name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .replace(/['\u2018\u2019\u02bc]/gu, "")
    .replace(/[^a-z0-9]+/g, "-");
  return dashed.replace(/^-+/, "").slice(0, LIMITS.slug).replace(/-+$/, "");
}

export const hexColorSchema = z
  .string({ error: "Enter a colour like #1a2b3c." })
  .trim()
  .regex(/^#[0-9a-f]{6}$/i, "Enter a colour like #1a2b3c.");

/** No currency symbol, no exponent, no leading zeros, at most 2 decimals: "24", "24.5", "0.99". */
export const moneySchema = z
  .string({ error: "Enter a price." })
  .regex(/^(?:0|[1-9]\d*)(?:\.\d{1,2})?$/, {
    message: "Enter a price like 24 or 24.99, without a currency symbol.",
    abort: true,
  })
  .refine((value) => Number(value) <= MAX_PRICE, `A price must be at most ${formatCount(MAX_PRICE)}.00.`);

export const TIME_RANGE_MESSAGE = `Choose a date from ${TIME_RANGE.firstYear} to ${TIME_RANGE.lastYear}.`;

/** A moment as milliseconds since 1970 (UTC), as stored, within TIME_RANGE. */
export const epochMsSchema = z
  .number({ error: "Enter a valid date and time." })
  .int("Enter a valid date and time.")
  .min(TIME_RANGE.minUtc, TIME_RANGE_MESSAGE)
  .max(TIME_RANGE.maxUtc, TIME_RANGE_MESSAGE);

const CATEGORY_ID_PATTERN = /^[a-z0-9]+(?:_[a-z0-9]+)*$/;

export const categoryIdSchema = requiredText("Category id", LIMITS.categoryId).regex(
  CATEGORY_ID_PATTERN,
  "Use lowercase letters, numbers and underscores, like home_goods.",
);

/** Required: for an admin's rejection or suspension, and for rejecting a privacy request. */
export const rejectionReasonSchema = requiredText("Reason", LIMITS.statusReason);
/** The optional reason stored with a shop's status. */
export const statusReasonSchema = optionalText("Reason", LIMITS.statusReason);

// ---------------------------------------------------------------------------------------------------
// Users

/** What the sign-in provider tells us about a user; never typed by the user. */
export const userIdentitySchema = z.object({
  clerkId: requiredText("Account id", LIMITS.clerkId),
  email: requiredText("Email", LIMITS.email).regex(z.regexes.email, "Enter a valid email address."),
});
export type UserIdentityInput = z.infer<typeof userIdentitySchema>;

/** What a sign-in token or a Clerk webhook says about a person, as it arrived. */
export type IdentityClaims = { clerkId: string; email?: string; name?: string; avatar?: string };

/**
 * The claims held to docs/product.md#limits without refusing the sign-in (decision 023): a name over
 * LIMITS.userName is cut to it; an email that is not a valid address within LIMITS.email, and a picture
 * that is not an absolute http(s) link within LIMITS.avatar (the rule for a picture set in settings), are
 * dropped; blank ones are absent. Undefined when the account id is blank or over LIMITS.clerkId: it is the
 * account's key, so it can be neither cut (two ids could become one account) nor dropped.
 */
export function acceptedIdentityClaims(claims: IdentityClaims): IdentityClaims | undefined {
  // Kept exactly as given: every later sign-in finds the account by the token's own subject.
  const { clerkId } = claims;
  if (clerkId.trim() === "" || clerkId.length > LIMITS.clerkId) return undefined;
  const email = userIdentitySchema.shape.email.safeParse(claims.email);
  const avatar = avatarSettingSchema.safeParse(claims.avatar);
  const name = cutToLength(claims.name?.trim() ?? "", LIMITS.userName);
  return {
    clerkId,
    ...(email.success && { email: email.data }),
    ...(name !== "" && { name }),
    ...(avatar.success && avatar.data !== undefined && { avatar: avatar.data }),
  };
}

export const userProfileSchema = z.object({
  name: optionalText("Name", LIMITS.userName),
  avatar: optional(urlSchema(true, LIMITS.avatar)),
});
export type UserProfileInput = z.infer<typeof userProfileSchema>;

export const notificationPreferencesSchema = z.object({
  goLiveSavedStreams: z.boolean(),
  goLiveFollowedShops: z.boolean(),
  emailDigest: z.boolean(),
});
export type NotificationPreferencesInput = z.infer<typeof notificationPreferencesSchema>;

export const privacyPreferencesSchema = z.object({
  analytics: z.boolean(),
  personalization: z.boolean(),
  showProfile: z.boolean(),
});
export type PrivacyPreferencesInput = z.infer<typeof privacyPreferencesSchema>;

/** Any run of 12 or more digits (spaces and hyphens allowed between them) is treated as a card number. */
function isCardNumber(value: string | number): boolean {
  const runs = String(value).match(/\d[\d -]*\d/g) ?? [];
  return runs.some((run) => run.replace(/\D/g, "").length >= 12);
}

export const privacyRequestSchema = z
  .object({
    type: privacyRequestTypeSchema.exclude(["none"], { error: "Choose a request type." }),
    reason: optionalText("Reason", LIMITS.gdprReason),
    /** For a correction: what should be corrected. */
    details: optionalText("Details", LIMITS.correctionDetails),
  })
  .refine((request) => request.type !== "correction" || request.details !== undefined, {
    message: "Tell us what should be corrected.",
    path: ["details"],
    when: whenFieldsValid("type", "details"),
  });
export type PrivacyRequestInput = z.infer<typeof privacyRequestSchema>;

export const dataRetentionSchema = z.object({
  dataRetentionPolicy: requiredText("Retention policy", LIMITS.retentionPolicy),
  dataRetentionEndDate: epochMsSchema,
});
export type DataRetentionInput = z.infer<typeof dataRetentionSchema>;

// ---------------------------------------------------------------------------------------------------
// Shops and streams

export const productSchema = z.object({
  id: requiredText("Product id", LIMITS.productId),
  name: requiredText("Product name", LIMITS.productName),
  price: moneySchema,
  imageUrl: optional(httpUrl),
  description: optionalText("Product description", LIMITS.productDescription),
});
export type ProductInput = z.infer<typeof productSchema>;

const productsSchema = z
  .array(productSchema)
  .max(LIMITS.products, `Add at most ${LIMITS.products} products.`)
  .refine((products) => new Set(products.map((product) => product.id)).size === products.length, {
    message: "Each product needs its own id.",
  });

export const faqEntrySchema = z.object({
  question: requiredText("Question", LIMITS.faqQuestion),
  answer: requiredText("Answer", LIMITS.faqAnswer),
});
export type FaqEntryInput = z.infer<typeof faqEntrySchema>;

/**
 * The owner-editable fields of a live shop (owner, status and timestamps are set by the server).
 * `timezone` and `schemaType` have defaults, and zod applies defaults even through `.partial()`:
 * derive patch schemas with care, or they reset those fields.
 */
export const liveShopSchema = z.object({
  liveShopName: requiredText("Shop name", LIMITS.shopName),
  slug: slugSchema,
  taxId: optionalText("Tax id", LIMITS.taxId),
  headline: optionalText("Headline", LIMITS.headline),
  description: optionalText("Description", LIMITS.shopDescription),
  faqSection: z.array(faqEntrySchema).max(LIMITS.faqEntries, `Add at most ${LIMITS.faqEntries} questions.`),
  timezone: timeZoneSchema.default(DEFAULT_TIME_ZONE),
  languages: z
    .array(languageSchema)
    .refine((languages) => new Set(languages).size === languages.length, "List each language only once."),
  productsSummary: optionalText("Products summary", LIMITS.productsSummary),
  products: productsSchema,
  bannerImageUrl: optional(httpUrl),
  logoUrl: optional(httpUrl),
  themeColor: optional(hexColorSchema),
  accentThemeColor: optional(hexColorSchema),
  coverImageUrl: optional(httpUrl),
  shopTrailerUrl: optional(httpUrl),
  schemaType: schemaTypeSchema.default(DEFAULT_SCHEMA_TYPE),
});
export type LiveShopInput = z.infer<typeof liveShopSchema>;

/** The stream's fields without the cross-field rule, for `.partial()` and `.pick()` (zod refuses refined objects). */
export const streamFieldsSchema = z.object({
  streamTitle: requiredText("Title", LIMITS.streamTitle),
  streamDescription: optionalText("Description", LIMITS.streamDescription),
  streamImageUrls: z
    .array(httpUrl)
    .max(LIMITS.streamImageUrls, `Add at most ${LIMITS.streamImageUrls} images.`),
  streamVideoUrl: optional(httpUrl),
  replayVideoUrl: optional(httpUrl),
  streamTrailerUrl: optional(httpUrl),
  streamStartUTC: epochMsSchema.optional(),
  streamStopUTC: epochMsSchema.optional(),
  timezone: timeZoneSchema,
  products: productsSchema,
});

export function stopIsAfterStart(times: { streamStartUTC?: number; streamStopUTC?: number }): boolean {
  const { streamStartUTC: start, streamStopUTC: stop } = times;
  return start === undefined || stop === undefined || stop > start;
}

export const streamSchema = streamFieldsSchema.refine(stopIsAfterStart, {
  message: "The stop time must be after the start time.",
  path: ["streamStopUTC"],
  when: whenFieldsValid("streamStartUTC", "streamStopUTC"),
});
export type StreamInput = z.infer<typeof streamSchema>;

function hostList(hosts: readonly string[]): string {
  return hosts.length <= 1 ? hosts.join("") : `${hosts.slice(0, -1).join(", ")} or ${hosts.at(-1) ?? ""}`;
}

/** Why `link` may not be used for `type`, or undefined. `link` is already a valid absolute URL. */
function platformLinkProblem(type: PlatformType, link: string): string | undefined {
  const url = parseUrl(link);
  if (url === undefined) return undefined;
  const { label, hosts } = PLATFORMS[type];
  // Platforms on the seller's own domain cannot be checked by host; at least insist on TLS.
  if (hosts.length === 0) {
    return url.protocol === "https:" ? undefined : "Use a secure link that starts with https://.";
  }
  if (hosts.some((host) => url.hostname === host || url.hostname.endsWith(`.${host}`))) return undefined;
  const article = /^[aeiou]/i.test(label) ? "An" : "A";
  return `${article} ${label} link must be on ${hostList(hosts)}.`;
}

/**
 * Where a stream can be watched. Only the stream link is held to the platform's hosts: the action
 * link (buy, follow) may lead to the seller's own store.
 */
export const platformLinkSchema = z
  .object({
    platformType: platformTypeSchema,
    platformStreamUrl: absoluteHttpUrl,
    platformActionUrl: optional(absoluteHttpUrl),
  })
  .superRefine(
    (link, ctx) => {
      const problem = platformLinkProblem(link.platformType, link.platformStreamUrl);
      if (problem !== undefined)
        ctx.addIssue({ code: "custom", message: problem, path: ["platformStreamUrl"] });
    },
    { when: whenFieldsValid("platformType", "platformStreamUrl") },
  );
export type PlatformLinkInput = z.infer<typeof platformLinkSchema>;

/** A stream's platform links, replaced as a set: one per platform. */
export const platformLinksSchema = z.array(platformLinkSchema).superRefine(
  (links, ctx) => {
    const seen = new Set<PlatformType>();
    for (const [index, link] of links.entries()) {
      if (seen.has(link.platformType)) {
        ctx.addIssue({
          code: "custom",
          message: `${PLATFORMS[link.platformType].label} is listed twice; a stream has one link per platform.`,
          path: [index, "platformType"],
        });
      }
      seen.add(link.platformType);
    }
  },
  // Alongside mistakes in the links' other fields, so a form shows every problem at once.
  {
    when: (payload) =>
      payload.issues.every((issue) => (issue.path?.length ?? 0) >= 2 && issue.path?.[1] !== "platformType"),
  },
);

// ---------------------------------------------------------------------------------------------------
// Reference data and links to it

export const categoryLinkSchema = z.object({
  categoryId: categoryIdSchema,
  subcategoryId: optional(categoryIdSchema),
  priority: z
    .number({ error: "Enter a priority." })
    .int(`Enter a whole number from 0 to ${MAX_CATEGORY_PRIORITY}.`)
    .min(0, `Enter a whole number from 0 to ${MAX_CATEGORY_PRIORITY}.`)
    .max(MAX_CATEGORY_PRIORITY, `Enter a whole number from 0 to ${MAX_CATEGORY_PRIORITY}.`)
    .default(0),
});
export type CategoryLinkInput = z.infer<typeof categoryLinkSchema>;

/** A shop's or stream's categories, replaced as a set. */
export const categoryLinksSchema = z
  .array(categoryLinkSchema)
  .max(LIMITS.linkedCategories, `Choose at most ${LIMITS.linkedCategories} categories.`)
  .refine(
    (links) =>
      new Set(links.map((link) => `${link.categoryId}/${link.subcategoryId ?? ""}`)).size === links.length,
    "List each category only once.",
  );

export const cbsaCodeSchema = z
  .string({ error: "Enter the 5-digit CBSA code." })
  .regex(/^\d{5}$/, "Enter the 5-digit CBSA code.");

/** The metro areas a shop or stream is listed in, by CBSA code, replaced as a set. */
export const cbsaCodesSchema = z
  .array(cbsaCodeSchema)
  .max(LIMITS.linkedMetroAreas, `Choose at most ${LIMITS.linkedMetroAreas} metro areas.`)
  .refine((codes) => new Set(codes).size === codes.length, "List each metro area only once.");

export const categorySchema = z.object({
  categoryId: categoryIdSchema,
  icon: optionalText("Icon", LIMITS.categoryIcon),
  label: requiredText("Label", LIMITS.categoryLabel),
  description: optionalText("Description", LIMITS.categoryDescription),
  parentCategoryId: optional(categoryIdSchema),
});
export type CategoryInput = z.infer<typeof categorySchema>;

export const msaSchema = z.object({
  cbsaCode: cbsaCodeSchema,
  msaLabel: requiredText("Metro area name", LIMITS.msaName),
  states: z
    .array(z.string().regex(/^[A-Z]{2}$/, "Use 2-letter state codes like NY."))
    .min(1, "Add at least one state.")
    .max(LIMITS.msaStates, `Add at most ${LIMITS.msaStates} states.`),
  coordinatesLat: z
    .number({ error: "Enter a latitude from -90 to 90." })
    .min(-90, "Enter a latitude from -90 to 90.")
    .max(90, "Enter a latitude from -90 to 90."),
  coordinatesLng: z
    .number({ error: "Enter a longitude from -180 to 180." })
    .min(-180, "Enter a longitude from -180 to 180.")
    .max(180, "Enter a longitude from -180 to 180."),
});
export type MsaInput = z.infer<typeof msaSchema>;

// ---------------------------------------------------------------------------------------------------

/** The first message for each field, keyed by dotted path (`products.0.price`); "" for the whole form. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const path = issue.path.map(String).join(".");
    errors[path] ??= issue.message;
  }
  return errors;
}

// ---------------------------------------------------------------------------------------------------
// Settings

/**
 * The profile picture: an absolute http(s) link only (a person's picture is never one of the site's
 * own files); blank removes it.
 */
export const avatarSettingSchema = optional(urlSchema(false, LIMITS.avatar));

/** Notification and privacy switches save one at a time, so a change names only what it changes. */
export const notificationPreferencesPatchSchema = notificationPreferencesSchema.partial();
export const privacyPreferencesPatchSchema = privacyPreferencesSchema.partial();

/**
 * The terms version being accepted, as text: `termsAcceptanceSchema`'s literal would become a Convex
 * literal validator, and a tab still showing older terms would get a bare validator error instead of
 * the sentence the server gives (convex/model/settings.ts).
 */
export const termsVersionSchema = z
  .string({ error: "Choose the terms version to accept." })
  .trim()
  .min(1, "Choose the terms version to accept.")
  .max(20, "Choose the terms version to accept.");

/** Saved cards per person: enough for a few real cards, small enough to read at a glance. */
export const MAX_PAYMENT_METHODS = 5;
/** How far ahead an expiry year may be; cards are issued for at most about ten years. */
export const MAX_CARD_YEARS_AHEAD = 20;

export const CARD_BRANDS = [
  "visa",
  "mastercard",
  "amex",
  "discover",
  "diners",
  "jcb",
  "unionpay",
  "other",
] as const;
export type CardBrand = (typeof CARD_BRANDS)[number];

export const CARD_BRAND_LABELS: Record<CardBrand, string> = {
  visa: "Visa",
  mastercard: "Mastercard",
  amex: "American Express",
  discover: "Discover",
  diners: "Diners Club",
  jcb: "JCB",
  unionpay: "UnionPay",
  other: "Other card",
};

/** Shown wherever something that looks like a full card number is refused. */
export const CARD_NUMBER_EXPLANATION =
  "LiveLocal never stores card numbers — enter only the last 4 digits. Your full card number stays with your bank and the platforms you buy on.";

const refuseCardNumber = { message: CARD_NUMBER_EXPLANATION, abort: true } as const;

/**
 * When a card expiring at the end of `expMonth`/`expYear` is out of date at `now`, or its year is
 * implausibly far ahead, why; else undefined. A card is good through its last day anywhere on Earth
 * (UTC-12), so a browser in any time zone and the server agree.
 */
export function cardExpiryProblem(expMonth: number, expYear: number, now: number): string | undefined {
  const endsAt = Date.UTC(expYear, expMonth, 1) + 12 * 60 * 60 * 1000;
  if (now >= endsAt) return "This card has expired; check the month and year.";
  const thisYear = new Date(now).getUTCFullYear();
  if (expYear > thisYear + MAX_CARD_YEARS_AHEAD) {
    return `Enter an expiry year up to ${thisYear + MAX_CARD_YEARS_AHEAD}.`;
  }
  return undefined;
}

function cardInteger(message: string, min: number, max: number) {
  return z
    .number({ error: message })
    .refine((value) => !isCardNumber(value), refuseCardNumber)
    .int(message)
    .min(min, message)
    .max(max, message);
}

/**
 * A card to save as a display-only reference (the server assigns the id). Anything that looks like a
 * full card number (12 or more digits, spaced or not) is refused in every field, before any other rule,
 * so the person reads why. Expiry is checked against the time of parsing.
 */
export const newPaymentMethodSchema = z
  .object({
    brand: z
      .string({ error: "Choose the card's brand." })
      .trim()
      .refine((value) => !isCardNumber(value), refuseCardNumber)
      .pipe(z.enum(CARD_BRANDS, { error: "Choose the card's brand." })),
    last4: z
      .string({ error: "Enter the last 4 digits of the card." })
      .trim()
      .refine((value) => !isCardNumber(value), refuseCardNumber)
      .regex(/^\d{4}$/, "Enter exactly the last 4 digits of the card, like 4242."),
    expMonth: cardInteger("Choose the expiry month.", 1, 12),
    expYear: cardInteger("Choose the expiry year.", 2000, 2099),
  })
  .superRefine(
    (card, ctx) => {
      const problem = cardExpiryProblem(card.expMonth, card.expYear, Date.now());
      if (problem !== undefined) ctx.addIssue({ code: "custom", message: problem, path: ["expMonth"] });
    },
    { when: whenFieldsValid("expMonth", "expYear") },
  );
export type NewPaymentMethodInput = z.input<typeof newPaymentMethodSchema>;

/** A saved card's id, as the server assigned it. */
export const paymentMethodIdSchema = z
  .string({ error: "Choose a saved card." })
  .min(1, "Choose a saved card.")
  .max(64, "Choose a saved card.");

// ---------------------------------------------------------------------------------------------------
// Privacy requests
//
// What a person asks for is `privacyRequestSchema` (above: type, reason ≤ LIMITS.gdprReason, details
// ≤ LIMITS.correctionDetails and required for a correction). What an admin answers is below.

export const PRIVACY_DECISIONS = ["approve", "reject"] as const;
export type PrivacyDecision = (typeof PRIVACY_DECISIONS)[number];

export const REJECTION_REASON_REQUIRED = "Give a reason for the rejection; the person who asked reads it.";
export const CORRECTION_NOTE_REQUIRED = "Say what was corrected; the person who asked reads it.";
/** Approving a correction needs a change made on the correction screen first (issue 16). */
export const NOTHING_CORRECTED =
  "Nothing has been corrected yet. Correct the data first, or reject the request saying why.";

/**
 * An admin's decision on a privacy request: rejecting needs a reason (GDPR article 12(4): the person is
 * told why). Approving a correction also needs a note of what changed, which only the request's type
 * tells, so the server checks that one itself (`CORRECTION_NOTE_REQUIRED`).
 */
export const privacyDecisionSchema = z
  .object({
    decision: z.enum(PRIVACY_DECISIONS, { error: "Choose approve or reject." }),
    reason: optionalText("Reason", LIMITS.statusReason),
  })
  .refine((answer) => answer.decision !== "reject" || answer.reason !== undefined, {
    message: REJECTION_REASON_REQUIRED,
    path: ["reason"],
    when: whenFieldsValid("decision", "reason"),
  });
export type PrivacyDecisionInput = z.input<typeof privacyDecisionSchema>;

/**
 * An admin's correction of a person's profile for a correction request: the name (blank removes it),
 * the email (absent or blank: unchanged; never offered where Clerk manages it) and the picture (an http(s)
 * link, as in settings; blank removes it).
 */
export const profileCorrectionSchema = z.object({
  name: optionalText("Name", LIMITS.userName),
  email: optional(userIdentitySchema.shape.email),
  avatar: avatarSettingSchema,
});
export type ProfileCorrectionInput = z.infer<typeof profileCorrectionSchema>;

/** The text of one of their shops an admin may correct: the same rules as the shop form's. */
export const shopTextCorrectionSchema = liveShopSchema.pick({
  liveShopName: true,
  headline: true,
  description: true,
  productsSummary: true,
});
export type ShopTextCorrectionInput = z.infer<typeof shopTextCorrectionSchema>;

/** The text of one of their shows an admin may correct: the same rules as the stream form's. */
export const streamTextCorrectionSchema = streamFieldsSchema.pick({
  streamTitle: true,
  streamDescription: true,
});
export type StreamTextCorrectionInput = z.infer<typeof streamTextCorrectionSchema>;

/** Lifting a restriction: an optional note for the activity log. */
export const liftRestrictionSchema = z.object({
  reason: optionalText("Reason", LIMITS.statusReason),
});
export type LiftRestrictionInput = z.input<typeof liftRestrictionSchema>;
