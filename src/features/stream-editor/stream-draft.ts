import {
  parseCategoryLinks,
  toCategoryLinkDrafts,
  type CategoryLinkDraft,
} from "@/components/forms/category-links";
import type { ProductDraft } from "@/components/forms/products-editor";
import type { Doc } from "@convex/_generated/dataModel";
import type { PlatformType, TimeZone } from "@convex/lib/constants";
import { utcToZonedInput, zonedInputToUtc } from "@convex/lib/time";
import {
  categoryLinksSchema,
  cbsaCodesSchema,
  fieldErrors,
  platformLinksSchema,
  streamSchema,
  type CategoryLinkInput,
  type PlatformLinkInput,
  type StreamInput,
} from "@convex/lib/validation";

export type ImageUrlDraft = { key: string; url: string };
export type PlatformLinkDraft = {
  key: string;
  platformType: PlatformType;
  platformStreamUrl: string;
  platformActionUrl: string;
};

/** The stream form's values; start and stop as `<input type="datetime-local">` holds them, in the shop's zone. */
export type StreamDraft = {
  streamTitle: string;
  streamDescription: string;
  streamImageUrls: ImageUrlDraft[];
  streamVideoUrl: string;
  replayVideoUrl: string;
  streamTrailerUrl: string;
  start: string;
  stop: string;
  products: ProductDraft[];
  categories: CategoryLinkDraft[];
  cbsaCodes: string[];
  platforms: PlatformLinkDraft[];
};

export const emptyStreamDraft = (): StreamDraft => ({
  streamTitle: "",
  streamDescription: "",
  streamImageUrls: [],
  streamVideoUrl: "",
  replayVideoUrl: "",
  streamTrailerUrl: "",
  start: "",
  stop: "",
  products: [],
  categories: [],
  cbsaCodes: [],
  platforms: [],
});

type CategoryLinks = { categoryId: string; subcategoryId?: string; priority: number }[];

/**
 * A new stream of this shop: empty, but listed under the shop's categories and metro areas, which the
 * seller keeps or changes for this show (issue 16).
 */
export function newStreamDraftForShop(shop: { categories: CategoryLinks; cbsaCodes: string[] }): StreamDraft {
  return {
    ...emptyStreamDraft(),
    categories: toCategoryLinkDrafts(shop.categories),
    cbsaCodes: [...shop.cbsaCodes],
  };
}

type StreamWithLinks = Doc<"streams"> & {
  categories: CategoryLinks;
  cbsaCodes: string[];
  platforms: { platformType: PlatformType; platformStreamUrl?: string; platformActionUrl?: string }[];
};

export function streamDraftFromDoc(stream: StreamWithLinks): StreamDraft {
  const zone = stream.timezone;
  return {
    streamTitle: stream.streamTitle,
    streamDescription: stream.streamDescription ?? "",
    streamImageUrls: stream.streamImageUrls.map((url) => ({ key: crypto.randomUUID(), url })),
    streamVideoUrl: stream.streamVideoUrl ?? "",
    replayVideoUrl: stream.replayVideoUrl ?? "",
    streamTrailerUrl: stream.streamTrailerUrl ?? "",
    start: stream.streamStartUTC === undefined ? "" : utcToZonedInput(stream.streamStartUTC, zone),
    stop: stream.streamStopUTC === undefined ? "" : utcToZonedInput(stream.streamStopUTC, zone),
    products: stream.products.map((product) => ({
      ...product,
      imageUrl: product.imageUrl ?? "",
      description: product.description ?? "",
    })),
    categories: toCategoryLinkDrafts(stream.categories),
    cbsaCodes: [...stream.cbsaCodes],
    platforms: stream.platforms.map((link) => ({
      key: crypto.randomUUID(),
      platformType: link.platformType,
      platformStreamUrl: link.platformStreamUrl ?? "",
      platformActionUrl: link.platformActionUrl ?? "",
    })),
  };
}

export type ParsedStream = {
  stream: StreamInput;
  categories: CategoryLinkInput[];
  cbsaCodes: string[];
  platforms: PlatformLinkInput[];
};

/** A datetime-local value in `timeZone` as UTC ms: undefined when blank, null when not a real time. */
function toUtc(value: string, timeZone: TimeZone): number | null | undefined {
  return value === "" ? undefined : zonedInputToUtc(value, timeZone);
}

function prefixed(prefix: string, errors: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(errors).map(([path, message]) => [`${prefix}.${path}`, message]));
}

/** Validates the whole form with the shared schemas; errors are keyed by the fields' paths. */
export function parseStreamDraft(
  draft: StreamDraft,
  timezone: TimeZone,
): { data?: ParsedStream; errors: Record<string, string> } {
  const start = toUtc(draft.start, timezone);
  const stop = toUtc(draft.stop, timezone);
  const stream = streamSchema.safeParse({
    streamTitle: draft.streamTitle,
    streamDescription: draft.streamDescription,
    streamImageUrls: draft.streamImageUrls.map((image) => image.url),
    streamVideoUrl: draft.streamVideoUrl,
    replayVideoUrl: draft.replayVideoUrl,
    streamTrailerUrl: draft.streamTrailerUrl,
    // An impossible time is reported as the schema's own "Enter a valid date and time."
    streamStartUTC: start === null ? Number.NaN : start,
    streamStopUTC: stop === null ? Number.NaN : stop,
    timezone,
    products: draft.products,
  });
  const rows = parseCategoryLinks(draft.categories);
  const links = categoryLinksSchema.safeParse(rows.links);
  const codes = cbsaCodesSchema.safeParse(draft.cbsaCodes);
  const platforms = platformLinksSchema.safeParse(draft.platforms.map(({ key: _key, ...link }) => link));
  const errors: Record<string, string> = {
    ...(stream.success ? {} : fieldErrors(stream.error)),
    ...rows.errors,
    ...(platforms.success ? {} : prefixed("platforms", fieldErrors(platforms.error))),
  };
  if (!links.success) errors.categories ??= links.error.issues[0]?.message ?? "Check the categories.";
  if (!codes.success) errors.cbsaCodes ??= codes.error.issues[0]?.message ?? "Check the metro areas.";
  if (
    !stream.success ||
    !links.success ||
    !codes.success ||
    !platforms.success ||
    Object.keys(errors).length > 0
  ) {
    return { errors };
  }
  return {
    data: { stream: stream.data, categories: links.data, cbsaCodes: codes.data, platforms: platforms.data },
    errors,
  };
}
