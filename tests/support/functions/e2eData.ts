/**
 * Data of its own for each end-to-end file: a seller, an active shop and shows in the statuses the file
 * needs, so no file takes another's show live and the files run in any order. Not in convex/: the e2e
 * suite's backend loads this folder beside it (tests/e2e/global-setup.ts), so no deployment gets
 * `e2eData:*` (decision 088). Written through convex/model/ and the triggers, as the seed writes the demo.
 */
import { v } from "convex/values";
import type { Id } from "../../../convex/_generated/dataModel";
import { internalMutation } from "../../../convex/functions";
import { timesAsPlanned } from "../../../convex/lib/shownTimes";
import { insertLiveShop, linkShopCategory, linkShopMsa } from "../../../convex/model/liveShops";
import {
  insertStream,
  linkStreamCategory,
  linkStreamMsa,
  upsertStreamPlatform,
} from "../../../convex/model/streams";
import { insertUser } from "../../../convex/model/users";
import { streamStatusValidator } from "../../../convex/schema";

const HOUR = 3_600_000;
/**
 * Abilene, TX: where every e2e shop sells and every e2e show is listed. The demo data uses no shop or
 * show there, so a file's own shows join no filtered list a demo-data test counts.
 */
const METRO = "10180";
const CATEGORY = { categoryId: "collectibles", priority: 0 };

/**
 * A seller signed in as the development sign-in's new user `email` does (`local|<email>`), their active
 * shop at `slug`, and one show per entry, listed publicly in Abilene under Collectibles.
 */
export const createSeller = internalMutation({
  args: {
    name: v.string(),
    email: v.string(),
    shopName: v.string(),
    slug: v.string(),
    streams: v.array(
      v.object({ title: v.string(), status: streamStatusValidator, startsInDays: v.optional(v.number()) }),
    ),
  },
  returns: v.object({ liveShopId: v.id("liveShops"), streamIds: v.array(v.id("streams")) }),
  handler: async (ctx, { name, email, shopName, slug, streams }) => {
    const now = Date.now();
    const metro = await ctx.db
      .query("msas")
      .withIndex("by_cbsaCode", (q) => q.eq("cbsaCode", METRO))
      .unique();
    if (!metro) throw new Error("Seed the reference data first.");
    const userId = await insertUser(ctx, { clerkId: `local|${email}`, email, name, role: "seller" }, now);
    const liveShopId = await insertLiveShop(
      ctx,
      {
        userId,
        liveShopName: shopName,
        slug,
        description: `${shopName}: trading cards and toys, sold live.`,
        status: "active",
      },
      now,
    );
    await linkShopCategory(ctx, liveShopId, CATEGORY, now);
    await linkShopMsa(ctx, liveShopId, metro._id, now);
    const streamIds: Id<"streams">[] = [];
    for (const [index, { title, status, startsInDays }] of streams.entries()) {
      // Live shows started an hour ago; the others start a day apart from tomorrow, unless told.
      const start =
        status === "LIVE" || status === "PAUSED" ? now - HOUR : now + (startsInDays ?? index + 1) * 24 * HOUR;
      const streamId = await insertStream(
        ctx,
        {
          liveShopId,
          streamTitle: title,
          streamImageUrls: [],
          streamStartUTC: start,
          streamStopUTC: start + 2 * HOUR,
          ...timesAsPlanned(status, start, undefined),
          products: [],
          streamStatus: status,
        },
        now,
      );
      await linkStreamCategory(ctx, streamId, CATEGORY, now);
      await linkStreamMsa(ctx, streamId, metro._id, now);
      await upsertStreamPlatform(
        ctx,
        streamId,
        { platformType: "whatnot", platformStreamUrl: `https://www.whatnot.com/user/${slug}` },
        now,
      );
      streamIds.push(streamId);
    }
    return { liveShopId, streamIds };
  },
});
