import type { ShopStatus, StreamStatus } from "@convex/lib/constants";
import { streamAttention } from "@convex/lib/lifecycle";
import { formatTimeForViewer } from "@convex/lib/time";

export type AttentionItem = {
  key: string;
  /** What needs doing, in a sentence. */
  title: string;
  detail?: string;
  link: { kind: "shop" | "stream"; id: string; label: string };
};

type Shop = { _id: string; liveShopName: string; status: ShopStatus; statusReason?: string };
type Stream = {
  _id: string;
  streamTitle: string;
  streamStatus: StreamStatus;
  streamStartUTC?: number;
  streamStopUTC?: number;
  timezone: string;
};

/**
 * What the seller should look at first: a shop an admin sent back (a draft with a reason) or suspended,
 * a stream without its times, a scheduled show whose start has passed, a live show past its stop. Times
 * are in `viewerZone`, the seller's own (issue 17 item 3), with the shop's where it reads differently.
 */
export function attentionItems(
  shops: Shop[],
  streams: Stream[],
  now: number,
  viewerZone: string,
): AttentionItem[] {
  const items: AttentionItem[] = [];
  for (const shop of shops) {
    const link = { kind: "shop", id: shop._id, label: `Edit ${shop.liveShopName}` } as const;
    if (shop.status === "draft" && shop.statusReason) {
      items.push({
        key: `shop-${shop._id}`,
        title: `${shop.liveShopName} was sent back by an admin`,
        detail: shop.statusReason,
        link,
      });
    } else if (shop.status === "suspended") {
      items.push({
        key: `shop-${shop._id}`,
        title: `${shop.liveShopName} is suspended`,
        detail: shop.statusReason,
        link,
      });
    }
  }
  for (const stream of streams) {
    const link = { kind: "stream", id: stream._id, label: `Open ${stream.streamTitle}` } as const;
    for (const reason of streamAttention(stream, now)) {
      const key = `${stream._id}-${reason}`;
      if (reason === "missingTimes") {
        items.push({
          key,
          title: `“${stream.streamTitle}” needs a start and a stop time`,
          detail: "Both are needed to schedule it.",
          link,
        });
      } else if (reason === "startPassed" && stream.streamStartUTC !== undefined) {
        const { inViewerZone, inShopZone } = formatTimeForViewer(
          stream.streamStartUTC,
          viewerZone,
          stream.timezone,
        );
        items.push({
          key,
          title: `“${stream.streamTitle}” was due to start ${inViewerZone}`,
          detail: `${inShopZone ? `Shop time: ${inShopZone}. ` : ""}Go live, change its times, or cancel it.`,
          link,
        });
      } else if (reason === "stopPassed") {
        items.push({
          key,
          title: `“${stream.streamTitle}” is past its stop time`,
          detail: "End it, or move its stop time.",
          link,
        });
      }
    }
  }
  return items;
}
