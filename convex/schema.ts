import { defineSchema, defineTable } from "convex/server";
import { v, type Infer, type VLiteral, type VUnion } from "convex/values";
import {
  ADMIN_ACTIONS,
  GO_LIVE_ALERT_REASONS,
  INSIGHT_METRICS,
  NOTIFICATION_CHANNELS,
  NOTIFICATION_KINDS,
  LANGUAGES,
  PLATFORM_TYPES,
  PRIVACY_REQUEST_STATUSES,
  PRIVACY_REQUEST_TYPES,
  ROLES,
  SCHEMA_TYPES,
  SHOP_STATUSES,
  STREAM_STATUSES,
  TIME_ZONES,
} from "./lib/constants";

/** A literal union validator from one of the constants tuples, so each enumeration is written once. */
function literals<const T extends string>(
  values: readonly [T, T, ...T[]],
): VUnion<T, VLiteral<T, "required">[], "required", never> {
  const [first, second, ...rest] = values;
  return v.union(v.literal(first), v.literal(second), ...rest.map((value) => v.literal(value)));
}

export const roleValidator = literals(ROLES);
export const streamStatusValidator = literals(STREAM_STATUSES);
export const shopStatusValidator = literals(SHOP_STATUSES);
export const privacyRequestStatusValidator = literals(PRIVACY_REQUEST_STATUSES);
export const privacyRequestTypeValidator = literals(PRIVACY_REQUEST_TYPES);
export const platformTypeValidator = literals(PLATFORM_TYPES);
export const timeZoneValidator = literals(TIME_ZONES);
export const languageValidator = literals(LANGUAGES);
export const schemaTypeValidator = literals(SCHEMA_TYPES);
export const adminActionValidator = literals(ADMIN_ACTIONS);
export const insightMetricValidator = literals(INSIGHT_METRICS);

/** Every row carries these; the write helpers in `convex/model/` maintain them. */
const timestamps = {
  createdAt: v.number(),
  updatedAt: v.number(),
};

/** A product as sold in a shop or shown in a stream; `price` is a money string such as "24.00". */
export const productValidator = v.object({
  id: v.string(),
  name: v.string(),
  price: v.string(),
  imageUrl: v.optional(v.string()),
  description: v.optional(v.string()),
});
export type Product = Infer<typeof productValidator>;

export const faqEntryValidator = v.object({ question: v.string(), answer: v.string() });
export type FaqEntry = Infer<typeof faqEntryValidator>;

/** A display-only reference to a card: never a full number. */
export const paymentMethodValidator = v.object({
  id: v.string(),
  brand: v.string(),
  last4: v.string(),
  expMonth: v.number(),
  expYear: v.number(),
});
export type PaymentMethod = Infer<typeof paymentMethodValidator>;

export const notificationKindValidator = literals(NOTIFICATION_KINDS);
export const notificationChannelValidator = literals(NOTIFICATION_CHANNELS);

/** One kind's switches, one per channel. */
export const channelSwitchesValidator = v.object({
  inApp: v.boolean(),
  email: v.boolean(),
  push: v.boolean(),
});
export type ChannelSwitches = Infer<typeof channelSwitchesValidator>;

/** An e-mail as sent (or caught by the local inbox): the fields Resend is given. */
export const emailFields = {
  from: v.string(),
  to: v.string(),
  subject: v.string(),
  html: v.string(),
  text: v.string(),
  headers: v.array(v.object({ name: v.string(), value: v.string() })),
};

export const notificationPreferencesValidator = v.object({
  /** Which go-lives: the topics, whatever the channel. */
  goLiveSavedStreams: v.boolean(),
  goLiveFollowedShops: v.boolean(),
  /** The weekly digest's e-mail switch before channels existed; `channels.weeklyDigest` wins once set. */
  emailDigest: v.boolean(),
  /** Per kind, per channel (decision 036); a kind absent here has the defaults of model/notifications.ts. */
  channels: v.optional(v.record(v.string(), channelSwitchesValidator)),
  /** The app's origin where the person last chose, for the links in e-mails when APP_ORIGINS is unset. */
  appOrigin: v.optional(v.string()),
  /** Metro areas (CBSA codes, at most DIGEST_AREAS_MAX) whose upcoming shows the weekly digest lists. */
  digestAreas: v.optional(v.array(v.string())),
});
export type NotificationPreferences = Infer<typeof notificationPreferencesValidator>;

