import { describe, expect, test } from "vitest";
import type { z } from "zod";
import { TIME_ZONES } from "./constants";
import {
  LIMITS,
  TIME_RANGE,
  TIME_RANGE_MESSAGE,
  absoluteHttpUrl,
  acceptedIdentityClaims,
  categoryLinkSchema,
  categoryLinksSchema,
  categorySchema,
  cbsaCodesSchema,
  cutToLength,
  dataRetentionSchema,
  faqEntrySchema,
  fieldErrors,
  hexColorSchema,
  httpUrl,
  liveShopSchema,
  moneySchema,
  msaSchema,
  platformLinkSchema,
  platformLinksSchema,
  privacyRequestSchema,
  productSchema,
  rejectionReasonSchema,
  roleSchema,
  shopStatusSchema,
  slugSchema,
  slugify,
  statusReasonSchema,
  streamSchema,
  streamStatusSchema,
  userIdentitySchema,
  userProfileSchema,
} from "./validation";

const SCHEME_MESSAGE = "Only http:// and https:// links are allowed.";
/** A moment inside TIME_RANGE: Sat, Nov 21 2026, 7:30 PM in New York. */
const T0 = Date.UTC(2026, 10, 22, 0, 30);

const product = { id: "p1", name: "Sourdough loaf", price: "8.50" };
const shop = {
  liveShopName: "Corner Bakery",
  slug: "corner-bakery",
  faqSection: [],
  timezone: "America/Chicago",
  languages: ["en"],
  products: [product],
};
const stream = {
  streamTitle: "Friday bake sale",
  streamImageUrls: [],
  timezone: "America/New_York",
  products: [],
};
const category = { categoryId: "home_goods", label: "Home Goods" };
const msa = {
  cbsaCode: "10180",
  msaLabel: "Abilene, TX",
  states: ["TX"],
  coordinatesLat: 32.45,
  coordinatesLng: -99.72,
};
const whatnotLink = { platformType: "whatnot", platformStreamUrl: "https://www.whatnot.com/live/abc" };

function accepts(schema: z.ZodType, input: unknown): boolean {
  return schema.safeParse(input).success;
}

/** The first message a form would show, keyed by field path. */
function errorsOf(schema: z.ZodType, input: unknown): Record<string, string> {
  const result = schema.safeParse(input);
  if (result.success) throw new Error("expected the input to be refused");
  return fieldErrors(result.error);
}

function letters(length: number): string {
  return "a".repeat(length);
}

function link(length: number): string {
  const prefix = "https://example.com/";
  return prefix + "a".repeat(length - prefix.length);
}

