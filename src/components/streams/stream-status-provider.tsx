import { useMutation } from "convex/react";
import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from "react";
import type { ConfirmOptions } from "@/components/ui/use-confirm";
import { useReasonedAction } from "@/components/ui/use-reasoned-action";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import type { ShopStatus, StreamStatus } from "@convex/lib/constants";
import {
  checkStreamTransition,
  findStreamRule,
  streamMoveNeedsReason,
  type Actor,
} from "@convex/lib/lifecycle";
import { applyStreamStatusLocally } from "./optimistic-stream-status";

/** Ending and cancelling cannot be undone, so they ask first (an admin's, for someone else's stream, also why). */
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
  /** True once for the stream last moved: its controls take back the focus its pressed button lost. */
  takeFocus: (streamId: Id<"streams">) => boolean;
};

const StreamStatusContext = createContext<StreamStatusContextValue | null>(null);

type StatusMove = { streamId: Id<"streams">; to: StreamStatus; streamTitle: string };

/**
 * Owns the seller's status changes for a page: the optimistic mutation, one confirm dialog (or, for an
 * admin ending or cancelling someone else's stream, one reason dialog), and the last refusal per
 * stream. Kept above the lists because a stream changing status moves to another group, which
 * remounts its row: a message kept in the row would vanish with the rollback.
 */
export function StreamStatusProvider({ children }: { children: ReactNode }) {
  const mutation = useMutation(api.streams.setStreamStatus);
  const setStreamStatus = useMemo(() => mutation.withOptimisticUpdate(applyStreamStatusLocally), [mutation]);
  const [errors, setErrors] = useState<Partial<Record<Id<"streams">, string>>>({});
  const lastMoved = useRef<Id<"streams"> | null>(null);
  const takeFocus = useCallback((streamId: Id<"streams">) => {
    if (lastMoved.current !== streamId) return false;
    lastMoved.current = null;
    return true;
  }, []);

  const setError = useCallback((streamId: Id<"streams">, message: string | undefined) => {
    setErrors((current) => ({ ...current, [streamId]: message }));
  }, []);

  const { perform, askReason, dialogs } = useReasonedAction<StatusMove>({
    run: ({ streamId, to }, reason) =>
      setStreamStatus({ streamId, status: to, ...(reason !== undefined && { reason }) }),
    // A reason is asked only for ending and cancelling, which always have a question.
    reasonQuestion: ({ to, streamTitle }) => ({
      ...(confirmation(to, streamTitle) ?? { title: `Change “${streamTitle}”?`, confirmLabel: "Save" }),
      reasonLabel: "Reason, shown to the stream's seller",
      reader: "the stream's seller",
    }),
    onStart: ({ streamId }) => setError(streamId, undefined),
    onError: ({ streamId }, message) => setError(streamId, message),
  });

  const changeStatus = useCallback(
    async (stream: StreamForChange, to: StreamStatus, { actor, shopStatus }: Context) => {
      const streamId = stream._id;
      lastMoved.current = streamId;
      const from = stream.streamStatus;
      if (shopStatus !== undefined) {
        const decision = checkStreamTransition({ from, to, actor, stream, shopStatus, now: Date.now() });
        // The reason is asked for next.
        if (!decision.ok && decision.code !== "REASON_REQUIRED") return setError(streamId, decision.message);
      }
      const question = confirmation(to, stream.streamTitle);
      const rule = findStreamRule(from, to);
      if (question && rule && streamMoveNeedsReason(rule.action, actor)) {
        askReason({ streamId, to, streamTitle: stream.streamTitle });
        return;
      }
      await perform({ streamId, to, streamTitle: stream.streamTitle }, question);
    },
    [askReason, perform, setError],
  );

  const value = useMemo<StreamStatusContextValue>(
    () => ({ changeStatus, errorFor: (streamId) => errors[streamId], takeFocus }),
    [changeStatus, errors, takeFocus],
  );
  return (
    <StreamStatusContext value={value}>
      {children}
      {dialogs}
    </StreamStatusContext>
  );
}

export function useStreamStatus(): StreamStatusContextValue {
  const value = useContext(StreamStatusContext);
  if (!value) throw new Error("Stream status controls need a StreamStatusProvider above them.");
  return value;
}