export const goLiveAlertReasonValidator = literals(GO_LIVE_ALERT_REASONS);

export const termsAcceptanceValidator = v.object({ version: v.string(), acceptedAt: v.number() });
export type TermsAcceptance = Infer<typeof termsAcceptanceValidator>;

export const privacyPreferencesValidator = v.object({
  /** Count this user's visits in aggregate analytics. */
  analytics: v.boolean(),
  /** Use saved shows and follows to order recommendations. */
  personalization: v.boolean(),
  /** Show this user's public profile (name, avatar) on shops they own. */
  showProfile: v.boolean(),
});
export type PrivacyPreferences = Infer<typeof privacyPreferencesValidator>;

/**
 * One change an admin made for a correction request: what (a field, of the person or of one of their
 * shops or shows), when, and the value before and after (cut to `CORRECTION_VALUE_LENGTH`; absent when
 * empty).
 */
export const correctionValidator = v.object({
  at: v.number(),
  what: v.string(),
  from: v.optional(v.string()),
  to: v.optional(v.string()),
  /** A picture's change: its values are addresses, shown as the picture rather than as text. */
  kind: v.optional(v.literal("picture")),
});
export type Correction = Infer<typeof correctionValidator>;

/** Free-form JSON kept as flat key/value pairs so every value stays exportable and typed. */
const jsonRecord = v.record(v.string(), v.union(v.string(), v.number(), v.boolean(), v.null()));

/** What a stream card shows (the live-now board, the dashboard, explore); `toStreamCard` makes one. */
export const streamCardValidator = v.object({
  _id: v.id("streams"),
  streamTitle: v.string(),
  streamStatus: streamStatusValidator,
  liveShopName: v.string(),
  liveShopSlug: v.string(),
  imageUrl: v.optional(v.string()),
  streamStartUTC: v.optional(v.number()),
  streamStopUTC: v.optional(v.number()),
  /** When it really went live and ended (decision 058); `shownStreamTimes` decides what a card shows. */
  streamStartedUTC: v.optional(v.number()),
  streamEndedUTC: v.optional(v.number()),
  timezone: timeZoneValidator,
  locationLabel: v.optional(v.string()),
});
export type StreamCard = Infer<typeof streamCardValidator>;

/** A show as the live map names it under its area (decision 086): enough for a line, not a card. */
export const mapShowValidator = v.object({
  _id: v.id("streams"),
  streamTitle: v.string(),
  streamStatus: streamStatusValidator,
  liveShopName: v.string(),
  streamStartUTC: v.optional(v.number()),
  streamStartedUTC: v.optional(v.number()),
  timezone: timeZoneValidator,
});
export type MapShow = Infer<typeof mapShowValidator>;

/**
 * What a shop card shows on explore: `categories` are top-level category ids (primary first), `areas`
 * CBSA codes; `liveStatus`, added when a page is read, is set while one of its streams is live (or
 * only paused).
 */
export const shopCardValidator = v.object({
  _id: v.id("liveShops"),
  liveShopName: v.string(),
  slug: v.string(),
  headline: v.optional(v.string()),
  logoUrl: v.optional(v.string()),
  bannerImageUrl: v.optional(v.string()),
  status: shopStatusValidator,
  categories: v.array(v.string()),
  areas: v.array(v.string()),
  liveStatus: v.optional(v.union(v.literal("LIVE"), v.literal("PAUSED"))),
});
export type ShopCard = Infer<typeof shopCardValidator>;

/** A stream's or shop's tags in the explore filter's terms (`ExploreFacets` of lib/explore.ts). */
export const exploreFacetsValidator = v.object({
  categories: v.array(v.string()),
  subcategories: v.array(v.string()),
  msas: v.array(v.string()),
  states: v.array(v.string()),
});