describe("maximum lengths", () => {
  type Row = {
    field: string;
    max: number;
    schema: z.ZodType;
    input: (value: string) => unknown;
    fill: (length: number) => string;
  };
  const text = (field: string, max: number, schema: z.ZodType, input: Row["input"]): Row => {
    return { field, max, schema, input, fill: letters };
  };
  const url = (field: string, schema: z.ZodType, input: Row["input"]): Row => {
    return { field, max: LIMITS.url, schema, input, fill: link };
  };
  const colour = (length: number) => "#" + letters(length - 1);
  const emailOf = (length: number) => letters(length - "@example.com".length) + "@example.com";
  const rows: Row[] = [
    {
      ...text("user email", LIMITS.email, userIdentitySchema, (email) => ({ clerkId: "u1", email })),
      fill: emailOf,
    },
    text("user clerkId", LIMITS.clerkId, userIdentitySchema, (clerkId) => ({ clerkId, email: "a@b.co" })),
    text("user name", LIMITS.userName, userProfileSchema, (name) => ({ name })),
    { ...url("avatar", userProfileSchema, (avatar) => ({ avatar })), max: LIMITS.avatar },
    text("gdpr reason", LIMITS.gdprReason, privacyRequestSchema, (reason) => ({ type: "access", reason })),
    text("correction details", LIMITS.correctionDetails, privacyRequestSchema, (details) => {
      return { type: "correction", details };
    }),
    text("retention policy", LIMITS.retentionPolicy, dataRetentionSchema, (dataRetentionPolicy) => {
      return { dataRetentionPolicy, dataRetentionEndDate: T0 };
    }),
    text("shop name", LIMITS.shopName, liveShopSchema, (liveShopName) => ({ ...shop, liveShopName })),
    text("taxId", LIMITS.taxId, liveShopSchema, (taxId) => ({ ...shop, taxId })),
    text("headline", LIMITS.headline, liveShopSchema, (headline) => ({ ...shop, headline })),
    text("shop description", LIMITS.shopDescription, liveShopSchema, (description) => ({
      ...shop,
      description,
    })),
    text("products summary", LIMITS.productsSummary, liveShopSchema, (productsSummary) => {
      return { ...shop, productsSummary };
    }),
    url("shop banner image url", liveShopSchema, (bannerImageUrl) => ({ ...shop, bannerImageUrl })),
    url("shop logo url", liveShopSchema, (logoUrl) => ({ ...shop, logoUrl })),
    url("shop cover image url", liveShopSchema, (coverImageUrl) => ({ ...shop, coverImageUrl })),
    url("shop trailer url", liveShopSchema, (shopTrailerUrl) => ({ ...shop, shopTrailerUrl })),
    {
      ...text("theme colour", LIMITS.themeColor, liveShopSchema, (themeColor) => ({ ...shop, themeColor })),
      fill: colour,
    },
    {
      ...text("accent colour", LIMITS.themeColor, liveShopSchema, (accentThemeColor) => ({
        ...shop,
        accentThemeColor,
      })),
      fill: colour,
    },
    text("slug", LIMITS.slug, liveShopSchema, (slug) => ({ ...shop, slug })),
    text("faq question", LIMITS.faqQuestion, faqEntrySchema, (question) => ({ question, answer: "Yes." })),
    text("faq answer", LIMITS.faqAnswer, faqEntrySchema, (answer) => ({ question: "Open Sundays?", answer })),
    text("product id", LIMITS.productId, productSchema, (id) => ({ ...product, id })),
    text("product name", LIMITS.productName, productSchema, (name) => ({ ...product, name })),
    text("product description", LIMITS.productDescription, productSchema, (description) => {
      return { ...product, description };
    }),
    url("product image url", productSchema, (imageUrl) => ({ ...product, imageUrl })),
    text("stream title", LIMITS.streamTitle, streamSchema, (streamTitle) => ({ ...stream, streamTitle })),
    text("stream description", LIMITS.streamDescription, streamSchema, (streamDescription) => {
      return { ...stream, streamDescription };
    }),
    url("stream image url", streamSchema, (imageUrl) => ({ ...stream, streamImageUrls: [imageUrl] })),
    url("stream video url", streamSchema, (streamVideoUrl) => ({ ...stream, streamVideoUrl })),
    url("replay video url", streamSchema, (replayVideoUrl) => ({ ...stream, replayVideoUrl })),
    url("stream trailer url", streamSchema, (streamTrailerUrl) => ({ ...stream, streamTrailerUrl })),
    url("platform stream url", platformLinkSchema, (platformStreamUrl) => {
      return { platformType: "other", platformStreamUrl };
    }),
    url("platform action url", platformLinkSchema, (platformActionUrl) => ({
      ...whatnotLink,
      platformActionUrl,
    })),
    text("category id", LIMITS.categoryId, categorySchema, (categoryId) => ({ ...category, categoryId })),
    text("parent category id", LIMITS.categoryId, categorySchema, (parentCategoryId) => {
      return { ...category, parentCategoryId };
    }),
    text("linked category id", LIMITS.categoryId, categoryLinkSchema, (categoryId) => ({ categoryId })),
    text("category icon", LIMITS.categoryIcon, categorySchema, (icon) => ({ ...category, icon })),
    text("category label", LIMITS.categoryLabel, categorySchema, (label) => ({ ...category, label })),
    text("category description", LIMITS.categoryDescription, categorySchema, (description) => {
      return { ...category, description };
    }),
    text("msa name", LIMITS.msaName, msaSchema, (msaLabel) => ({ ...msa, msaLabel })),
    text("rejection reason", LIMITS.statusReason, rejectionReasonSchema, (reason) => reason),
    text("status reason", LIMITS.statusReason, statusReasonSchema, (reason) => reason),
  ];

  test.each(rows)("$field accepts $max characters and refuses one more", ({ max, schema, input, fill }) => {
    expect(fill(max)).toHaveLength(max);
    expect(accepts(schema, input(fill(max)))).toBe(true);
    expect(accepts(schema, input(fill(max + 1)))).toBe(false);
  });

  test("a too-long field says its limit in words", () => {
    expect(errorsOf(liveShopSchema, { ...shop, liveShopName: letters(101) })).toEqual({
      liveShopName: "Shop name must be at most 100 characters.",
    });
    expect(errorsOf(liveShopSchema, { ...shop, description: letters(5001) }).description).toBe(
      "Description must be at most 5,000 characters.",
    );
  });

  test("every stream time zone fits the time zone limit and nothing else is accepted", () => {
    for (const timezone of TIME_ZONES) expect(timezone.length).toBeLessThanOrEqual(LIMITS.streamTimezone);
    expect(accepts(streamSchema, { ...stream, timezone: "Europe/Paris" })).toBe(false);
    expect(accepts(streamSchema, { ...stream, timezone: letters(LIMITS.streamTimezone + 1) })).toBe(false);
  });
});

