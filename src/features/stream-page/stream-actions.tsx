import { Button } from "@/components/ui/button";
import { Icon } from "@/components/ui/icon";
import { ShareButton } from "@/components/ui/share-button";
import { SaveStreamButton } from "@/components/watch-list/save-stream-button";
import { downloadShowIcs } from "@/lib/show-calendar";
import { calendarStart } from "@convex/lib/ics";
import type { PublicStream } from "./stream-types";

type Props = { stream: PublicStream; pageUrl: string; onCalendarAdd?: () => void };

/** Save to the watch list, add to calendar (an .ics file) and share (the native sheet, else copy the link). */
export function StreamActions({ stream, pageUrl, onCalendarAdd }: Props) {
  const canAddToCalendar =
    calendarStart(stream) !== undefined && ["SCHEDULED", "LIVE", "PAUSED"].includes(stream.streamStatus);

  function addToCalendar() {
    downloadShowIcs({ ...stream, liveShopName: stream.shop.liveShopName }, pageUrl);
    onCalendarAdd?.();
  }

  return (
    <div className="flex flex-wrap items-center gap-3">
      <SaveStreamButton streamId={stream._id} streamTitle={stream.streamTitle} variant="full" />
      {canAddToCalendar && (
        <Button variant="outline" onClick={addToCalendar}>
          <Icon name="lucide:calendar-plus" className="size-4" />
          Add to calendar
        </Button>
      )}
      <ShareButton
        data={{
          title: stream.streamTitle,
          text: `${stream.streamTitle} · ${stream.shop.liveShopName}`,
          url: pageUrl,
        }}
      />
    </div>
  );
}