/**
 * What explore's search reads (decision 030), on a listing table's (*, *) row, the one row per item:
 * `searchText` is the search index's field (normalized words and typo variants, lib/searchText.ts),
 * "" on the item's other rows; `searchWords` its words by tier, for checking and ranking a match.
 * Optional only for rows written before search moved here (`explore:rebuildListings` fills them).
 */
const searchFields = {
  searchText: v.optional(v.string()),
  searchWords: v.optional(v.array(v.string())),
};

/** The live shop's own fields, shared with the validators of what public pages return. */
export const liveShopFields = {
  userId: v.id("users"),
  status: shopStatusValidator,
  /** Why an admin rejected or suspended the shop; shown to the owner. */
  statusReason: v.optional(v.string()),
  liveShopName: v.string(),
  taxId: v.optional(v.string()),
  headline: v.optional(v.string()),
  description: v.optional(v.string()),
  faqSection: v.array(faqEntryValidator),
  timezone: timeZoneValidator,
  languages: v.array(languageValidator),
  productsSummary: v.optional(v.string()),
  products: v.array(productValidator),
  bannerImageUrl: v.optional(v.string()),
  logoUrl: v.optional(v.string()),
  themeColor: v.optional(v.string()),
  accentThemeColor: v.optional(v.string()),
  coverImageUrl: v.optional(v.string()),
  shopTrailerUrl: v.optional(v.string()),
  slug: v.string(),
  schemaType: schemaTypeValidator,
  /**
   * Set while the owner's processing is restricted (GDPR article 18, `users.restrictedAt`): the shop
   * and its streams leave every public surface, as if the shop were not public; the owner still
   * manages it. Kept in step with the owner by convex/model/restriction.ts.
   */
  ownerRestricted: v.optional(v.boolean()),
  /**
   * Set while the owner's role is viewer (an admin made them one; decision 025): the shop and its
   * streams leave every public surface as with `ownerRestricted`, and only an admin can change them
   * until the owner is a seller again. Kept in step with the owner by convex/model/restriction.ts.
   */
  ownerIsViewer: v.optional(v.boolean()),
  ...timestamps,
};

/** The stream's own fields, shared with the validator of what its public page returns. */
export const streamFields = {
  /** The owning shop; `liveShopStreams` mirrors it for the specification's link table. */
  liveShopId: v.id("liveShops"),
  streamTitle: v.string(),
  streamDescription: v.optional(v.string()),
  streamImageUrls: v.array(v.string()),
  streamVideoUrl: v.optional(v.string()),
  replayVideoUrl: v.optional(v.string()),
  streamTrailerUrl: v.optional(v.string()),
  /** The plan: when the seller means to start and stop. */
  streamStartUTC: v.optional(v.number()),
  streamStopUTC: v.optional(v.number()),
  /**
   * What happened (decision 058): when it first went live, and when it ended (or, paused, was
   * cancelled). Absent until then, and on rows from before they were recorded. Shown through
   * `shownStreamTimes` (lib/shownTimes.ts), with the plan for what has not happened yet.
   */
  streamStartedUTC: v.optional(v.number()),
  streamEndedUTC: v.optional(v.number()),
  timezone: timeZoneValidator,
  liveShopName: v.string(),
  liveShopSlug: v.string(),
  products: v.array(productValidator),
  streamStatus: streamStatusValidator,
  /** Why an admin ended or cancelled someone else's stream; shown to its owner, never to the public. */
  statusReason: v.optional(v.string()),
  /** Neighbourhood or venue, as the sample data's `loc_tag_specific`. */
  locationLabel: v.optional(v.string()),
  ...timestamps,
};