describe("maximum counts", () => {
  const faq = { question: "Open Sundays?", answer: "Yes." };
  const rows = [
    {
      list: "FAQ entries",
      max: LIMITS.faqEntries,
      schema: liveShopSchema,
      input: (n: number) => ({ ...shop, faqSection: Array(n).fill(faq) }),
    },
    {
      list: "shop products",
      max: LIMITS.products,
      schema: liveShopSchema,
      input: (n: number) => ({
        ...shop,
        products: Array.from({ length: n }, (_, i) => ({ ...product, id: `p${i}` })),
      }),
    },
    {
      list: "stream products",
      max: LIMITS.products,
      schema: streamSchema,
      input: (n: number) => ({
        ...stream,
        products: Array.from({ length: n }, (_, i) => ({ ...product, id: `p${i}` })),
      }),
    },
    {
      list: "stream image urls",
      max: LIMITS.streamImageUrls,
      schema: streamSchema,
      input: (n: number) => ({ ...stream, streamImageUrls: Array(n).fill("/demo/streams/cover.svg") }),
    },
    {
      list: "msa states",
      max: LIMITS.msaStates,
      schema: msaSchema,
      input: (n: number) => ({ ...msa, states: Array(n).fill("TX") }),
    },
  ];

  test.each(rows)("$list accept $max entries and refuse one more", ({ max, schema, input }) => {
    expect(accepts(schema, input(max))).toBe(true);
    expect(accepts(schema, input(max + 1))).toBe(false);
  });
});

