import { useMutation } from "convex/react";
import { useState } from "react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import type { ParsedShop } from "./shop-draft";

/**
 * Saves the shop form in one mutation, all or nothing: its fields, categories and metro areas
 * (decision 060). A new shop is created once; a later save updates it.
 */
export function useSaveShop(liveShopId: Id<"liveShops"> | undefined) {
  const createLiveShop = useMutation(api.liveShops.createLiveShop);
  const updateLiveShop = useMutation(api.liveShops.updateLiveShop);
  const [createdId, setCreatedId] = useState<Id<"liveShops">>();
  const savedId = liveShopId ?? createdId;

  async function save({ shop, categories, cbsaCodes }: ParsedShop) {
    if (savedId !== undefined) {
      await updateLiveShop({ liveShopId: savedId, shop, categories, cbsaCodes });
      return savedId;
    }
    const created = await createLiveShop({ shop, categories, cbsaCodes });
    setCreatedId(created);
    return created;
  }

  return { save, savedId };
}
