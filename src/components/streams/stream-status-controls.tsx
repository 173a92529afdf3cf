import { useEffect, useRef } from "react";
import { Button } from "@/components/ui/button";
import type { ShopStatus } from "@convex/lib/constants";
import { allowedStreamTransitions, type Actor } from "@convex/lib/lifecycle";
import { useStreamStatus, type StreamForChange } from "./stream-status-provider";

export type StreamForControls = StreamForChange;

type Props = {
  stream: StreamForControls;
  actor: Actor;
  /** When known, rules the browser can check (the shop must be active, times to schedule) answer at once. */
  shopStatus?: ShopStatus;
};

/** The lifecycle's buttons for one stream; the change shows at once and is undone if the server refuses. */
export function StreamStatusControls({ stream, actor, shopStatus }: Props) {
  const { changeStatus, errorFor, takeFocus } = useStreamStatus();
  const transitions = allowedStreamTransitions(stream.streamStatus, actor);
  const error = errorFor(stream._id);
  const groupRef = useRef<HTMLDivElement>(null);
  // A move takes the pressed button away (the row may even move to another group), and the focus with
  // it: a keyboard user goes on from the stream's new first control, not from the top of the page.
  useEffect(() => {
    if (document.activeElement && document.activeElement !== document.body) return;
    if (takeFocus(stream._id)) groupRef.current?.querySelector("button")?.focus();
  }, [stream._id, stream.streamStatus, takeFocus]);
  if (transitions.length === 0 && !error) return null;

  return (
    <div className="flex flex-col gap-2 sm:items-end">
      {transitions.length > 0 && (
        <div
          ref={groupRef}
          className="flex flex-wrap gap-2 sm:justify-end"
          role="group"
          aria-label={`Status of ${stream.streamTitle}`}
        >
          {transitions.map(({ to, label, action }) => (
            <Button
              key={to}
              size="sm"
              variant={action === "goLive" || action === "resume" ? "primary" : "outline"}
              onClick={() => void changeStatus(stream, to, { actor, shopStatus })}
            >
              {label}
            </Button>
          ))}
        </div>
      )}
      {error && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
    </div>
  );
}
