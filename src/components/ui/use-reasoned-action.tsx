import { useCallback, useLayoutEffect, useRef, useState, type ReactNode } from "react";
import { errorMessage } from "@/lib/errors";
import { useRefusalHandOff } from "@/lib/use-refusal-hand-off";
import { ReasonDialog } from "./reason-dialog";
import { useConfirm, type ConfirmOptions } from "./use-confirm";

/** What the reason dialog says for one move: the question, and who reads the reason. */
export type ReasonQuestion = Pick<
  ConfirmOptions,
  "title" | "description" | "confirmLabel" | "cancelLabel"
> & {
  reasonLabel: string;
  reader?: string;
};

type ReasonedActionOptions<Move> = {
  /** Sends the move (with the reason, when one was asked for); rejects with the server's refusal. */
  run: (move: Move, reason?: string) => Promise<unknown>;
  /** The question the reason dialog asks for `move`. */
  reasonQuestion: (move: Move) => ReasonQuestion;
  /** After the server took a move. */
  onDone?: (move: Move) => void;
  /**
   * A refusal of a move that asked no reason; one that did is shown in its dialog instead, and comes here
   * too if the dialog's row leaves the page (a live list dropped it) before it was read.
   */
  onError: (move: Move, message: string) => void;
  /** Before a move is sent (its earlier refusal can be cleared). */
  onStart?: (move: Move) => void;
};

export type ReasonedAction<Move> = {
  /** While a move is with the server. */
  pending: boolean;
  /** Asks `question` first when there is one (a false answer sends nothing), then sends the move. */
  perform: (move: Move, question: ConfirmOptions | null) => Promise<void>;
  /** Asks why in a dialog, then sends the move with the reason; a refusal stays in the dialog. */
  askReason: (move: Move) => void;
  /** The confirm and reason dialogs: render them once. */
  dialogs: ReactNode;
};

/**
 * A moderation move that asks first: a plain confirmation, or a reason its owner will read (rejecting
 * or suspending a shop, ending or cancelling someone else's stream). One place for the waiting, the
 * refusals in words and the dialogs, shared by the admin console and the seller's stream controls.
 */
export function useReasonedAction<Move>(options: ReasonedActionOptions<Move>): ReasonedAction<Move> {
  const [confirm, confirmDialog] = useConfirm();
  const [pending, setPending] = useState(false);
  const [asking, setAsking] = useState<{ move: Move } | null>(null);
  const [reasonError, setReasonError] = useState<string | null>(null);
  // The latest callbacks, so `perform` and `askReason` stay the same functions between renders.
  const latest = useRef(options);
  useLayoutEffect(() => {
    latest.current = options;
  });
  // Only a move that asked a reason has its refusal shown in place: the dialog's move is the one refused.
  const handOff = useRefusalHandOff((message) => {
    if (asking) latest.current.onError(asking.move, message);
  });

  /** True when the server took it. */
  const send = useCallback(
    async (move: Move, reason?: string): Promise<boolean> => {
      const { run, onDone, onError, onStart } = latest.current;
      handOff.clear();
      setPending(true);
      onStart?.(move);
      try {
        await run(move, reason);
        onDone?.(move);
        return true;
      } catch (caught) {
        if (reason !== undefined) handOff.refuse(errorMessage(caught), setReasonError);
        else onError(move, errorMessage(caught));
        return false;
      } finally {
        setPending(false);
      }
    },
    [handOff],
  );

  const perform = useCallback(
    async (move: Move, question: ConfirmOptions | null) => {
      if (question && !(await confirm(question))) return;
      await send(move);
    },
    [confirm, send],
  );

  const askReason = useCallback(
    (move: Move) => {
      handOff.clear();
      setReasonError(null);
      setAsking({ move });
    },
    [handOff],
  );

  const dialogs = (
    <>
      {confirmDialog}
      {asking && (
        <ReasonDialog
          {...options.reasonQuestion(asking.move)}
          pending={pending}
          error={reasonError}
          onCancel={() => {
            handOff.clear();
            setAsking(null);
          }}
          onConfirm={(reason) =>
            void send(asking.move, reason).then((done) => {
              if (done) setAsking(null);
            })
          }
        />
      )}
    </>
  );
  return { pending, perform, askReason, dialogs };
}
