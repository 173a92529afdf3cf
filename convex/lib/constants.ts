/**
 * Business constants (docs/product.md#constants).
 * Pure data: imported by Convex functions and by the browser alike.
 */

export const TIME_ZONES = [
  "America/New_York",
  "America/Chicago",
  "America/Denver",
  "America/Los_Angeles",
] as const;
export type TimeZone = (typeof TIME_ZONES)[number];
export const DEFAULT_TIME_ZONE: TimeZone = "America/New_York";

export const TIME_ZONE_LABELS: Record<TimeZone, string> = {
  "America/New_York": "Eastern (New York)",
  "America/Chicago": "Central (Chicago)",
  "America/Denver": "Mountain (Denver)",
  "America/Los_Angeles": "Pacific (Los Angeles)",
};

export const LANGUAGES = [
  "ar",
  "bn",
  "de",
  "en",
  "es",
  "fr",
  "hi",
  "id",
  "it",
  "ja",
  "ko",
  "ms",
  "nl",
  "pt",
  "ru",
  "th",
  "tr",
  "uk",
  "vi",
  "zh",
] as const;
export type Language = (typeof LANGUAGES)[number];

export const LANGUAGE_LABELS: Record<Language, string> = {
  ar: "Arabic",
  bn: "Bengali",
  de: "German",
  en: "English",
  es: "Spanish",
  fr: "French",
  hi: "Hindi",
  id: "Indonesian",
  it: "Italian",
  ja: "Japanese",
  ko: "Korean",
  ms: "Malay",
  nl: "Dutch",
  pt: "Portuguese",
  ru: "Russian",
  th: "Thai",
  tr: "Turkish",
  uk: "Ukrainian",
  vi: "Vietnamese",
  zh: "Chinese",
};

export const PLATFORM_TYPES = [
  "shopify",
  "whatnot",
  "etsy",
  "woocommerce",
  "amazon",
  "tiktok",
  "facebook",
  "instagram",
  "ntwrk",
  "popshop",
  "grip",
  "bambuser",
  "golive",
  "livescale",
  "shopshops",
  "talkshoplive",
  "channelize",
  "smartzer",
  "conferwith",
  "streamslive",
  "whisbi",
  "other",
] as const;
export type PlatformType = (typeof PLATFORM_TYPES)[number];

export type PlatformInfo = {
  /** Display name as the platform writes it. */
  label: string;
  /** Iconify id; bundled offline by the Icon component. */
  icon: string;
  /**
   * Hosts a stream URL on this platform may use (the host itself or any subdomain).
   * Empty for platforms that run on the seller's own domain (Shopify, WooCommerce, widgets).
   */
  hosts: readonly string[];
};

export const PLATFORMS: Record<PlatformType, PlatformInfo> = {
  shopify: { label: "Shopify", icon: "simple-icons:shopify", hosts: [] },
  whatnot: { label: "Whatnot", icon: "lucide:radio", hosts: ["whatnot.com"] },
  etsy: { label: "Etsy", icon: "simple-icons:etsy", hosts: ["etsy.com"] },
  woocommerce: { label: "WooCommerce", icon: "simple-icons:woocommerce", hosts: [] },
  amazon: { label: "Amazon Live", icon: "simple-icons:amazon", hosts: ["amazon.com"] },
  tiktok: { label: "TikTok Shop", icon: "simple-icons:tiktok", hosts: ["tiktok.com"] },
  facebook: { label: "Facebook Live", icon: "simple-icons:facebook", hosts: ["facebook.com", "fb.watch"] },
  instagram: { label: "Instagram Live", icon: "simple-icons:instagram", hosts: ["instagram.com"] },
  ntwrk: { label: "NTWRK", icon: "lucide:tv", hosts: ["thentwrk.com"] },
  popshop: { label: "Popshop Live", icon: "lucide:shopping-bag", hosts: ["popshoplive.com"] },
  grip: { label: "Grip", icon: "lucide:hand", hosts: ["grip.show", "grip.events"] },
  bambuser: { label: "Bambuser", icon: "lucide:video", hosts: ["bambuser.com"] },
  golive: { label: "GoLive", icon: "lucide:cast", hosts: [] },
  livescale: { label: "Livescale", icon: "lucide:clapperboard", hosts: ["livescale.tv"] },
  shopshops: { label: "ShopShops", icon: "lucide:store", hosts: ["shopshops.com"] },
  talkshoplive: { label: "TalkShopLive", icon: "lucide:mic", hosts: ["talkshop.live"] },
  channelize: { label: "Channelize.io", icon: "lucide:tv-minimal-play", hosts: [] },
  smartzer: { label: "Smartzer", icon: "lucide:mouse-pointer-click", hosts: [] },
  conferwith: { label: "Conferwith", icon: "lucide:users", hosts: [] },
  streamslive: { label: "StreamsLive", icon: "lucide:podcast", hosts: [] },
  whisbi: { label: "Whisbi", icon: "lucide:messages-square", hosts: [] },
  other: { label: "Other", icon: "lucide:link", hosts: [] },
};

