import {
  parseCategoryLinks,
  toCategoryLinkDrafts,
  type CategoryLinkDraft,
} from "@/components/forms/category-links";
import type { ProductDraft } from "@/components/forms/products-editor";
import type { Doc } from "@convex/_generated/dataModel";
import {
  DEFAULT_SCHEMA_TYPE,
  DEFAULT_TIME_ZONE,
  type Language,
  type SchemaType,
  type TimeZone,
} from "@convex/lib/constants";
import {
  categoryLinksSchema,
  cbsaCodesSchema,
  fieldErrors,
  liveShopSchema,
  type CategoryLinkInput,
  type LiveShopInput,
} from "@convex/lib/validation";

export type FaqDraft = { key: string; question: string; answer: string };

/** The shop form's values: every field as its input holds it ("" for blank). */
export type ShopDraft = {
  liveShopName: string;
  slug: string;
  taxId: string;
  headline: string;
  description: string;
  faqSection: FaqDraft[];
  timezone: TimeZone;
  languages: Language[];
  productsSummary: string;
  products: ProductDraft[];
  bannerImageUrl: string;
  logoUrl: string;
  themeColor: string;
  accentThemeColor: string;
  coverImageUrl: string;
  shopTrailerUrl: string;
  schemaType: SchemaType;
  categories: CategoryLinkDraft[];
  cbsaCodes: string[];
};

export const emptyShopDraft = (): ShopDraft => ({
  liveShopName: "",
  slug: "",
  taxId: "",
  headline: "",
  description: "",
  faqSection: [],
  timezone: DEFAULT_TIME_ZONE,
  languages: ["en"],
  productsSummary: "",
  products: [],
  bannerImageUrl: "",
  logoUrl: "",
  themeColor: "",
  accentThemeColor: "",
  coverImageUrl: "",
  shopTrailerUrl: "",
  schemaType: DEFAULT_SCHEMA_TYPE,
  categories: [],
  cbsaCodes: [],
});

type ShopWithLinks = Doc<"liveShops"> & {
  categories: { categoryId: string; subcategoryId?: string; priority: number }[];
  cbsaCodes: string[];
};

export function shopDraftFromDoc(shop: ShopWithLinks): ShopDraft {
  return {
    liveShopName: shop.liveShopName,
    slug: shop.slug,
    taxId: shop.taxId ?? "",
    headline: shop.headline ?? "",
    description: shop.description ?? "",
    faqSection: shop.faqSection.map((entry) => ({ key: crypto.randomUUID(), ...entry })),
    timezone: shop.timezone,
    languages: [...shop.languages],
    productsSummary: shop.productsSummary ?? "",
    products: shop.products.map((product) => ({
      ...product,
      imageUrl: product.imageUrl ?? "",
      description: product.description ?? "",
    })),
    bannerImageUrl: shop.bannerImageUrl ?? "",
    logoUrl: shop.logoUrl ?? "",
    themeColor: shop.themeColor ?? "",
    accentThemeColor: shop.accentThemeColor ?? "",
    coverImageUrl: shop.coverImageUrl ?? "",
    shopTrailerUrl: shop.shopTrailerUrl ?? "",
    schemaType: shop.schemaType,
    categories: toCategoryLinkDrafts(shop.categories),
    cbsaCodes: [...shop.cbsaCodes],
  };
}

export type ParsedShop = { shop: LiveShopInput; categories: CategoryLinkInput[]; cbsaCodes: string[] };

/** Validates the whole form with the shared schemas; errors are keyed by the fields' paths. */
export function parseShopDraft(draft: ShopDraft): { data?: ParsedShop; errors: Record<string, string> } {
  const { categories: categoryDrafts, cbsaCodes, faqSection, ...fields } = draft;
  const shop = liveShopSchema.safeParse({
    ...fields,
    faqSection: faqSection.map(({ question, answer }) => ({ question, answer })),
  });
  const rows = parseCategoryLinks(categoryDrafts);
  const links = categoryLinksSchema.safeParse(rows.links);
  const codes = cbsaCodesSchema.safeParse(cbsaCodes);
  const errors: Record<string, string> = {
    ...(shop.success ? {} : fieldErrors(shop.error)),
    ...rows.errors,
  };
  if (!links.success) errors.categories ??= links.error.issues[0]?.message ?? "Check the categories.";
  if (!codes.success) errors.cbsaCodes ??= codes.error.issues[0]?.message ?? "Check the metro areas.";
  if (!shop.success || !links.success || !codes.success || Object.keys(errors).length > 0) return { errors };
  return { data: { shop: shop.data, categories: links.data, cbsaCodes: codes.data }, errors };
}
