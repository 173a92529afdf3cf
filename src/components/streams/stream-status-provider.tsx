import { useMutation } from "convex/react";
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from "react";
import { useConfirm, type ConfirmOptions } from "@/components/ui/use-confirm";
import { errorMessage } from "@/lib/errors";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import type { ShopStatus, StreamStatus } from "@convex/lib/constants";
import { checkStreamTransition, type Actor } from "@convex/lib/lifecycle";
import { applyStreamStatusLocally } from "./optimistic-stream-status";

/** Ending and cancelling cannot be undone, so they ask first. */
function confirmation(to: StreamStatus, title: string): ConfirmOptions | null {
  if (to === "ENDED")
    return {
      title: `End “${title}” now?`,
      description: "Viewers will see the show as ended. This cannot be undone.",
      confirmLabel: "End stream",
      cancelLabel: "Keep streaming",
      destructive: true,
    };
  if (to === "CANCELLED")
    return {
      title: `Cancel “${title}”?`,
      description: "Its page will show it as cancelled. This cannot be undone.",
      confirmLabel: "Cancel stream",
      cancelLabel: "Keep it",
      destructive: true,
    };
  return null;
}

export type StreamForChange = {
  _id: Id<"streams">;
  streamTitle: string;
  streamStatus: StreamStatus;
  streamStartUTC?: number;
  streamStopUTC?: number;
};

/** When the shop's status is known, rules the browser can check (active shop, times to schedule) answer at once. */
type Context = { actor: Actor; shopStatus?: ShopStatus };

type StreamStatusContextValue = {
  changeStatus: (stream: StreamForChange, to: StreamStatus, context: Context) => Promise<void>;
  errorFor: (streamId: Id<"streams">) => string | undefined;
};

const StreamStatusContext = createContext<StreamStatusContextValue | null>(null);

/**
 * Owns the seller's status changes for a page: the optimistic mutation, one confirm dialog, and the
 * last refusal per stream. Kept above the lists because a stream changing status moves to another
 * group, which remounts its row: a message kept in the row would vanish with the rollback.
 */
export function StreamStatusProvider({ children }: { children: ReactNode }) {
  const mutation = useMutation(api.streams.setStreamStatus);
  const setStreamStatus = useMemo(() => mutation.withOptimisticUpdate(applyStreamStatusLocally), [mutation]);
  const [confirm, dialog] = useConfirm();
  const [errors, setErrors] = useState<Partial<Record<Id<"streams">, string>>>({});

  const setError = useCallback((streamId: Id<"streams">, message: string | undefined) => {
    setErrors((current) => ({ ...current, [streamId]: message }));
  }, []);

  const changeStatus = useCallback(
    async (stream: StreamForChange, to: StreamStatus, { actor, shopStatus }: Context) => {
      const streamId = stream._id;
      if (shopStatus !== undefined) {
        const from = stream.streamStatus;
        const decision = checkStreamTransition({ from, to, actor, stream, shopStatus, now: Date.now() });
        if (!decision.ok) return setError(streamId, decision.message);
      }
      const question = confirmation(to, stream.streamTitle);
      if (question && !(await confirm(question))) return;
      setError(streamId, undefined);
      try {
        await setStreamStatus({ streamId, status: to });
      } catch (caught) {
        setError(streamId, errorMessage(caught));
      }
    },
    [confirm, setError, setStreamStatus],
  );

  const value = useMemo<StreamStatusContextValue>(
    () => ({ changeStatus, errorFor: (streamId) => errors[streamId] }),
    [changeStatus, errors],
  );
  return (
    <StreamStatusContext value={value}>
      {children}
      {dialog}
    </StreamStatusContext>
  );
}

export function useStreamStatus(): StreamStatusContextValue {
  const value = useContext(StreamStatusContext);
  if (!value) throw new Error("Stream status controls need a StreamStatusProvider above them.");
  return value;
}