export const ROLES = ["viewer", "seller", "admin"] as const;
export type Role = (typeof ROLES)[number];
export const DEFAULT_ROLE: Role = "viewer";

export const STREAM_STATUSES = ["CREATED", "SCHEDULED", "LIVE", "PAUSED", "ENDED", "CANCELLED"] as const;
export type StreamStatus = (typeof STREAM_STATUSES)[number];
export const DEFAULT_STREAM_STATUS: StreamStatus = "CREATED";

export const SHOP_STATUSES = [
  "draft",
  "pending_verification",
  "active",
  "maintenance",
  "suspended",
  "inactive",
] as const;
export type ShopStatus = (typeof SHOP_STATUSES)[number];
export const DEFAULT_SHOP_STATUS: ShopStatus = "draft";

/**
 * `pending_review` is ours (docs/product.md#privacy-requests): correction, restriction; `cancelled` marks
 * a request its user withdrew before a decision (the user's own status goes back to `none`).
 */
export const PRIVACY_REQUEST_STATUSES = [
  "none",
  "pending_export",
  "pending_deletion",
  "pending_review",
  "completed",
  "rejected",
  "cancelled",
] as const;
export type PrivacyRequestStatus = (typeof PRIVACY_REQUEST_STATUSES)[number];

export const PRIVACY_REQUEST_TYPES = ["none", "access", "deletion", "correction", "restriction"] as const;
export type PrivacyRequestType = (typeof PRIVACY_REQUEST_TYPES)[number];

export const SCHEMA_TYPES = ["Organization", "LocalBusiness", "Store", "OnlineStore", "Person"] as const;
export type SchemaType = (typeof SCHEMA_TYPES)[number];
export const DEFAULT_SCHEMA_TYPE: SchemaType = "Organization";

export const TERMS_VERSION = "1.0";
export const PRIVACY_VERSION = "1.0";

/** At most this many metro areas can be selected in the explore filter. */
export const MAX_SELECTED_MSAS = 6;

/** A LIVE or PAUSED stream this long past its stop time is ended by a scheduled job. */
export const AUTO_END_AFTER_MS = 2 * 60 * 60 * 1000;

/** GDPR article 12(3): a privacy request is answered within one month. */
export const PRIVACY_REQUEST_DUE_MONTHS = 1;

/** An approved data export can be downloaded for this long; then a scheduled job deletes the file. */
export const DATA_EXPORT_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * A go-live alert is announced only while this fresh: a tab claiming an older one (the person was away
 * when the show went live) files it without a notice.
 */
export const GO_LIVE_ALERT_FRESH_MS = 10 * 60 * 1000;

/** Go-live alerts are kept this long (to refuse announcing one twice), then pruned by a cron. */
export const GO_LIVE_ALERT_TTL_MS = 24 * 60 * 60 * 1000;

