import { useCallback, useEffect, useId, useRef } from "react";
import { useMenuState, type MenuName } from "./menu-state";

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select, [tabindex="0"]';

/**
 * One of the shared menus as a disclosure (WAI-ARIA disclosure pattern): the button's props, the
 * panel's id and refs. Opening moves focus to the panel's first control; Escape and the button close
 * it and return focus to the button; a press or focus outside both closes it where it is.
 */
export function useDisclosure(menu: MenuName) {
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
    document.addEventListener("focusin", onOutside);
    return () => {
      document.removeEventListener("keydown", onKeyDown);
      document.removeEventListener("pointerdown", onOutside);
      document.removeEventListener("focusin", onOutside);
    };
  }, [open, close]);

  const buttonProps = {
    ref: buttonRef,
    type: "button" as const,
    "aria-expanded": open,
    "aria-controls": panelId,
    onClick: () => (open ? close() : setOpen(true)),
  };
  return { open, close, buttonProps, panelRef, panelId };
}
