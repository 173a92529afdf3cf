import type { Id } from "@convex/_generated/dataModel";
import { followShop, saveStream } from "@convex/model/watchList";
import type { ConvexTestBackend, TestPerson } from "@/test/convex-backend";
import { seedShop, seedStream } from "@/test/convex-seed";

/** Sat, Nov 21 2026, 12:00 UTC: the tests' "now". */
export const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;

export type StreamSeed = NonNullable<Parameters<typeof seedStream>[2]>;

/** Saves the streams to `person`'s list and follows the shops, through the model's own rules. */
export async function saveAndFollow(
  convex: ConvexTestBackend,
  person: TestPerson,
  { streams = [], shops = [] }: { streams?: Id<"streams">[]; shops?: Id<"liveShops">[] },
): Promise<void> {
  await convex.run(async (ctx) => {
    const user = (await ctx.db.get(person.userId))!;
    for (const streamId of streams) await saveStream(ctx, user, streamId);
    for (const liveShopId of shops) await followShop(ctx, user, liveShopId);
  });
}

/** The saved shows coming up unless a test says otherwise (with Green Corner's "Rare plants"). */
const LEGO: StreamSeed = {
  streamTitle: "Lego, sets & minifigs",
  streamDescription: "Bring your lists.",
  streamStartUTC: NOW + 2 * HOUR + 5 * MINUTE,
  streamStopUTC: NOW + 3 * HOUR,
};

/**
 * A list with something in every section, for `person`: live (one saved, one from a followed shop),
 * coming up (`upcoming`, else Lego and Green Corner's Rare plants), three followed shops in Chicago (one
 * live, one with a show planned, one quiet) and three ended (a replay, none yet, cancelled). Returns
 * the ids, by name.
 */
export async function seedWatchList(
  convex: ConvexTestBackend,
  person: TestPerson,
  { upcoming }: { upcoming?: StreamSeed[] } = {},
) {
  const seller = await convex.addUser("seller", { key: "chicago-seller" });
  const shop = (liveShopName: string) =>
    seedShop(convex, seller, { liveShopName, timezone: "America/Chicago" });
  const shops = {
    logan: await shop("Logan Square Toy Exchange"),
    green: await shop("Green Corner"),
    pilsen: await shop("Pilsen Vintage"),
    quiet: await shop("Quiet Books"),
  };
  const streams = {
    cards: await seedStream(convex, shops.logan, {
      streamTitle: "Card breaks",
      streamStatus: "LIVE",
      streamStartUTC: NOW - 30 * MINUTE,
      streamStopUTC: NOW + HOUR,
    }),
    denim: await seedStream(convex, shops.pilsen, {
      streamTitle: "Denim drop",
      streamStatus: "LIVE",
      streamStartUTC: NOW - 20 * MINUTE,
      streamStopUTC: NOW + HOUR,
    }),
    plants: await seedStream(convex, shops.green, {
      streamTitle: "Rare plants",
      streamStartUTC: NOW + 26 * HOUR,
      streamStopUTC: NOW + 27 * HOUR,
    }),
    comics: await seedStream(convex, shops.logan, {
      streamTitle: "Comic haul",
      streamStatus: "ENDED",
      streamStartUTC: NOW - 26 * HOUR,
      streamStopUTC: NOW - 25 * HOUR,
      replayVideoUrl: "https://video.example/replays/comic-haul",
    }),
    quilts: await seedStream(convex, shops.logan, {
      streamTitle: "Quilt show",
      streamStatus: "ENDED",
      streamStartUTC: NOW - 50 * HOUR,
      streamStopUTC: NOW - 49 * HOUR,
    }),
    rain: await seedStream(convex, shops.logan, {
      streamTitle: "Rained out market",
      streamStatus: "CANCELLED",
      streamStartUTC: NOW - 72 * HOUR,
    }),
  };
  const coming: Id<"streams">[] = [];
  for (const seed of upcoming ?? [LEGO]) coming.push(await seedStream(convex, shops.logan, seed));
  if (!upcoming) coming.push(streams.plants);
  await saveAndFollow(convex, person, {
    streams: [streams.cards, ...coming, streams.comics, streams.quilts, streams.rain],
    shops: [shops.green, shops.pilsen, shops.quiet],
  });
  return { seller, shops, streams: { ...streams, lego: coming[0] } };
}
