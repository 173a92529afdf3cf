import type { FunctionReturnType } from "convex/server";
import type { api } from "@convex/_generated/api";

/** What `/watch-list` shows for a signed-in person (convex/model/watchList.ts). */
export type WatchList = NonNullable<FunctionReturnType<typeof api.watchList.myWatchList>>;
export type WatchStream = WatchList["live"][number];
export type FollowedShop = WatchList["shops"][number];
