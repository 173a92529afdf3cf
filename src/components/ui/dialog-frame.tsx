import { useEffect, useId, useRef, type FormEvent, type KeyboardEvent, type ReactNode } from "react";
import { createPortal } from "react-dom";

type DialogFrameProps = {
  /** `alertdialog` for a question with answers only; `dialog` when it holds a form. */
  role: "dialog" | "alertdialog";
  title: string;
  description?: ReactNode;
  /** Escape or a click on the backdrop; absent while the dialog must stay (a save in flight). */
  onDismiss?: () => void;
  /** Where focus starts: the panel's element this returns, else its first focusable one. */
  initialFocus?: (panel: HTMLElement) => HTMLElement | null;
  /** Given, the panel is a form submitted by its submit button or Enter. */
  onSubmit?: (event: FormEvent<HTMLFormElement>) => void;
  /** The body under the description, then the answers. */
  children: ReactNode;
};

const FOCUSABLE =
  "input:not([disabled]), textarea:not([disabled]), select:not([disabled]), button:not([disabled])";

function focusables(root: HTMLElement | null): HTMLElement[] {
  return Array.from(root?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? []);
}

/**
 * A modal panel over the page (WAI-ARIA dialog pattern), mounted only while open: focus moves in,
 * Tab stays inside, Escape or the backdrop dismisses, and focus returns to where it was on unmount.
 * ConfirmDialog and the forms that ask for a reason share it.
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
  const panelRef = useRef<HTMLElement>(null);
  // Read once on mount: the first focus is the dialog's opening, not a reaction to later renders.
  const initialFocusRef = useRef(initialFocus);

  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const panel = panelRef.current;
    if (panel) (initialFocusRef.current?.(panel) ?? focusables(panel)[0])?.focus();
    return () => previous?.focus();
  }, []);

  function onKeyDown(event: KeyboardEvent) {
    if (event.key === "Escape") {
      event.preventDefault();
      onDismiss?.();
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

  const panelProps = {
    role,
    "aria-modal": true,
    "aria-labelledby": titleId,
    "aria-describedby": description ? descriptionId : undefined,
    onKeyDown,
    className: "relative w-full max-w-md rounded-2xl bg-white p-6 shadow-xl dark:bg-slate-900",
  } as const;
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
    <div className="fixed inset-0 z-50 flex items-end justify-center bg-slate-950/50 p-4 sm:items-center">
      <div className="absolute inset-0" aria-hidden onClick={onDismiss} />
      {onSubmit ? (
        <form
          ref={(node) => {
            panelRef.current = node;
          }}
          {...panelProps}
          onSubmit={onSubmit}
          noValidate
        >
          {content}
        </form>
      ) : (
        <div
          ref={(node) => {
            panelRef.current = node;
          }}
          {...panelProps}
        >
          {content}
        </div>
      )}
    </div>,
    document.body,
  );
}

/** The row of answers at the foot of a dialog: stacked on a phone (main answer on top), in a row above. */
export function DialogActions({ children }: { children: ReactNode }) {
  return <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">{children}</div>;
}
