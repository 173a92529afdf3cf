/**
 * Maximum lengths (characters) and counts of what a person writes (docs/product.md#limits), the ones it
 * leaves open. Zod-free, so a page that only shows a counter or checks a length (explore's filter) does
 * not load zod; `validation.ts` builds its schemas from these and re-exports them.
 */

/** Maximum lengths (characters) and counts, exported so forms can show counters. */
export const LIMITS = {
  // Given by the specification (docs/product.md#limits).
  email: 255,
  clerkId: 255,
  avatar: 600,
  gdprReason: 500,
  retentionPolicy: 100,
  shopName: 100,
  taxId: 50,
  headline: 200,
  shopDescription: 5000,
  productsSummary: 1000,
  url: 2048,
  /** Exactly `#rrggbb`; the pattern enforces it. */
  themeColor: 7,
  slug: 100,
  streamTitle: 200,
  streamDescription: 2000,
  /** Time zones are limited to TIME_ZONES, all far shorter. */
  streamTimezone: 100,
  categoryId: 50,
  categoryIcon: 255,
  categoryLabel: 100,
  categoryDescription: 500,
  msaName: 255,

  // Left open by the specification; chosen to fit a readable page and keep documents small
  // (Convex caps a document at 1 MiB, and a shop holds its products and FAQ inline).
  userName: 100,
  /** Why an admin rejected or suspended something; shown to the owner. */
  statusReason: 500,
  /** What a correction request asks to have corrected (the privacy contract: at most 500). */
  correctionDetails: 500,
  faqQuestion: 300,
  faqAnswer: 2000,
  faqEntries: 30,
  productId: 64,
  productName: 200,
  productDescription: 1000,
  products: 100,
  streamImageUrls: 10,
  paymentBrand: 30,
  msaStates: 8,
  /** Category links of one shop or stream: a primary category and a few more. */
  linkedCategories: 12,
  /** Metro areas one shop or stream is listed in. */
  linkedMetroAreas: 10,
  /** Live shops one person may own; the dashboard lists them all. */
  shopsPerUser: 20,
  /** Shows one person keeps on their watch list: a season of plans, and one page to read it all. */
  savedStreamsPerUser: 100,
  /** Shops one person follows. */
  followedShopsPerUser: 100,
} as const;

/**
 * The moments a time field accepts (epoch milliseconds, UTC, both ends included): dates from 2000 to
 * 2099. JavaScript's dates end at ±8.64e15 ms, and every date formatter throws past them; these bounds
 * keep every stored time printable with centuries to spare. The upper end is noon UTC on 1 January 2100,
 * so the last minute of 2099 on any US shop's clock (TIME_ZONES, UTC−4 to UTC−8) is still inside.
 */
export const TIME_RANGE = {
  firstYear: 2000,
  lastYear: 2099,
  minUtc: Date.UTC(2000, 0, 1),
  maxUtc: Date.UTC(2100, 0, 1, 12),
} as const;

/**
 * Pictures uploaded to file storage (issue 16, decision 028): the types a browser shows everywhere, and
 * a size a phone photo fits in. The browser checks both before uploading; the server checks the bytes
 * it is sent (`pictureTypeOf`) and the stored file's own metadata again.
 */
export const IMAGE_UPLOAD = {
  types: ["image/png", "image/jpeg", "image/webp", "image/gif", "image/avif"],
  /** What the type list says to a person. */
  typeNames: "PNG, JPEG, WebP, GIF or AVIF",
  maxBytes: 5 * 1024 * 1024,
} as const;

/** Why a file cannot be a picture here, in words, or undefined when it can. */
export function imageUploadProblem(file: { type?: string | null; size: number }): string | undefined {
  const types: readonly string[] = IMAGE_UPLOAD.types;
  if (!file.type || !types.includes(file.type)) {
    return `Choose a ${IMAGE_UPLOAD.typeNames} picture.`;
  }
  if (file.size > IMAGE_UPLOAD.maxBytes) {
    return `Choose a picture of at most ${IMAGE_UPLOAD.maxBytes / 1024 / 1024} MB.`;
  }
  if (file.size === 0) return "This file is empty; choose another picture.";
  return undefined;
}

const ascii = (bytes: Uint8Array, from: number, to: number) =>
  String.fromCharCode(...bytes.subarray(from, to));

/**
 * The picture type the bytes themselves say (their signature), or undefined when they are none of
 * `IMAGE_UPLOAD.types`: what a file is called or claims to be does not make it a picture.
 */
export function pictureTypeOf(bytes: Uint8Array): (typeof IMAGE_UPLOAD.types)[number] | undefined {
  const starts = (...signature: number[]) => signature.every((byte, i) => bytes[i] === byte);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "image/png";
  if (starts(0xff, 0xd8, 0xff)) return "image/jpeg";
  if (/^GIF8[79]a$/.test(ascii(bytes, 0, 6))) return "image/gif";
  if (ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 12) === "WEBP") return "image/webp";
  // ISO-BMFF: a `ftyp` box naming AVIF as its major or one of its compatible brands.
  if (ascii(bytes, 4, 8) === "ftyp") {
    const boxSize = Math.min(new DataView(bytes.buffer, bytes.byteOffset).getUint32(0), bytes.length, 256);
    for (let at = 8; at + 4 <= boxSize; at += 4) {
      if (at === 12) continue; // the minor version
      if (["avif", "avis"].includes(ascii(bytes, at, at + 4))) return "image/avif";
    }
  }
  return undefined;
}
