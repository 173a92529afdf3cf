/**
 * Seeding for page tests on the embedded backend (convex-backend.tsx): shops and streams written by
 * the app's own model helpers (convex/model/), through the write triggers, as its mutations write
 * them. Test-only: nothing here is deployed.
 */
import type { Doc, Id } from "@convex/_generated/dataModel";
import type { CategoryLinkValue } from "@convex/model/links";
import {
  getLiveShopOrThrow,
  insertLiveShop,
  replaceShopCategories,
  replaceShopMsas,
  type NewLiveShop,
} from "@convex/model/liveShops";
import {
  insertStream,
  replaceStreamCategories,
  replaceStreamMsas,
  type NewStream,
} from "@convex/model/streams";
import type { ConvexTestBackend, Role, TestPerson } from "./convex-backend";

type ShopSeed = Partial<Omit<NewLiveShop, "userId">> & {
  categories?: CategoryLinkValue[];
  cbsaCodes?: string[];
};

/** A shop of `owner` (active unless told), with its categories and metro areas. */
export async function seedShop(
  convex: ConvexTestBackend,
  owner: TestPerson,
  { categories = [], cbsaCodes = [], ...shop }: ShopSeed = {},
): Promise<Id<"liveShops">> {
  const liveShopName = shop.liveShopName ?? "Sarah's Vintage";
  return await convex.run(async (ctx) => {
    const liveShopId = await insertLiveShop(ctx, {
      slug: liveShopName
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, "-")
        .replace(/^-|-$/g, ""),
      status: "active",
      ...shop,
      liveShopName,
      userId: owner.userId,
    });
    const created = await getLiveShopOrThrow(ctx, liveShopId);
    await replaceShopCategories(ctx, created, categories);
    await replaceShopMsas(ctx, created, cbsaCodes);
    return liveShopId;
  });
}

type StreamSeed = Partial<Omit<NewStream, "liveShopId">> & {
  categories?: CategoryLinkValue[];
  cbsaCodes?: string[];
};

/** A stream of the shop (scheduled unless told), with its categories and metro areas. */
export async function seedStream(
  convex: ConvexTestBackend,
  liveShopId: Id<"liveShops">,
  { categories = [], cbsaCodes = [], ...stream }: StreamSeed = {},
): Promise<Id<"streams">> {
  return await convex.run(async (ctx) => {
    const streamId = await insertStream(ctx, {
      streamTitle: "Denim drop",
      streamStatus: "SCHEDULED",
      ...stream,
      liveShopId,
    });
    await replaceStreamCategories(ctx, streamId, categories);
    await replaceStreamMsas(ctx, streamId, cbsaCodes);
    return streamId;
  });
}

/** A document as the backend holds it now. */
export async function readDoc<T extends "users" | "liveShops" | "streams">(
  convex: ConvexTestBackend,
  id: Id<T>,
): Promise<Doc<T> | null> {
  return await convex.run<Doc<T> | null>(async (ctx) => await ctx.db.get(id));
}

/**
 * Signs in a person of `role` (a seller unless told) owning one shop per seed: where the seller's
 * editors and dashboard pages start.
 */
export async function signInOwningShops(
  convex: ConvexTestBackend,
  shops: ShopSeed[],
  role: Role = "seller",
): Promise<{ person: TestPerson; shopIds: Id<"liveShops">[] }> {
  const person = await convex.signInAs(role);
  const shopIds: Id<"liveShops">[] = [];
  for (const shop of shops) shopIds.push(await seedShop(convex, person, shop));
  return { person, shopIds };
}