describe("required fields", () => {
  const blanks = [undefined, "", "   "];
  const rows = [
    { field: "user role", schema: roleSchema, input: (role: unknown) => role },
    { field: "shop status", schema: shopStatusSchema, input: (status: unknown) => status },
    { field: "stream status", schema: streamStatusSchema, input: (status: unknown) => status },
    {
      field: "shop name",
      schema: liveShopSchema,
      input: (liveShopName: unknown) => ({ ...shop, liveShopName }),
    },
    { field: "shop slug", schema: liveShopSchema, input: (slug: unknown) => ({ ...shop, slug }) },
    {
      field: "stream title",
      schema: streamSchema,
      input: (streamTitle: unknown) => ({ ...stream, streamTitle }),
    },
    {
      field: "platform type",
      schema: platformLinkSchema,
      input: (platformType: unknown) => ({ ...whatnotLink, platformType }),
    },
    {
      field: "platform stream url",
      schema: platformLinkSchema,
      input: (platformStreamUrl: unknown) => ({ ...whatnotLink, platformStreamUrl }),
    },
    { field: "category label", schema: categorySchema, input: (label: unknown) => ({ ...category, label }) },
    { field: "product price", schema: productSchema, input: (price: unknown) => ({ ...product, price }) },
    { field: "rejection reason", schema: rejectionReasonSchema, input: (reason: unknown) => reason },
  ];

  test.each(rows)("$field is refused when missing or blank", ({ schema, input }) => {
    for (const blank of blanks) expect(accepts(schema, input(blank))).toBe(false);
  });

  test("a missing shop name asks for it by name", () => {
    const { liveShopName: _omitted, ...withoutName } = shop;
    expect(errorsOf(liveShopSchema, withoutName).liveShopName).toBe("Shop name is required.");
    expect(errorsOf(liveShopSchema, { ...shop, liveShopName: "  " }).liveShopName).toBe(
      "Shop name is required.",
    );
  });

  test("shop timezone refuses a blank value and defaults to America/New_York when left out", () => {
    expect(accepts(liveShopSchema, { ...shop, timezone: "" })).toBe(false);
    const { timezone: _omitted, ...withoutTimezone } = shop;
    expect(liveShopSchema.parse(withoutTimezone).timezone).toBe("America/New_York");
  });

  test("schema type defaults to Organization", () => {
    expect(liveShopSchema.parse(shop).schemaType).toBe("Organization");
  });

  test("text is trimmed and blank optional text becomes undefined", () => {
    const parsed = liveShopSchema.parse({
      ...shop,
      liveShopName: "  Corner Bakery  ",
      taxId: "   ",
      logoUrl: "",
    });
    expect(parsed.liveShopName).toBe("Corner Bakery");
    expect(parsed.taxId).toBeUndefined();
    expect(parsed.logoUrl).toBeUndefined();
  });
});

describe("hex colours", () => {
  test.each(["#1a2B3c", "#000000", "#FFFFFF"])("%s is a colour", (colour) => {
    expect(accepts(hexColorSchema, colour)).toBe(true);
  });

  test.each(["#123", "123456", "#12345g", "#1234567", "red"])("%s is refused with an example", (colour) => {
    expect(hexColorSchema.safeParse(colour).error?.issues[0]?.message).toBe("Enter a colour like #1a2b3c.");
  });
});

describe("links", () => {
  test.each([
    "http://example.com",
    "https://example.com/shop?page=2#top",
    "HTTPS://EXAMPLE.COM",
    "/demo/shops/banner.svg",
  ])("%s is accepted for images and videos", (url) => {
    expect(accepts(httpUrl, url)).toBe(true);
  });

  test.each([
    "javascript:alert(1)",
    "JAVASCRIPT:alert(1)",
    "  javascript:alert(1)",
    "data:text/html;base64,PHNjcmlwdD4=",
    "vbscript:msgbox(1)",
    "ftp://example.com/file",
    "mailto:someone@example.com",
    "//evil.com/image.png",
  ])("%s is refused as a scheme other than http(s)", (url) => {
    expect(httpUrl.safeParse(url).error?.issues[0]?.message).toBe(SCHEME_MESSAGE);
  });

  test.each([
    "demo/banner.svg",
    "example.com",
    "/\\evil.com",
    "https://",
    "https://exa mple.com",
    "https://user:pw@example.com",
    "java\tscript:alert(1)",
    "https://example.com/\u0000",
  ])("%s is refused as not a usable link", (url) => {
    expect(accepts(httpUrl, url)).toBe(false);
  });

  test("a link may be 2048 characters but not 2049", () => {
    expect(accepts(httpUrl, link(2048))).toBe(true);
    expect(accepts(httpUrl, link(2049))).toBe(false);
    expect(accepts(absoluteHttpUrl, link(2048))).toBe(true);
    expect(accepts(absoluteHttpUrl, link(2049))).toBe(false);
  });

  test("links that leave the site must be absolute", () => {
    expect(accepts(absoluteHttpUrl, "https://example.com/live")).toBe(true);
    expect(accepts(absoluteHttpUrl, "/demo/shops/banner.svg")).toBe(false);
    expect(accepts(absoluteHttpUrl, "javascript:alert(1)")).toBe(false);
  });
});

