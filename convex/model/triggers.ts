/**
 * What runs after every write to these tables, whichever helper wrote (decision 012). The builders of
 * convex/functions.ts wrap every mutation's `ctx.db` with them, internal ones included, so no write
 * path can leave explore's listing tables behind. Handlers re-derive rows from the current state, so
 * running one twice, or for a row already gone, is harmless. One more reacts to a stream going live:
 * it schedules the go-live alerts' fan-out.
 */
import { Triggers } from "convex-helpers/server/triggers";
import { internal } from "../_generated/api";
import type { DataModel } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
import {
  shopListingInputsChanged,
  shopListsStreams,
  streamListingInputsChanged,
  streamSearchInputsChanged,
  syncShopListings,
  syncShopStreamListings,
  syncStreamListings,
} from "./exploreListings";
import { startsGoLive } from "./goLiveAlerts";
import {
  privacyDecisionTargets,
  shopClosedTargets,
  shopDecisionTargets,
  streamChangeTargets,
  streamModeratedTargets,
  type NoticeTarget,
} from "./noticeEvents";
import { publicShopStatus } from "./restriction";

export const triggers = new Triggers<DataModel>();

/** The listing tables have no triggers of their own: write them through the unwrapped db. */
function direct(ctx: MutationCtx & { innerDb: MutationCtx["db"] }): MutationCtx {
  return { ...ctx, db: ctx.innerDb };
}

triggers.register("streams", async (ctx, change) => {
  if (change.operation !== "update") return await syncStreamListings(direct(ctx), change.id);
  if (!streamListingInputsChanged(change.oldDoc, change.newDoc)) return;
  // A status change keeps the search text: only a change to what it is made of derives it again.
  const searchChanged =
    change.oldDoc.liveShopId !== change.newDoc.liveShopId ||
    streamSearchInputsChanged(change.oldDoc, change.newDoc);
  await syncStreamListings(direct(ctx), change.id, { searchChanged });
});

// A show going live tells those who saved it or follow its shop, in scheduled batches (decision 021).
triggers.register("streams", async (ctx, change) => {
  if (!startsGoLive(change.oldDoc, change.newDoc)) return;
  await ctx.scheduler.runAfter(0, internal.goLiveAlerts.fanOut, {
    streamId: change.id,
    phase: "saved",
    cursor: null,
  });
});

/** Schedules each notice, so a failing notice never undoes the write that caused it (decision 036). */
async function scheduleNotices(ctx: MutationCtx, targets: NoticeTarget[]): Promise<void> {
  for (const target of targets) {
    if (target.to === "savers") {
      await ctx.scheduler.runAfter(0, internal.notifications.notifySavers, {
        streamId: target.streamId,
        notice: target.notice,
        cursor: null,
      });
    } else if (target.to === "shopAudience") {
      await ctx.scheduler.runAfter(0, internal.notifications.notifyShopAudience, {
        liveShopId: target.liveShopId,
        notice: target.notice,
        phase: "followers",
        cursor: null,
      });
    } else {
      await ctx.scheduler.runAfter(0, internal.notifications.notifyPerson, {
        userId: target.userId,
        notice: target.notice,
      });
    }
  }
}

// A saved show cancelled or moved tells its savers; an admin's end or cancel tells the seller.
triggers.register("streams", async (ctx, change) => {
  if (!change.oldDoc || !change.newDoc) return;
  await scheduleNotices(ctx, [
    ...streamChangeTargets(change.oldDoc, change.newDoc),
    ...(await streamModeratedTargets(ctx, change.oldDoc, change.newDoc)),
  ]);
});

// An admin's decision on a shop tells its owner; a shop closing or suspended tells its followers and savers.
triggers.register("liveShops", async (ctx, change) => {
  if (!change.oldDoc || !change.newDoc) return;
  await scheduleNotices(ctx, [
    ...shopDecisionTargets(change.oldDoc, change.newDoc),
    ...shopClosedTargets(change.oldDoc, change.newDoc),
  ]);
});

// A privacy request decided tells its person.
triggers.register("privacyRequests", async (ctx, change) => {
  if (!change.oldDoc || !change.newDoc) return;
  await scheduleNotices(ctx, privacyDecisionTargets(change.oldDoc, change.newDoc));
});

for (const table of ["streamCategories", "streamMsas"] as const) {
  triggers.register(table, async (ctx, change) => {
    const { streamId } = change.newDoc ?? change.oldDoc;
    await syncStreamListings(direct(ctx), streamId, { linksChanged: true });
    // A link moved to another stream (never done by the helpers) changes that one too.
    if (change.oldDoc && change.newDoc && change.oldDoc.streamId !== change.newDoc.streamId) {
      await syncStreamListings(direct(ctx), change.oldDoc.streamId, { linksChanged: true });
    }
  });
}

triggers.register("liveShops", async (ctx, change) => {
  const { oldDoc, newDoc } = change;
  if (!oldDoc || !newDoc || shopListingInputsChanged(oldDoc, newDoc)) {
    await syncShopListings(direct(ctx), change.id);
  }
  // A shop leaving or entering "active" takes its streams off or back onto the lists; a deleted shop
  // takes them off at once, before the cascade reaches them.
  // `publicShopStatus`: a shop whose owner is restricted (GDPR article 18) lists nothing.
  const listedBefore = oldDoc !== null && shopListsStreams(publicShopStatus(oldDoc));
  const listedAfter = newDoc !== null && shopListsStreams(publicShopStatus(newDoc));
  // Its streams are also found by its headline (decision 030).
  const headlineChanged =
    listedAfter && oldDoc !== null && newDoc !== null && oldDoc.headline !== newDoc.headline;
  if (listedBefore !== listedAfter || headlineChanged) await syncShopStreamListings(direct(ctx), change.id);
});

// A stream, and its shop, are found by its platforms' names (decision 030). A platform removed from
// a stream stays in its shop's text until the shop's rows are next derived (any change to the shop or
// its links, a platform added to one of its streams): rederiving the shop reads its newest streams'
// platforms, too much for a cascade deleting hundreds of streams' platforms in one transaction.
triggers.register("streamPlatforms", async (ctx, change) => {
  const { streamId } = change.newDoc ?? change.oldDoc;
  await syncStreamListings(direct(ctx), streamId);
  if (change.operation === "delete") return;
  const stream = await ctx.db.get("streams", streamId);
  if (stream) await syncShopListings(direct(ctx), stream.liveShopId);
});

for (const table of ["liveShopCategories", "liveShopMsas"] as const) {
  triggers.register(table, async (ctx, change) => {
    await syncShopListings(direct(ctx), (change.newDoc ?? change.oldDoc).liveShopId, { linksChanged: true });
  });
}
