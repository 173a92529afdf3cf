import { useRef, type ReactNode } from "react";
import { Button } from "./button";
import { DialogActions, DialogFrame } from "./dialog-frame";

export type ConfirmDialogProps = {
  open: boolean;
  title: string;
  description?: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  /** Styles the confirm button as a warning, for actions that cannot easily be undone. */
  destructive?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
};

/**
 * A modal question with two answers (WAI-ARIA alert dialog pattern): focus starts on the safe answer,
 * Tab stays inside, Escape or a click on the backdrop cancels, and focus returns to where it was.
 */
export function ConfirmDialog({
  open,
  title,
  description,
  confirmLabel,
  cancelLabel = "Cancel",
  destructive = false,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  if (!open) return null;
  return (
    <DialogFrame
      role="alertdialog"
      title={title}
      description={description}
      onDismiss={onCancel}
      initialFocus={() => cancelRef.current}
    >
      <DialogActions>
        <Button ref={cancelRef} variant="outline" onClick={onCancel}>
          {cancelLabel}
        </Button>
        <Button
          variant="primary"
          className={destructive ? "bg-red-600 hover:bg-red-700" : undefined}
          onClick={onConfirm}
        >
          {confirmLabel}
        </Button>
      </DialogActions>
    </DialogFrame>
  );
}
