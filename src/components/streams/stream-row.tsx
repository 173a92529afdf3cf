import type { ReactNode } from "react";
import type { ShopStatus } from "@convex/lib/constants";
import { isStreamPagePublic, type Actor } from "@convex/lib/lifecycle";
import { shownStreamTimes } from "@convex/lib/shownTimes";
import { formatShowForViewer } from "@convex/lib/time";
import { useViewerTimeZone } from "@/lib/viewer-time-zone";
import { HiddenFromPublicTag } from "@/components/shops/shops-hidden-banner";
import { StreamStatusBadge } from "./stream-status-badge";
import { StreamStatusControls, type StreamForControls } from "./stream-status-controls";

export type StreamRowData = StreamForControls & {
  liveShopName: string;
  timezone: string;
  /** Why an admin ended or cancelled it, for its owner. */
  statusReason?: string;
};

/**
 * When the show runs (as shown everywhere, decision 058: when it went live and ended, else the plan), in
 * the viewer's zone, and in its shop's when that reads differently.
 */
function when(stream: StreamRowData, viewerZone: string): { inViewerZone: string; inShopZone?: string } {
  const { start, stop } = shownStreamTimes(stream);
  if (start === undefined) return { inViewerZone: "No start time yet" };
  return formatShowForViewer(start, stop, viewerZone, stream.timezone);
}

/** "Ended by the LiveLocal team: …": why an admin ended or cancelled the owner's stream. */
export function ModerationNote({ stream, reason }: { stream: { streamStatus: string }; reason: string }) {
  const verb = stream.streamStatus === "CANCELLED" ? "Cancelled" : "Ended";
  return (
    <p className="mt-1 [overflow-wrap:anywhere] text-sm text-red-800 dark:text-red-200">
      <span className="font-semibold">{verb} by the LiveLocal team:</span> {reason}
    </p>
  );
}

type StreamRowProps = {
  stream: StreamRowData;
  actor: Actor;
  shopStatus?: ShopStatus;
  /**
   * Its shop is off public surfaces because of the owner's account: tagged where its status would be
   * public otherwise (a live show reaches no one).
   */
  hiddenFromPublic?: boolean;
  /** Links and buttons beside the status controls (edit, duplicate, delete). */
  actions?: ReactNode;
};

/** One of the seller's streams in a list: status, title, shop and time, the lifecycle's buttons. */
export function StreamRow({ stream, actor, shopStatus, hiddenFromPublic, actions }: StreamRowProps) {
  const time = when(stream, useViewerTimeZone(stream.timezone));
  return (
    <li className="flex flex-col gap-3 p-4 sm:flex-row sm:items-start sm:justify-between">
      <div className="min-w-0">
        <p className="flex flex-wrap items-center gap-2 font-medium">
          <StreamStatusBadge status={stream.streamStatus} />
          {hiddenFromPublic && shopStatus && isStreamPagePublic(stream.streamStatus, shopStatus) && (
            <HiddenFromPublicTag />
          )}
          <span className="min-w-0 [overflow-wrap:anywhere]">{stream.streamTitle}</span>
        </p>
        <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">
          {stream.liveShopName} · {time.inViewerZone}
          {time.inShopZone && <span className="block text-xs">Shop time: {time.inShopZone}</span>}
        </p>
        {stream.statusReason && <ModerationNote stream={stream} reason={stream.statusReason} />}
        {actions && <div className="mt-2 flex flex-wrap gap-2">{actions}</div>}
      </div>
      <StreamStatusControls stream={stream} actor={actor} shopStatus={shopStatus} />
    </li>
  );
}