describe("slugs", () => {
  test.each(["corner-bakery", "a", "shop-42", "42"])("%s is a valid slug", (slug) => {
    expect(accepts(slugSchema, slug)).toBe(true);
  });

  test.each([
    "Corner-Bakery",
    "-bakery",
    "bakery-",
    "corner--bakery",
    "corner_bakery",
    "corner bakery",
    "café",
    "",
  ])("%s is refused as a slug", (slug) => {
    expect(accepts(slugSchema, slug)).toBe(false);
  });

  test.each([
    ["Café Olé & Co.", "cafe-ole-co"],
    ["  --Hello   World--  ", "hello-world"],
    ["Ünïcödé Şhop", "unicode-shop"],
    ["日本の店", ""],
    // Apostrophes join the word they are in, not split it (issue 16 item 9).
    ["Nina's Knits", "ninas-knits"],
    ["Nina’s Knits", "ninas-knits"],
    ["Rock 'n' Roll", "rock-n-roll"],
  ])("slugify turns %j into %j", (name, slug) => {
    expect(slugify(name)).toBe(slug);
  });

  test("slugify keeps a long name within the slug limit without a trailing hyphen", () => {
    const slug = slugify(`${"a".repeat(99)} bakery`);
    expect(slug).toBe("a".repeat(99));
    expect(accepts(slugSchema, slugify("word ".repeat(60)))).toBe(true);
  });
});

describe("prices", () => {
  test.each(["24", "24.5", "24.00", "0.99", "0", "1000000.00"])("%s is a price", (price) => {
    expect(accepts(moneySchema, price)).toBe(true);
  });

  test.each(["-1", "1.234", "$5", "1e3", "", " 5", "abc", "24.", "007", "1,000", "1000000.01"])(
    "%j is refused as a price",
    (price) => {
      expect(accepts(moneySchema, price)).toBe(false);
    },
  );

  test("a malformed price gets one message with an example", () => {
    expect(errorsOf(productSchema, { ...product, price: "$5" })).toEqual({
      price: "Enter a price like 24 or 24.99, without a currency symbol.",
    });
  });
});

describe("platform links", () => {
  test.each([
    "https://whatnot.com/live/abc",
    "https://www.whatnot.com/live/abc",
    "http://whatnot.com/live/abc",
  ])("%s is accepted for Whatnot", (platformStreamUrl) => {
    expect(accepts(platformLinkSchema, { platformType: "whatnot", platformStreamUrl })).toBe(true);
  });

  test.each([
    "https://evil-whatnot.com/live",
    "https://whatnot.com.evil.io/live",
    "https://whatnot.com@evil.io/live",
  ])("%s is refused for Whatnot", (platformStreamUrl) => {
    expect(accepts(platformLinkSchema, { platformType: "whatnot", platformStreamUrl })).toBe(false);
  });

  test("a link on the wrong host names the platform and its hosts", () => {
    expect(
      errorsOf(platformLinkSchema, { platformType: "whatnot", platformStreamUrl: "https://evil.io" }),
    ).toEqual({
      platformStreamUrl: "A Whatnot link must be on whatnot.com.",
    });
    expect(
      errorsOf(platformLinkSchema, { platformType: "etsy", platformStreamUrl: "https://evil.io" }),
    ).toEqual({
      platformStreamUrl: "An Etsy link must be on etsy.com.",
    });
    expect(
      errorsOf(platformLinkSchema, { platformType: "facebook", platformStreamUrl: "https://evil.io" }),
    ).toEqual({
      platformStreamUrl: "A Facebook Live link must be on facebook.com or fb.watch.",
    });
  });

  test("other and own-domain platforms take any https link but not plain http", () => {
    for (const platformType of ["other", "shopify"]) {
      expect(
        accepts(platformLinkSchema, { platformType, platformStreamUrl: "https://shop.example/live" }),
      ).toBe(true);
      expect(
        accepts(platformLinkSchema, { platformType, platformStreamUrl: "http://shop.example/live" }),
      ).toBe(false);
    }
  });

  test("a platform stream link must be absolute", () => {
    expect(accepts(platformLinkSchema, { platformType: "other", platformStreamUrl: "/live" })).toBe(false);
  });

  test("the action link may lead to the seller's own store", () => {
    const parsed = platformLinkSchema.parse({
      ...whatnotLink,
      platformActionUrl: "https://corner-bakery.example/buy",
    });
    expect(parsed.platformActionUrl).toBe("https://corner-bakery.example/buy");
  });

  test("an unknown platform type is refused", () => {
    expect(errorsOf(platformLinkSchema, { ...whatnotLink, platformType: "myspace" })).toEqual({
      platformType: "Choose a platform.",
    });
  });
});

