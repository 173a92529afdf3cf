import { useCallback, useEffect, useId, useRef } from "react";
import { useMenuState, type MenuName } from "./menu-state";

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex="0"]';

/** The panel's controls Tab stops at, in order (shown ones only). */
function tabStops(panel: HTMLElement | null): HTMLElement[] {
  return Array.from(panel?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? []).filter(
    (element) => element.tabIndex >= 0 && element.getClientRects().length > 0,
  );
}

/** Tab from the last stop goes to the first, Shift+Tab from the first to the last. */
function wrapTab(event: KeyboardEvent, panel: HTMLElement | null) {
  const stops = tabStops(panel);
  const first = stops[0];
  const last = stops[stops.length - 1];
  const active = document.activeElement;
  const inside = panel?.contains(active) ?? false;
  if (event.shiftKey && (active === first || !inside)) {
    event.preventDefault();
    last?.focus();
  } else if (!event.shiftKey && (active === last || !inside)) {
    event.preventDefault();
    first?.focus();
  }
}

/**
 * One of the shared menus as a disclosure (WAI-ARIA disclosure pattern): the button's props, the
 * panel's id and refs. Opening moves focus to the panel's first control; Escape and the button close
 * it and return focus to the button; a press or focus outside both closes it where it is. A `modal`
 * panel (a drawer over the page) keeps Tab inside it until it is closed.
 */
export function useDisclosure(menu: MenuName, { modal = false } = {}) {
  const [open, setOpen] = useMenuState(menu);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const panelId = useId();
  const setOpenRef = useRef(setOpen);
  useEffect(() => {
    setOpenRef.current = setOpen;
  });

  const close = useCallback((returnFocus = true) => {
    setOpenRef.current(false);
    if (returnFocus) buttonRef.current?.focus();
  }, []);

  useEffect(() => {
    if (!open) return;
    panelRef.current?.querySelector<HTMLElement>(FOCUSABLE)?.focus();
    const onKeyDown = (event: KeyboardEvent) => {
      if (modal && event.key === "Tab") wrapTab(event, panelRef.current);
      if (event.key !== "Escape") return;
      event.preventDefault();
      close();
    };
    // A press outside, or focus tabbing away, closes the menu where it is.
    const onOutside = (event: Event) => {
      const target = event.target as Node;
      if (panelRef.current?.contains(target) || buttonRef.current?.contains(target)) return;
      close(false);
    };
    document.addEventListener("keydown", onKeyDown);
    document.addEventListener("pointerdown", onOutside);
    // A modal panel's focus does not leave by Tab; only a press outside closes it.
    if (!modal) document.addEventListener("focusin", onOutside);
    return () => {
      document.removeEventListener("keydown", onKeyDown);
      document.removeEventListener("pointerdown", onOutside);
      document.removeEventListener("focusin", onOutside);
    };
  }, [open, close, modal]);

  const buttonProps = {
    ref: buttonRef,
    type: "button" as const,
    "aria-expanded": open,
    "aria-controls": panelId,
    onClick: () => (open ? close() : setOpen(true)),
  };
  return { open, close, buttonProps, panelRef, panelId };
}
