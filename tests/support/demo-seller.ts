import { buildSampleStreams, DEMO_SHOPS, DEMO_STREAM_LINKS, DEMO_USERS } from "../../convex/lib/data/demo";
import type { StreamStatus } from "../../convex/lib/constants";

/**
 * A demo seller and one of their streams in the given status, straight from the demo data: the
 * `nth` such stream of an active shop. For reading the demo data (the home page's live shows, the
 * benchmark's target); a test that changes a show makes one of its own (tests/e2e/own-seller.ts).
 */
export function demoSellerWithStream(status: StreamStatus, nth = 0) {
  const sample = buildSampleStreams(Date.now()).filter((stream) => {
    if (stream.status !== status) return false;
    const shop = DEMO_SHOPS.find((candidate) => candidate.slug === DEMO_STREAM_LINKS[stream.id]?.shopSlug);
    return shop?.status === "active";
  })[nth];
  const shop = DEMO_SHOPS.find(
    (candidate) => candidate.slug === DEMO_STREAM_LINKS[sample?.id ?? ""]?.shopSlug,
  );
  const user = DEMO_USERS.find((candidate) => candidate.key === shop?.ownerKey);
  if (!sample || !shop || !user) throw new Error(`The demo data has no ${status} stream of an active shop.`);
  return { streamTitle: sample.title, shopName: shop.liveShopName, shopSlug: shop.slug, user };
}