export default defineSchema({
  users: defineTable({
    clerkId: v.string(),
    email: v.string(),
    name: v.optional(v.string()),
    role: roleValidator,
    avatar: v.optional(v.string()),
    analytics: v.optional(jsonRecord),
    paymentMethods: v.array(paymentMethodValidator),
    defaultPaymentMethodId: v.optional(v.string()),
    notificationPreferences: notificationPreferencesValidator,
    termsAcceptance: termsAcceptanceValidator,
    privacyPreferences: privacyPreferencesValidator,
    gdprRequestStatus: privacyRequestStatusValidator,
    gdprRequestType: privacyRequestTypeValidator,
    gdprRequestCreatedAt: v.optional(v.number()),
    gdprRequestCompletedAt: v.optional(v.number()),
    gdprRequestReason: v.optional(v.string()),
    gdprRequestMetadata: v.optional(jsonRecord),
    dataRetentionEndDate: v.optional(v.number()),
    dataRetentionPolicy: v.optional(v.string()),
    lastDataExportAt: v.optional(v.number()),
    /** Since when an admin restricted this user's processing (GDPR article 18); absent when not. */
    restrictedAt: v.optional(v.number()),
    /** `updated_at` of the last Clerk webhook event applied; older events are ignored (decision 009). */
    clerkUpdatedAt: v.optional(v.number()),
    /**
     * The name and email the sign-in (token or Clerk webhook) last gave. `name` and `email` follow the
     * sign-in only when it says something new, so an admin's correction (a privacy request, decision
     * 027) is not undone by the person's next sign-in. Absent on rows older than it: then the stored
     * values stand in.
     */
    signInClaims: v.optional(v.object({ name: v.optional(v.string()), email: v.optional(v.string()) })),
    /**
     * The person's IANA time zone as their browser last said at sign-in (canonical name, any zone):
     * when "Monday morning" is for the weekly digest. Absent until then: New York's is used.
     */
    timeZone: v.optional(v.string()),
    ...timestamps,
  })
    .index("by_clerkId", ["clerkId"])
    .index("by_email", ["email"])
    .index("by_role_and_email", ["role", "email"])
    .index("by_gdprRequestStatus_and_gdprRequestCreatedAt", ["gdprRequestStatus", "gdprRequestCreatedAt"])
    .index("by_dataRetentionEndDate", ["dataRetentionEndDate"])
    .index("by_restrictedAt", ["restrictedAt"])
    /** The weekly digest: the zones people live in, and the people of one zone. */
    .index("by_timeZone", ["timeZone"]),

  liveShops: defineTable(liveShopFields)
    .index("by_userId", ["userId"])
    .index("by_slug", ["slug"])
    /** The verification queue (waiting longest first), shops by status, recently updated active shops. */
    .index("by_status_and_updatedAt", ["status", "updatedAt"])
    /** The admin console's shop search by name, any status (decision 029); explore searches shopListings. */
    .searchIndex("search_liveShopName", { searchField: "liveShopName", filterFields: ["status"] }),

  streams: defineTable(streamFields)
    // By creation time: explore's rebuild walks a shop's streams resumably after the last one seen.
    // eslint-disable-next-line @convex-dev/no-duplicate-indexes
    .index("by_liveShopId", ["liveShopId"])
    /** A shop's next show by start time (the watch list's followed shops). */
    .index("by_liveShopId_and_streamStatus_and_streamStartUTC", [
      "liveShopId",
      "streamStatus",
      "streamStartUTC",
    ])
    .index("by_streamStatus_and_streamStartUTC", ["streamStatus", "streamStartUTC"])
    .index("by_streamStatus_and_streamStopUTC", ["streamStatus", "streamStopUTC"]),

  liveShopStreams: defineTable({
    liveShopId: v.id("liveShops"),
    streamId: v.id("streams"),
    streamStatus: streamStatusValidator,
    ...timestamps,
  })
    .index("by_liveShopId_and_streamId", ["liveShopId", "streamId"])
    .index("by_streamId", ["streamId"])
    .index("by_liveShopId_and_streamStatus", ["liveShopId", "streamStatus"]),

  streamPlatforms: defineTable({
    streamId: v.id("streams"),
    platformType: platformTypeValidator,
    platformStreamUrl: v.optional(v.string()),
    platformActionUrl: v.optional(v.string()),
    ...timestamps,
  }).index("by_streamId_and_platformType", ["streamId", "platformType"]),

  /** Reference data: 11 top-level categories with 4 subcategories each. */
  categories: defineTable({
    /** The category's own id from the reference data, such as `fashion_apparel` or `clothing`. */
    categoryId: v.string(),
    icon: v.optional(v.string()),
    label: v.string(),
    description: v.optional(v.string()),
    /** The parent's `categoryId`; absent on top-level categories. */
    parentCategoryId: v.optional(v.string()),
    ...timestamps,
  })
    .index("by_categoryId", ["categoryId"])
    .index("by_parentCategoryId", ["parentCategoryId"]),

  liveShopCategories: defineTable({
    liveShopId: v.id("liveShops"),
    categoryId: v.string(),
    subcategoryId: v.optional(v.string()),
    priority: v.number(),
    ...timestamps,
  })
    .index("by_liveShopId_and_categoryId", ["liveShopId", "categoryId"])
    .index("by_categoryId", ["categoryId"])
    .index("by_subcategoryId", ["subcategoryId"]),

  streamCategories: defineTable({
    streamId: v.id("streams"),
    categoryId: v.string(),
    subcategoryId: v.optional(v.string()),
    priority: v.number(),
    ...timestamps,
  })
    .index("by_streamId_and_categoryId", ["streamId", "categoryId"])
    .index("by_categoryId", ["categoryId"])
    .index("by_subcategoryId", ["subcategoryId"]),

  /** Reference data: the 393 US metropolitan statistical areas. */
  msas: defineTable({
    cbsaCode: v.string(),
    msaLabel: v.string(),
    /** State postal codes from the title, principal state first. */
    states: v.array(v.string()),
    coordinatesLat: v.number(),
    coordinatesLng: v.number(),
    ...timestamps,
  })
    .index("by_cbsaCode", ["cbsaCode"])
    .index("by_msaLabel", ["msaLabel"]),

  liveShopMsas: defineTable({
    liveShopId: v.id("liveShops"),
    msaId: v.id("msas"),
    ...timestamps,
  })
    .index("by_liveShopId_and_msaId", ["liveShopId", "msaId"])
    .index("by_msaId", ["msaId"]),

  streamMsas: defineTable({
    streamId: v.id("streams"),
    msaId: v.id("msas"),
    ...timestamps,
  })
    .index("by_streamId_and_msaId", ["streamId", "msaId"])
    .index("by_msaId", ["msaId"]),

  /** A stream a user saved to their watch list. */
  savedStreams: defineTable({
    userId: v.id("users"),
    streamId: v.id("streams"),
    ...timestamps,
  })
    .index("by_userId_and_streamId", ["userId", "streamId"])
    .index("by_streamId", ["streamId"]),

  /** A shop a user follows. */
  shopFollows: defineTable({
    userId: v.id("users"),
    liveShopId: v.id("liveShops"),
    ...timestamps,
  })
    .index("by_userId_and_liveShopId", ["userId", "liveShopId"])
    .index("by_liveShopId", ["liveShopId"]),

  /**
   * "A show you saved / a shop you follow is live": one row per person and stream going live, written
   * by the fan-out of convex/goLiveAlerts.ts. `announcedAt` is set by the one tab that claims it (so no
   * second tab or device announces it again); rows are pruned after GO_LIVE_ALERT_TTL_MS.
   */
  goLiveAlerts: defineTable({
    userId: v.id("users"),
    streamId: v.id("streams"),
    liveShopId: v.id("liveShops"),
    reason: goLiveAlertReasonValidator,
    /** When a tab claimed it; absent while waiting. */
    claimedAt: v.optional(v.number()),
    /** Whether the claiming tab showed it (false: claimed too late, or the show was over). */
    announced: v.optional(v.boolean()),
    ...timestamps,
  })
    .index("by_userId_and_claimedAt", ["userId", "claimedAt"])
    .index("by_userId_and_streamId", ["userId", "streamId"])
    .index("by_streamId", ["streamId"])
    .index("by_createdAt", ["createdAt"]),

  /**
   * Every notice sent (or held back) per person, event and channel (decision 036): the idempotency
   * record (`eventKey` + `channel` is sent once), the in-app list, and what a push or e-mail carried.
   * Pruned after NOTIFICATION_TTL_MS.
   */
  notifications: defineTable({
    userId: v.id("users"),
    kind: notificationKindValidator,
    /** The event, such as `goLive:<streamId>`: one notice per person, event and channel. */
    eventKey: v.string(),
    channel: notificationChannelValidator,
    /** `limited`: over the person's hourly allowance, so not sent (and never retried). */
    status: v.union(v.literal("sent"), v.literal("limited")),
    title: v.string(),
    body: v.string(),
    /** Path in the app the notice links to (`/stream/<id>`). */
    path: v.string(),
    ...timestamps,
  })
    .index("by_userId_and_eventKey_and_channel", ["userId", "eventKey", "channel"])
    .index("by_userId_and_channel_and_createdAt", ["userId", "channel", "createdAt"])
    .index("by_createdAt", ["createdAt"]),

  /**
   * A browser's Web Push subscription (one per device and person): the push service's endpoint and the
   * keys its payloads are encrypted for. Removed by the person, or when the push service answers 404/410.
   */
  pushSubscriptions: defineTable({
    userId: v.id("users"),
    endpoint: v.string(),
    p256dh: v.string(),
    auth: v.string(),
    /** What the person sees in the device list ("Chrome on Linux"). */
    label: v.string(),
    lastSuccessAt: v.optional(v.number()),
    ...timestamps,
  })
    .index("by_userId", ["userId"])
    .index("by_endpoint", ["endpoint"]),

  /**
   * E-mails caught on the local backend (no RESEND_API_KEY): shown at /dev/inbox, never sent. Empty on a
   * deployment that sends through Resend.
   */
  localInbox: defineTable({
    userId: v.id("users"),
    notificationId: v.id("notifications"),
    ...emailFields,
    ...timestamps,
  })
    .index("by_createdAt", ["createdAt"])
    .index("by_userId_and_createdAt", ["userId", "createdAt"]),

  /**
   * A person's private iCalendar feed of their saved upcoming shows (`GET /calendar/<token>.ics`,
   * convex/http.ts). The token is the only credential: 32 random bytes, base64url; turning the feed
   * off deletes the row, turning it on again makes a new token (decision 021).
   */
  calendarFeeds: defineTable({
    userId: v.id("users"),
    token: v.string(),
    /** The app's origin, for the events' links back to the show's page. */
    appOrigin: v.string(),
    ...timestamps,
  })
    .index("by_token", ["token"])
    .index("by_userId", ["userId"]),

  /**
   * Every privacy request and its decision. Outlives the user: on deletion `userId` is cleared and
   * the row keeps no personal data.
   */
  privacyRequests: defineTable({
    userId: v.optional(v.id("users")),
    type: privacyRequestTypeValidator,
    status: privacyRequestStatusValidator,
    reason: v.optional(v.string()),
    /** For a correction: what the user asks to have corrected. */
    details: v.optional(v.string()),
    requestedAt: v.number(),
    /** One month after the request (GDPR article 12(3)). */
    dueAt: v.number(),
    decidedAt: v.optional(v.number()),
    decidedBy: v.optional(v.id("users")),
    decisionReason: v.optional(v.string()),
    /**
     * For a correction: what an admin changed while it was open (model/corrections.ts), shown to the
     * person. Cleared with the rest of their words when the account is deleted.
     */
    corrections: v.optional(v.array(correctionValidator)),
    ...timestamps,
  })
    .index("by_userId_and_requestedAt", ["userId", "requestedAt"])
    .index("by_status_and_requestedAt", ["status", "requestedAt"])
    .index("by_decidedAt", ["decidedAt"])
    .index("by_decidedBy", ["decidedBy"]),

  /**
   * An approved access request's JSON export in file storage: downloadable by its user alone, through
   * the authenticated HTTP action, until `expiresAt`; then a scheduled job deletes file and row.
   */
  dataExports: defineTable({
    userId: v.id("users"),
    requestId: v.id("privacyRequests"),
    storageId: v.id("_storage"),
    byteLength: v.number(),
    expiresAt: v.number(),
    ...timestamps,
  })
    .index("by_userId", ["userId"])
    .index("by_expiresAt", ["expiresAt"]),

  /**
   * A picture uploaded to file storage (decision 028): whose it is, its address as the image fields store
   * it, and the fields that use it (`"liveShops:<id>:logoUrl"`, `"streams:<id>:streamImageUrls"`,
   * `"users:<id>:avatar"`). The file is deleted when no field uses it any more, when it was never used
   * a day after its upload, and with its owner's account.
   */
  imageUploads: defineTable({
    storageId: v.id("_storage"),
    userId: v.id("users"),
    url: v.string(),
    usedIn: v.array(v.string()),
    ...timestamps,
  })
    .index("by_storageId", ["storageId"])
    .index("by_url", ["url"])
    .index("by_userId", ["userId"]),

  /**
   * A file posted to `POST /images/upload` (convex/http.ts, decision 054) and not claimed yet: who
   * uploaded it, and the picture type its bytes showed. Only that person may claim it
   * (`images:claimUpload`), which moves it to `imageUploads`; unclaimed an hour after its upload, it is
   * deleted with its file.
   */
  unclaimedUploads: defineTable({
    storageId: v.id("_storage"),
    uploaderId: v.id("users"),
    contentType: v.string(),
    ...timestamps,
  })
    .index("by_storageId", ["storageId"])
    .index("by_uploaderId", ["uploaderId"]),

  /**
   * Every admin action (who, when, what, why), shown in the admin console. `adminName` keeps the entry
   * readable after the admin's account is gone; `targetId` is the id of the row acted on, as a string.
   */
  adminActions: defineTable({
    adminId: v.optional(v.id("users")),
    adminName: v.string(),
    action: adminActionValidator,
    targetTable: v.string(),
    targetId: v.string(),
    /** What a person reads for the target: a shop's name, a stream's title, a request's type. */
    targetLabel: v.string(),
    reason: v.optional(v.string()),
    ...timestamps,
  })
    .index("by_adminId", ["adminId"])
    .index("by_targetId", ["targetId"]),

  /**
   * A deleted account's sign-in id (Clerk's user id, or the development sign-in's subject). Kept so a late
   * webhook or a still-valid token cannot bring the account back (decision 009): a person who signs up
   * again at Clerk gets a new id; one whose sign-in identity still exists starts a new account only by
   * choosing to (`restartable`, decision 027).
   */
  deletedClerkUsers: defineTable({
    /** `tombstoneKey` of the sign-in id (its SHA-256); the id itself on tombstones older than decision 027. */
    clerkId: v.string(),
    deletedAt: v.number(),
    /**
     * The sign-in identity outlives the account (deleted here, not at Clerk): its owner may choose to
     * start a new, empty account with it (`users.startNewAccount`). Absent when Clerk deleted the user.
     */
    restartable: v.optional(v.boolean()),
    ...timestamps,
  }).index("by_clerkId", ["clerkId"]),

  /** Clerk webhook deliveries already applied, by `svix-id`; pruned after a week (decision 009). */
  webhookDeliveries: defineTable({
    svixId: v.string(),
    eventType: v.string(),
    ...timestamps,
  }).index("by_svixId", ["svixId"]),

  /**
   * Seller insights (decision 089): how many of one thing happened to a shop or one of its shows in one
   * UTC hour. No viewer's id, address or token. While the hour runs the count is the sharded counter
   * named by the row's id; the hourly sweep writes it into `count` and sets `settled`. Kept
   * INSIGHTS_RETENTION_DAYS.
   */
  insightHours: defineTable({
    liveShopId: v.id("liveShops"),
    /** Absent for the shop page's views and the shop's follows. */
    streamId: v.optional(v.id("streams")),
    metric: insightMetricValidator,
    /** The platform of a click-through. */
    platform: v.optional(platformTypeValidator),
    hourStart: v.number(),
    count: v.number(),
    settled: v.boolean(),
  })
    .index("by_liveShopId_and_hourStart", ["liveShopId", "hourStart"])
    .index("by_streamId_and_hourStart", ["streamId", "hourStart"])
    .index("by_liveShopId_and_streamId_and_metric_and_platform_and_hourStart", [
      "liveShopId",
      "streamId",
      "metric",
      "platform",
      "hourStart",
    ])
    .index("by_settled_and_hourStart", ["settled", "hourStart"]),

  /** The secret of one UTC hour that visitor keys are made with; deleted when the hour is over. */
  insightSecrets: defineTable({ hourStart: v.number(), secret: v.string() }).index("by_hourStart", [
    "hourStart",
  ]),

  /**
   * "This visitor was counted for this thing this hour": an HMAC of the visitor's anonymous token, the
   * thing and the hour under the hour's secret, so it links to nothing once the secret is gone (the
   * sweep deletes both after the hour).
   */
  insightVisitors: defineTable({ key: v.string(), hourStart: v.number() })
    .index("by_key", ["key"])
    .index("by_hourStart", ["hourStart"]),

  /**
   * Explore's stream list, derived (decision 012): one row per publicly listed stream and (category
   * key, place key) pair of lib/exploreListing.ts, with the sort fields; the card is the stream's own,
   * read with the page (decision 046). Kept in step with streams, their links and their shop by the
   * triggers of model/triggers.ts; never written elsewhere.
   */
  streamListings: defineTable({
    streamId: v.id("streams"),
    liveShopId: v.id("liveShops"),
    categoryKey: v.string(),
    placeKey: v.string(),
    /** 0 live, 1 paused, 2 upcoming, 3 ended (`streamListingOrder`). */
    rank: v.number(),
    /** Ascending within a rank: start time, or the negated stop time of an ended show. */
    sortKey: v.number(),
    /**
     * Ascending within a rank for the "newest" sort: upcoming shows newest listed first (the negated
     * creation time), the others as `sortKey`. Optional only for rows written before it existed.
     */
    newestKey: v.optional(v.number()),
    /**
     * What search filters by: `rank`, with paused shows sharing the live rank (`searchRankOf`). Optional
     * only for rows written before it existed (`explore:rebuildListings` fills them).
     */
    searchRank: v.optional(v.number()),
    facets: exploreFacetsValidator,
    /**
     * No longer written: a page reads the card from the stream (decision 046). Rows written before keep
     * it until `explore:rebuildListings` rewrites them.
     */
    card: v.optional(streamCardValidator),
    ...searchFields,
    ...timestamps,
  })
    .index("by_categoryKey_and_placeKey_and_rank_and_sortKey_and_streamId", [
      "categoryKey",
      "placeKey",
      "rank",
      "sortKey",
      "streamId",
    ])
    .index("by_categoryKey_and_placeKey_and_rank_and_newestKey_and_streamId", [
      "categoryKey",
      "placeKey",
      "rank",
      "newestKey",
      "streamId",
    ])
    .index("by_streamId_and_categoryKey_and_placeKey", ["streamId", "categoryKey", "placeKey"])
    .searchIndex("search_searchText", { searchField: "searchText", filterFields: ["searchRank"] }),

  /**
   * The live map's summary (decision 086), derived from `streamListings` by model/mapAreas.ts: one row
   * per metro area with public shows on now or upcoming, with their counts.
   */
  mapAreas: defineTable({
    cbsaCode: v.string(),
    /** Live and paused shows (decision 059). */
    onNow: v.number(),
    /** Scheduled shows, whatever their start. */
    upcoming: v.number(),
    ...timestamps,
  }).index("by_cbsaCode", ["cbsaCode"]),

  /**
   * An area's upcoming shows by start, one row per UTC day that has any (`day`: days since 1970):
   * `quarters` holds 96 counts, one per quarter hour, so any zone's days are summed exactly.
   */
  mapAreaDays: defineTable({
    cbsaCode: v.string(),
    day: v.number(),
    quarters: v.array(v.number()),
    ...timestamps,
  }).index("by_day_and_cbsaCode", ["day", "cbsaCode"]),

  /** Explore's shop list, derived like `streamListings`: public (active or maintenance) shops only. */
  shopListings: defineTable({
    liveShopId: v.id("liveShops"),
    categoryKey: v.string(),
    placeKey: v.string(),
    /** The shop's name in lower case (`shopSortKey`). */
    sortKey: v.string(),
    facets: exploreFacetsValidator,
    card: shopCardValidator,
    ...searchFields,
    ...timestamps,
  })
    .index("by_categoryKey_and_placeKey_and_sortKey_and_liveShopId", [
      "categoryKey",
      "placeKey",
      "sortKey",
      "liveShopId",
    ])
    .index("by_liveShopId_and_categoryKey_and_placeKey", ["liveShopId", "categoryKey", "placeKey"])
    .searchIndex("search_searchText", { searchField: "searchText" }),
});