describe("stream times", () => {
  test("the stop time must be after the start time", () => {
    expect(
      errorsOf(streamSchema, { ...stream, streamStartUTC: T0 + 2000, streamStopUTC: T0 + 1000 }),
    ).toEqual({
      streamStopUTC: "The stop time must be after the start time.",
    });
    expect(accepts(streamSchema, { ...stream, streamStartUTC: T0, streamStopUTC: T0 })).toBe(false);
    expect(accepts(streamSchema, { ...stream, streamStartUTC: T0, streamStopUTC: T0 + 1 })).toBe(true);
  });

  test("either time alone is accepted", () => {
    expect(accepts(streamSchema, { ...stream, streamStartUTC: T0 })).toBe(true);
    expect(accepts(streamSchema, { ...stream, streamStopUTC: T0 })).toBe(true);
  });

  test("a wrong stop time is reported together with other mistakes in the form", () => {
    const errors = errorsOf(streamSchema, {
      ...stream,
      streamTitle: "",
      streamStartUTC: T0 + 2000,
      streamStopUTC: T0 + 1000,
    });
    expect(errors).toEqual({
      streamTitle: "Title is required.",
      streamStopUTC: "The stop time must be after the start time.",
    });
  });

  test("times are whole milliseconds", () => {
    expect(accepts(streamSchema, { ...stream, streamStartUTC: T0 + 1.5 })).toBe(false);
    expect(errorsOf(streamSchema, { ...stream, streamStartUTC: Number.NaN })).toEqual({
      streamStartUTC: "Enter a valid date and time.",
    });
  });

  test.each([
    ["before 2000", TIME_RANGE.minUtc - 1],
    ["negative", -1],
    ["zero (1970)", 0],
    ["just past the range", TIME_RANGE.maxUtc + 1],
    ["past JavaScript's last date", 8.64e15 + 10],
    ["the largest safe integer", Number.MAX_SAFE_INTEGER],
    ["infinite", Number.POSITIVE_INFINITY],
  ])("a time %s is refused with the range's sentence", (_label, time) => {
    const expected = Number.isFinite(time) ? TIME_RANGE_MESSAGE : "Enter a valid date and time.";
    expect(errorsOf(streamSchema, { ...stream, streamStartUTC: time })).toEqual({ streamStartUTC: expected });
    expect(errorsOf(streamSchema, { ...stream, streamStopUTC: time })).toEqual({ streamStopUTC: expected });
    expect(accepts(dataRetentionSchema, { dataRetentionPolicy: "none", dataRetentionEndDate: time })).toBe(
      false,
    );
  });

  test("the range's ends are accepted, and it reads as the years the forms name", () => {
    expect(accepts(streamSchema, { ...stream, streamStartUTC: TIME_RANGE.minUtc })).toBe(true);
    expect(accepts(streamSchema, { ...stream, streamStopUTC: TIME_RANGE.maxUtc })).toBe(true);
    expect(TIME_RANGE_MESSAGE).toBe("Choose a date from 2000 to 2099.");
    // The last minute of 2099 on the clock of the westernmost shop zone is inside the range.
    expect(Date.UTC(2099, 11, 31, 23, 59) + 8 * 60 * 60 * 1000).toBeLessThanOrEqual(TIME_RANGE.maxUtc);
  });
});

