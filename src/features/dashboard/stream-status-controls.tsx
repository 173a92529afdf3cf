import { useMutation } from "convex/react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { errorMessage } from "@/lib/errors";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import type { StreamStatus } from "@convex/lib/constants";
import { allowedStreamTransitions, type Actor } from "@convex/lib/lifecycle";

/** Ending and cancelling cannot be undone, so they ask first. */
const CONFIRM: Partial<Record<StreamStatus, string>> = {
  ENDED: "End this stream now? Viewers will see it as ended; this cannot be undone.",
  CANCELLED: "Cancel this stream? Its page will show it as cancelled; this cannot be undone.",
};

type Props = { streamId: Id<"streams">; streamTitle: string; status: StreamStatus; actor: Actor };

export function StreamStatusControls({ streamId, streamTitle, status, actor }: Props) {
  const setStreamStatus = useMutation(api.streams.setStreamStatus);
  const [pending, setPending] = useState<StreamStatus | null>(null);
  const [error, setError] = useState<string | null>(null);
  const transitions = allowedStreamTransitions(status, actor);
  if (transitions.length === 0) return null;

  async function change(to: StreamStatus) {
    const question = CONFIRM[to];
    if (question && !window.confirm(question)) return;
    setPending(to);
    setError(null);
    try {
      await setStreamStatus({ streamId, status: to });
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setPending(null);
    }
  }

  return (
    <div className="flex flex-col items-end gap-2">
      <div className="flex flex-wrap justify-end gap-2" role="group" aria-label={`Status of ${streamTitle}`}>
        {transitions.map(({ to, label, action }) => (
          <Button
            key={to}
            size="sm"
            variant={action === "goLive" || action === "resume" ? "primary" : "outline"}
            disabled={pending !== null}
            onClick={() => void change(to)}
          >
            {pending === to ? `${label}…` : label}
          </Button>
        ))}
      </div>
      {error && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
    </div>
  );
}
