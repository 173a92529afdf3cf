import {
  useEffect,
  useId,
  useRef,
  useState,
  type FormEvent,
  type KeyboardEvent,
  type ReactNode,
} from "react";
import { createPortal } from "react-dom";
import { TextField } from "@/components/forms/text-field";
import { Button } from "@/components/ui/button";
import { MAX_STATUS_REASON_LENGTH } from "@convex/lib/lifecycle";

type ReasonDialogProps = {
  title: string;
  description?: ReactNode;
  /** The reason field's label: who will read it. */
  reasonLabel: string;
  confirmLabel: string;
  cancelLabel?: string;
  /** While the server answers: the buttons wait. */
  pending?: boolean;
  /** The server's refusal, in words. */
  error?: string | null;
  onConfirm: (reason: string) => void;
  onCancel: () => void;
};

function focusables(root: HTMLElement | null): HTMLElement[] {
  return Array.from(
    root?.querySelectorAll<HTMLElement>("textarea:not([disabled]), button:not([disabled])") ?? [],
  );
}

/**
 * A modal that asks why before a decision the owner is told about (rejecting or suspending a shop): the
 * reason is required and at most MAX_STATUS_REASON_LENGTH characters, checked before anything is sent.
 * Like ConfirmDialog: focus starts in the field, Tab stays inside, Escape cancels, focus returns.
 * Rendered only while asking, so each question starts blank.
 */
export function ReasonDialog({
  title,
  description,
  reasonLabel,
  confirmLabel,
  cancelLabel = "Cancel",
  pending = false,
  error,
  onConfirm,
  onCancel,
}: ReasonDialogProps) {
  const titleId = useId();
  const descriptionId = useId();
  const panelRef = useRef<HTMLFormElement>(null);
  const [reason, setReason] = useState("");
  const [fieldError, setFieldError] = useState<string | undefined>();

  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    panelRef.current?.querySelector("textarea")?.focus();
    return () => previous?.focus();
  }, []);

  function submit(event: FormEvent) {
    event.preventDefault();
    const trimmed = reason.trim();
    if (trimmed === "") return setFieldError("Give a reason: the shop's owner will read it.");
    if (trimmed.length > MAX_STATUS_REASON_LENGTH)
      return setFieldError(`Keep the reason to ${MAX_STATUS_REASON_LENGTH} characters.`);
    setFieldError(undefined);
    onConfirm(trimmed);
  }

  function onKeyDown(event: KeyboardEvent) {
    if (event.key === "Escape") {
      event.preventDefault();
      if (!pending) onCancel();
      return;
    }
    if (event.key !== "Tab") return;
    const items = focusables(panelRef.current);
    const first = items[0];
    const last = items[items.length - 1];
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last?.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first?.focus();
    }
  }

  return createPortal(
    <div className="fixed inset-0 z-50 flex items-end justify-center bg-slate-950/50 p-4 sm:items-center">
      <div className="absolute inset-0" aria-hidden onClick={pending ? undefined : onCancel} />
      <form
        ref={panelRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={description ? descriptionId : undefined}
        onKeyDown={onKeyDown}
        onSubmit={submit}
        noValidate
        className="relative w-full max-w-md rounded-2xl bg-white p-6 shadow-xl dark:bg-slate-900"
      >
        <h2 id={titleId} className="text-lg font-semibold">
          {title}
        </h2>
        {description && (
          <div id={descriptionId} className="mt-2 text-sm text-slate-600 dark:text-slate-300">
            {description}
          </div>
        )}
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
        <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={onCancel} disabled={pending}>
            {cancelLabel}
          </Button>
          <Button type="submit" variant="primary" className="bg-red-600 hover:bg-red-700" disabled={pending}>
            {pending ? "Saving…" : confirmLabel}
          </Button>
        </div>
      </form>
    </div>,
    document.body,
  );
}