describe("what a sign-in token or the Clerk webhook says about a person", () => {
  const claims = {
    clerkId: "user_2sarah",
    email: "Sarah@LiveLocal.test",
    name: "Sarah Kim",
    avatar: "https://img.clerk.com/sarah.png",
  };

  test("usable claims are kept as they are (trimmed)", () => {
    expect(acceptedIdentityClaims(claims)).toEqual(claims);
    expect(acceptedIdentityClaims({ ...claims, name: "  Sarah  ", email: " s@x.co " })).toMatchObject({
      name: "Sarah",
      email: "s@x.co",
    });
  });

  test("a name over the limit is cut to it, never inside a character", () => {
    expect(acceptedIdentityClaims({ ...claims, name: "N".repeat(5000) })?.name).toBe(
      "N".repeat(LIMITS.userName),
    );
    const emoji = `${"a".repeat(LIMITS.userName - 1)}😀`;
    expect(acceptedIdentityClaims({ ...claims, name: emoji })?.name).toBe("a".repeat(LIMITS.userName - 1));
  });

  test.each([
    ["email", "not-an-email"],
    ["email", `${"x".repeat(300)}@livelocal.test`],
    ["email", "   "],
    ["avatar", "javascript:alert(1)"],
    ["avatar", "/site/path.png"],
    ["avatar", `https://img.example/${"x".repeat(LIMITS.avatar)}`],
    ["name", "   "],
  ])("an unusable %s (%s) is left out, the rest kept", (field, value) => {
    const accepted = acceptedIdentityClaims({ ...claims, [field]: value });
    expect(accepted).not.toHaveProperty(field);
    expect(accepted).toMatchObject({ clerkId: claims.clerkId });
  });

  test("an account id that is blank or over the limit makes the claims unusable", () => {
    expect(acceptedIdentityClaims({ ...claims, clerkId: "x".repeat(LIMITS.clerkId) })).toBeDefined();
    expect(acceptedIdentityClaims({ ...claims, clerkId: "x".repeat(LIMITS.clerkId + 1) })).toBeUndefined();
    expect(acceptedIdentityClaims({ ...claims, clerkId: "x".repeat(5000) })).toBeUndefined();
    expect(acceptedIdentityClaims({ ...claims, clerkId: " " })).toBeUndefined();
  });
});

describe("cutToLength", () => {
  test("leaves short text alone and cuts long text without splitting a character or leaving a space", () => {
    expect(cutToLength("Denim drop", 20)).toBe("Denim drop");
    expect(cutToLength("Denim drop", 6)).toBe("Denim");
    expect(cutToLength("ab😀", 3)).toBe("ab");
    expect(cutToLength("ab😀", 4)).toBe("ab😀");
  });
});

describe("privacy requests", () => {
  test("a correction must say what to correct", () => {
    expect(errorsOf(privacyRequestSchema, { type: "correction", details: " " })).toEqual({
      details: "Tell us what should be corrected.",
    });
    expect(accepts(privacyRequestSchema, { type: "correction", details: "My name is misspelt." })).toBe(true);
  });

  test("other request types need no details", () => {
    for (const type of ["access", "deletion", "restriction"]) {
      expect(accepts(privacyRequestSchema, { type })).toBe(true);
    }
  });

  test("a request must have a real type", () => {
    expect(accepts(privacyRequestSchema, { type: "none" })).toBe(false);
  });
});

describe("shop and reference data rules", () => {
  test("a language is listed at most once", () => {
    expect(accepts(liveShopSchema, { ...shop, languages: ["en", "es"] })).toBe(true);
    expect(accepts(liveShopSchema, { ...shop, languages: ["en", "en"] })).toBe(false);
    expect(accepts(liveShopSchema, { ...shop, languages: ["xx"] })).toBe(false);
  });

  test("each product in a list has its own id", () => {
    expect(accepts(liveShopSchema, { ...shop, products: [product, product] })).toBe(false);
  });

  test("category ids are snake_case", () => {
    expect(accepts(categorySchema, { ...category, categoryId: "fashion_apparel" })).toBe(true);
    expect(accepts(categorySchema, { ...category, categoryId: "Home-Goods" })).toBe(false);
    expect(accepts(categorySchema, { ...category, categoryId: "_home" })).toBe(false);
  });

  test("a category link priority is a whole number from 0 to 1000, defaulting to 0", () => {
    expect(categoryLinkSchema.parse({ categoryId: "home_goods" }).priority).toBe(0);
    expect(accepts(categoryLinkSchema, { categoryId: "home_goods", priority: 1000 })).toBe(true);
    for (const priority of [-1, 1001, 1.5]) {
      expect(accepts(categoryLinkSchema, { categoryId: "home_goods", priority })).toBe(false);
    }
  });

  test("a metro area has a 5-digit code, 2-letter states and real coordinates", () => {
    expect(accepts(msaSchema, msa)).toBe(true);
    expect(accepts(msaSchema, { ...msa, cbsaCode: "1018" })).toBe(false);
    expect(accepts(msaSchema, { ...msa, states: ["tx"] })).toBe(false);
    expect(accepts(msaSchema, { ...msa, states: [] })).toBe(false);
    expect(accepts(msaSchema, { ...msa, coordinatesLat: 91 })).toBe(false);
    expect(accepts(msaSchema, { ...msa, coordinatesLng: -181 })).toBe(false);
  });

  test("a user email must look like an email address", () => {
    expect(accepts(userIdentitySchema, { clerkId: "user_1", email: "not-an-email" })).toBe(false);
  });
});

