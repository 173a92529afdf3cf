import { useMutation } from "convex/react";
import { useState } from "react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import type { ParsedShop } from "./shop-draft";

/**
 * Saves the shop form: the shop's fields, then its categories and metro areas when they changed. A new
 * shop is created once; if a later step is refused, the next save updates that shop instead of
 * creating another.
 */
export function useSaveShop(liveShopId: Id<"liveShops"> | undefined) {
  const createLiveShop = useMutation(api.liveShops.createLiveShop);
  const updateLiveShop = useMutation(api.liveShops.updateLiveShop);
  const setShopCategories = useMutation(api.liveShops.setShopCategories);
  const setShopMsas = useMutation(api.liveShops.setShopMsas);
  const [createdId, setCreatedId] = useState<Id<"liveShops">>();
  const savedId = liveShopId ?? createdId;

  async function save(data: ParsedShop, changed: { categories: boolean; cbsaCodes: boolean }) {
    let shopId = savedId;
    if (shopId === undefined) {
      shopId = await createLiveShop({ shop: data.shop });
      setCreatedId(shopId);
    } else {
      await updateLiveShop({ liveShopId: shopId, shop: data.shop });
    }
    if (changed.categories) await setShopCategories({ liveShopId: shopId, categories: data.categories });
    if (changed.cbsaCodes) await setShopMsas({ liveShopId: shopId, cbsaCodes: data.cbsaCodes });
    return shopId;
  }

  return { save, savedId };
}
