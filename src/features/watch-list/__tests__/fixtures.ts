import type { FollowedShop, WatchList, WatchStream } from "../watch-list-types";

/** Sat, Nov 21 2026, 12:00 UTC: the tests' "now". */
export const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;

type StreamCard = NonNullable<FollowedShop["nextStream"]>;

export function streamCard(id: string, overrides: Partial<StreamCard> = {}): StreamCard {
  return {
    _id: id as StreamCard["_id"],
    streamTitle: `Show ${id}`,
    streamStatus: "SCHEDULED",
    liveShopName: "Logan Square Toy Exchange",
    liveShopSlug: "logan-square-toy-exchange",
    timezone: "America/Chicago",
    streamStartUTC: NOW + HOUR,
    streamStopUTC: NOW + 2 * HOUR,
    ...overrides,
  };
}

export function watchStream(id: string, overrides: Partial<WatchStream> = {}): WatchStream {
  return { ...streamCard(id), saved: true, ...overrides };
}

export function followedShop(
  id: string,
  liveShopName: string,
  nextStream: FollowedShop["nextStream"],
): FollowedShop {
  return {
    shop: {
      _id: id as FollowedShop["shop"]["_id"],
      liveShopName,
      slug: liveShopName.toLowerCase().replace(/\W+/g, "-"),
      status: "active",
      categories: [],
      areas: [],
      ...(nextStream?.streamStatus === "LIVE" ? { liveStatus: "LIVE" as const } : {}),
    },
    nextStream,
  };
}

/** A list with something in every section: live (saved and followed), two upcoming, three shops, three ended. */
export function fullWatchList(overrides: Partial<WatchList> = {}): WatchList {
  const denim = streamCard("s-denim", {
    streamTitle: "Denim drop",
    streamStatus: "LIVE",
    liveShopName: "Pilsen Vintage",
    streamStartUTC: NOW - 20 * MINUTE,
  });
  return {
    live: [
      watchStream("s-cards", {
        streamTitle: "Card breaks",
        streamStatus: "LIVE",
        streamStartUTC: NOW - 30 * MINUTE,
      }),
      { ...denim, saved: false },
    ],
    upcoming: [
      watchStream("s-lego", {
        streamTitle: "Lego, sets & minifigs",
        streamDescription: "Bring your lists.",
        streamStartUTC: NOW + 2 * HOUR + 5 * MINUTE,
        streamStopUTC: NOW + 3 * HOUR,
      }),
      watchStream("s-plants", {
        streamTitle: "Rare plants",
        liveShopName: "Green Corner",
        streamStartUTC: NOW + 26 * HOUR,
        streamStopUTC: NOW + 27 * HOUR,
      }),
    ],
    shops: [
      followedShop(
        "l-green",
        "Green Corner",
        streamCard("s-plants", { streamTitle: "Rare plants", streamStartUTC: NOW + 26 * HOUR }),
      ),
      followedShop("l-pilsen", "Pilsen Vintage", denim),
      followedShop("l-quiet", "Quiet Books", null),
    ],
    ended: [
      watchStream("s-comics", {
        streamTitle: "Comic haul",
        streamStatus: "ENDED",
        streamStartUTC: NOW - 26 * HOUR,
        streamStopUTC: NOW - 25 * HOUR,
        replayVideoUrl: "https://video.example/replays/comic-haul",
      }),
      watchStream("s-quilts", {
        streamTitle: "Quilt show",
        streamStatus: "ENDED",
        streamStartUTC: NOW - 50 * HOUR,
        streamStopUTC: NOW - 49 * HOUR,
      }),
      watchStream("s-rain", {
        streamTitle: "Rained out market",
        streamStatus: "CANCELLED",
        streamStartUTC: NOW - 72 * HOUR,
      }),
    ],
    unavailable: { streamIds: [], liveShopIds: [], shops: [] },
    counts: { savedStreams: 6, followedShops: 3 },
    limits: { savedStreams: 100, followedShops: 100 },
    ...overrides,
  };
}

export function emptyWatchList(overrides: Partial<WatchList> = {}): WatchList {
  return fullWatchList({
    live: [],
    upcoming: [],
    shops: [],
    ended: [],
    counts: { savedStreams: 0, followedShops: 0 },
    ...overrides,
  });
}