/** Why a person is told a show went live: they saved it, or they follow its shop. */
export const GO_LIVE_ALERT_REASONS = ["saved", "followed"] as const;
export type GoLiveAlertReason = (typeof GO_LIVE_ALERT_REASONS)[number];

/** What the admin console's activity log records (convex/model/adminLog.ts). */
export const ADMIN_ACTIONS = [
  "approve_shop",
  "reject_shop",
  "suspend_shop",
  "reinstate_shop",
  "edit_shop",
  "edit_stream",
  "end_stream",
  "pause_stream",
  "cancel_stream",
  "delete_stream",
  "change_role",
  "approve_privacy_request",
  "reject_privacy_request",
  "lift_restriction",
  "correct_personal_data",
] as const;
export type AdminAction = (typeof ADMIN_ACTIONS)[number];

/**
 * What happens when a user's `dataRetentionEndDate` passes (`users.dataRetentionPolicy`; absent is
 * "none", kept until the user asks otherwise). The daily retention job (convex/retention.ts) applies
 * them: "delete_account" deletes the account and everything it owns, as an approved deletion request
 * does; "anonymize_activity" deletes the watch list, follows, go-live alerts, the calendar feed, data exports and the free text of past
 * privacy requests but keeps the account and its shops.
 */
export const DATA_RETENTION_POLICIES = ["none", "delete_account", "anonymize_activity"] as const;
export type DataRetentionPolicy = (typeof DATA_RETENTION_POLICIES)[number];
export const DEFAULT_DATA_RETENTION_POLICY: DataRetentionPolicy = "none";

/**
 * What LiveLocal tells people about outside the open tab (issue 19, decision 036). Each kind has a
 * switch per channel in settings; `goLive` covers both go-live topics, which keep their own switches.
 */
export const NOTIFICATION_KINDS = [
  "goLive",
  "reminder1h",
  "reminder10m",
  "showChanged",
  "weeklyDigest",
  "shopDecision",
  "streamModerated",
  "privacyDecision",
  "shopClosed",
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/**
 * Kinds about the person's own account, shops and requests (decision 064): never dropped by the hourly
 * allowance, which keeps sellers' activity (go-lives, reminders, changes, closures, the digest) from
 * flooding a follower and must not cost anyone a decision about themselves.
 */
export const ACCOUNT_NOTIFICATION_KINDS: readonly NotificationKind[] = [
  "shopDecision",
  "streamModerated",
  "privacyDecision",
];

/** Where a notice goes: the app itself, an e-mail, a push to each of the person's devices. */
export const NOTIFICATION_CHANNELS = ["inApp", "email", "push"] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

/** Metro areas a person may choose for the weekly digest's shows. */
export const DIGEST_AREAS_MAX = 3;

/** Devices (browsers) one person may register for push. */
export const PUSH_SUBSCRIPTIONS_PER_USER = 10;

/** In-app notices and the record of what was sent are kept this long, then pruned. */
export const NOTIFICATION_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * What seller insights count (decision 089): page views, saves, follows gained, reminders and go-live
 * notices sent, calendar adds and click-throughs to a platform link. The page fires `view`, `calendar`
 * and `click` (INSIGHT_VISITOR_METRICS); the others are counted where they happen.
 */
export const INSIGHT_METRICS = ["view", "save", "follow", "reminder", "goLive", "calendar", "click"] as const;
export type InsightMetric = (typeof INSIGHT_METRICS)[number];
export const INSIGHT_VISITOR_METRICS = ["view", "calendar", "click"] as const;
export type InsightVisitorMetric = (typeof INSIGHT_VISITOR_METRICS)[number];

/** Insight counts are kept this many days by the hour, then deleted; the dashboard shows the last 30. */
export const INSIGHTS_RETENTION_DAYS = 90;
export const INSIGHTS_SHOWN_DAYS = 30;

/** Insights: the shop's newest shows listed in the show picker (a show chosen from further back is listed too). */
export const INSIGHTS_SHOWS_LISTED = 100;
