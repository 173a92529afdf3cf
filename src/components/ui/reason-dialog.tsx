import { useState, type FormEvent, type ReactNode } from "react";
import { TextField } from "@/components/forms/text-field";
import { Button } from "@/components/ui/button";
import { DialogActions, DialogFrame } from "@/components/ui/dialog-frame";
import { MAX_STATUS_REASON_LENGTH } from "@convex/lib/lifecycle";

type ReasonDialogProps = {
  title: string;
  description?: ReactNode;
  /** The reason field's label: who will read it. */
  reasonLabel: string;
  /** Who reads the reason, for the sentence shown when it is left blank. */
  reader?: string;
  confirmLabel: string;
  cancelLabel?: string;
  /** While the server answers: the buttons wait. */
  pending?: boolean;
  /** The server's refusal, in words. */
  error?: string | null;
  onConfirm: (reason: string) => void;
  onCancel: () => void;
};

/**
 * A modal that asks why before a decision the owner is told about (rejecting or suspending a shop,
 * ending or cancelling someone else's stream): the reason is required and at most
 * MAX_STATUS_REASON_LENGTH characters (its counter shows the limit), checked before anything is sent.
 * Like ConfirmDialog: focus starts in the field, Tab stays inside, Escape cancels, focus returns.
 * Rendered only while asking, so each question starts blank.
 */
export function ReasonDialog({
  title,
  description,
  reasonLabel,
  reader = "the shop's owner",
  confirmLabel,
  cancelLabel = "Cancel",
  pending = false,
  error,
  onConfirm,
  onCancel,
}: ReasonDialogProps) {
  const [reason, setReason] = useState("");
  const [fieldError, setFieldError] = useState<string | undefined>();

  function submit(event: FormEvent) {
    event.preventDefault();
    const trimmed = reason.trim();
    if (trimmed === "") return setFieldError(`Give a reason: ${reader} will read it.`);
    if (trimmed.length > MAX_STATUS_REASON_LENGTH)
      return setFieldError(`Keep the reason to ${MAX_STATUS_REASON_LENGTH} characters.`);
    setFieldError(undefined);
    onConfirm(trimmed);
  }

  return (
    <DialogFrame
      role="dialog"
      title={title}
      description={description}
      onDismiss={pending ? undefined : onCancel}
      initialFocus={(panel) => panel.querySelector("textarea")}
      onSubmit={submit}
    >
      <TextField
        className="mt-4"
        label={reasonLabel}
        name="reason"
        value={reason}
        onChange={(value) => {
          setReason(value);
          if (fieldError) setFieldError(undefined);
        }}
        error={fieldError}
        max={MAX_STATUS_REASON_LENGTH}
        multiline
        rows={3}
      />
      {error && (
        <p role="alert" className="mt-3 text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
      <DialogActions>
        <Button variant="outline" onClick={onCancel} disabled={pending}>
          {cancelLabel}
        </Button>
        <Button type="submit" variant="primary" className="bg-red-600 hover:bg-red-700" disabled={pending}>
          {pending ? "Saving…" : confirmLabel}
        </Button>
      </DialogActions>
    </DialogFrame>
  );
}
