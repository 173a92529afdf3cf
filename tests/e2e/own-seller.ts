import { ConvexHttpClient } from "convex/browser";
import { makeFunctionReference } from "convex/server";
import { inject } from "vitest";
import type { StreamStatus } from "@convex/lib/constants";
import { baseUrl } from "./browser";

export type OwnSeller = {
  name: string;
  email: string;
  shopName: string;
  shopSlug: string;
  /** One per status asked for, in that order, with their ids. */
  streamTitles: string[];
  streamIds: string[];
};

const createSeller = makeFunctionReference<
  "mutation",
  {
    name: string;
    email: string;
    shopName: string;
    slug: string;
    streams: { title: string; status: StreamStatus }[];
  },
  { liveShopId: string; streamIds: string[] }
>("e2eData:createSeller");

/**
 * A seller of the calling file's own, with an active shop and one show per status (a day apart from
 * tomorrow, or `startsInDays`), made through the
 * suite's own functions (tests/support/functions/e2eData.ts, run with the admin key): no other file
 * sees or changes them, so files run in any order. `label` names the file ("live-updates"); a suffix
 * keeps a second run on the same store apart.
 */
export async function ownSeller(
  label: string,
  shows: (StreamStatus | { status: StreamStatus; startsInDays: number })[],
): Promise<OwnSeller> {
  const suffix = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;
  const title = label.charAt(0).toUpperCase() + label.slice(1).replace(/-/g, " ");
  const seller = {
    name: `${title} Seller`,
    email: `${label}.${suffix}@livelocal.test`,
    shopName: `${title} Cards ${suffix}`,
    shopSlug: `${label}-${suffix}`,
    streamTitles: shows.map((_, index) => `${title} show ${index + 1} (${suffix})`),
  };
  const admin = new ConvexHttpClient(baseUrl());
  // `setAdminAuth` is internal to `convex`, left out of its types; the CLI's client calls it so.
  (admin as unknown as { setAdminAuth(key: string): void }).setAdminAuth(inject("adminKey"));
  const { streamIds } = await admin.mutation(createSeller, {
    name: seller.name,
    email: seller.email,
    shopName: seller.shopName,
    slug: seller.shopSlug,
    streams: shows.map((show, index) => ({
      title: seller.streamTitles[index] ?? "",
      ...(typeof show === "string" ? { status: show } : show),
    })),
  });
  return { ...seller, streamIds };
}
