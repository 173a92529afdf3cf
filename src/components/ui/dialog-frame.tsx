import { useEffect, useId, useRef, type FormEvent, type ReactNode } from "react";
import { createPortal } from "react-dom";

type DialogFrameProps = {
  /** `alertdialog` for a question with answers only; `dialog` when it holds a form. */
  role: "dialog" | "alertdialog";
  title: string;
  description?: ReactNode;
  /** Escape or a click on the backdrop; absent while the dialog must stay (a save in flight). */
  onDismiss?: () => void;
  /** Where focus starts: the dialog's element this returns, else the browser's choice (its first focusable). */
  initialFocus?: (dialog: HTMLElement) => HTMLElement | null;
  /** Given, the panel is a form submitted by its submit button or Enter. */
  onSubmit?: (event: FormEvent<HTMLFormElement>) => void;
  /** The body under the description, then the answers. */
  children: ReactNode;
};

/**
 * A modal panel over the page: the platform's `<dialog>` opened with `showModal()`, mounted only while
 * open. The browser makes the rest of the page inert, keeps Tab (links and `[tabindex]` included) inside,
 * and sends Escape as `cancel`; the page behind stops scrolling (index.css). Escape or a click on the
 * backdrop dismisses, and focus returns to where it was on unmount. ConfirmDialog and the forms that ask
 * for a reason share it. Portalled to `<body>`, so a dialog holding a form is never inside another form.
 */
export function DialogFrame({
  role,
  title,
  description,
  onDismiss,
  initialFocus,
  onSubmit,
  children,
}: DialogFrameProps) {
  const titleId = useId();
  const descriptionId = useId();
  const dialogRef = useRef<HTMLDialogElement>(null);
  // Read once on mount: the first focus is the dialog's opening, not a reaction to later renders.
  const initialFocusRef = useRef(initialFocus);
  // The latest handler, for the native listeners added once.
  const dismissRef = useRef(onDismiss);
  useEffect(() => {
    dismissRef.current = onDismiss;
  }, [onDismiss]);
  // Where a press started: a click counts as on the backdrop only when it also started there.
  const pressedBackdrop = useRef(false);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    let closing = false;
    dialog.showModal();
    initialFocusRef.current?.(dialog)?.focus();

    // Escape: the browser asks with `cancel`; the owner of the dialog decides (it unmounts it).
    const onCancel = (event: Event) => {
      event.preventDefault();
      dismissRef.current?.();
    };
    // The browser may close it anyway (a second Escape without user activation): the owner hears of
    // it as a dismissal, or, while it must stay, it opens again. `close` arrives as a later task, so one
    // from an earlier close (React's development remount closes and reopens it) finds it open: ignored.
    const onClose = () => {
      if (closing || dialog.open) return;
      if (dismissRef.current) dismissRef.current();
      else dialog.showModal();
    };
    dialog.addEventListener("cancel", onCancel);
    dialog.addEventListener("close", onClose);
    return () => {
      closing = true;
      dialog.removeEventListener("cancel", onCancel);
      dialog.removeEventListener("close", onClose);
      dialog.close();
      previous?.focus();
    };
  }, []);

  const panelClass = "p-6";
  const content = (
    <>
      <h2 id={titleId} className="text-lg font-semibold">
        {title}
      </h2>
      {description && (
        <div id={descriptionId} className="mt-2 text-sm text-slate-600 dark:text-slate-300">
          {description}
        </div>
      )}
      {children}
    </>
  );

  return createPortal(
    <dialog
      ref={dialogRef}
      role={role}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      // The panel fills the dialog, so a press on the dialog element itself is on its backdrop.
      onPointerDown={(event) => {
        pressedBackdrop.current = event.target === event.currentTarget;
      }}
      onClick={(event) => {
        if (event.target === event.currentTarget && pressedBackdrop.current) onDismiss?.();
        pressedBackdrop.current = false;
      }}
      className="m-auto mb-4 max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] max-w-md overflow-y-auto overscroll-contain rounded-2xl bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-950/50 sm:mb-auto dark:bg-slate-900 dark:text-slate-100"
    >
      {onSubmit ? (
        <form className={panelClass} onSubmit={onSubmit} noValidate>
          {content}
        </form>
      ) : (
        <div className={panelClass}>{content}</div>
      )}
    </dialog>,
    document.body,
  );
}

/** The row of answers at the foot of a dialog: stacked on a phone (main answer on top), in a row above. */
export function DialogActions({ children }: { children: ReactNode }) {
  return <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">{children}</div>;
}
