import type { FunctionReturnType } from "convex/server";
import type { api } from "@convex/_generated/api";

/** What a shop's public page shows (`liveShops.getPublicShop`). */
export type PublicShop = NonNullable<FunctionReturnType<typeof api.liveShops.getPublicShop>>;