describe("fieldErrors", () => {
  test("maps dotted paths to the first message of each field", () => {
    const errors = errorsOf(liveShopSchema, {
      ...shop,
      liveShopName: "",
      products: [{ ...product, price: "abc" }],
      themeColor: "#12",
    });
    expect(errors).toEqual({
      liveShopName: "Shop name is required.",
      "products.0.price": "Enter a price like 24 or 24.99, without a currency symbol.",
      themeColor: "Enter a colour like #1a2b3c.",
    });
  });
});

describe("link sets (categories, metro areas, platforms)", () => {
  test("categories: each pair once, at most 12", () => {
    const links = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ categoryId: "home_goods", subcategoryId: `s_${i}` }));
    expect(accepts(categoryLinksSchema, links(LIMITS.linkedCategories))).toBe(true);
    expect(errorsOf(categoryLinksSchema, links(LIMITS.linkedCategories + 1))).toEqual({
      "": "Choose at most 12 categories.",
    });
    expect(
      errorsOf(categoryLinksSchema, [
        { categoryId: "home_goods" },
        { categoryId: "home_goods", priority: 2 },
      ]),
    ).toEqual({ "": "List each category only once." });
    expect(
      accepts(categoryLinksSchema, [
        { categoryId: "home_goods" },
        { categoryId: "home_goods", subcategoryId: "home_decor" },
      ]),
    ).toBe(true);
  });

  test("metro areas: 5-digit codes, each once, at most 10", () => {
    const codes = (n: number) => Array.from({ length: n }, (_, i) => String(10000 + i));
    expect(accepts(cbsaCodesSchema, codes(LIMITS.linkedMetroAreas))).toBe(true);
    expect(errorsOf(cbsaCodesSchema, codes(LIMITS.linkedMetroAreas + 1))).toEqual({
      "": "Choose at most 10 metro areas.",
    });
    expect(errorsOf(cbsaCodesSchema, ["12420", "12420"])).toEqual({ "": "List each metro area only once." });
    expect(errorsOf(cbsaCodesSchema, ["1242"])).toEqual({ "0": "Enter the 5-digit CBSA code." });
  });

  test("platforms: one link per platform, named in the message, alongside other mistakes", () => {
    expect(
      accepts(platformLinksSchema, [
        whatnotLink,
        { ...whatnotLink, platformType: "tiktok", platformStreamUrl: "https://www.tiktok.com/@a/live" },
      ]),
    ).toBe(true);
    expect(
      errorsOf(platformLinksSchema, [whatnotLink, { ...whatnotLink, platformActionUrl: "ftp://x" }]),
    ).toEqual({
      "1.platformActionUrl": SCHEME_MESSAGE,
      "1.platformType": "Whatnot is listed twice; a stream has one link per platform.",
    });
    // An unknown platform is reported as such, not as a duplicate.
    expect(errorsOf(platformLinksSchema, [{ platformType: "nope" }, { platformType: "nope" }])).toMatchObject(
      {
        "1.platformType": "Choose a platform.",
      },
    );
  });
});
