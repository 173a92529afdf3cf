import { useCallback, useEffect, useLayoutEffect, useRef, type ReactNode } from "react";
import { useBlocker, type BlockerFunction } from "react-router-dom";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";

/**
 * Keeps unsaved changes from being lost silently: a navigation inside the app while `dirty` asks first
 * (react-router's `useBlocker`, data routers only), and closing or reloading the tab gets the browser's
 * own warning (`beforeunload`). Call `allowNextNavigation()` right before navigating away after a save.
 */
export function useUnsavedChangesGuard(dirty: boolean): {
  allowNextNavigation: () => void;
  dialog: ReactNode;
} {
  const dirtyRef = useRef(dirty);
  const bypassRef = useRef(false);
  useLayoutEffect(() => {
    dirtyRef.current = dirty;
  }, [dirty]);

  const shouldBlock = useCallback<BlockerFunction>(({ currentLocation, nextLocation }) => {
    if (bypassRef.current) {
      bypassRef.current = false;
      return false;
    }
    // A change of query alone (a filter, the shop picked) keeps the form mounted, so nothing is lost.
    return dirtyRef.current && currentLocation.pathname !== nextLocation.pathname;
  }, []);
  const blocker = useBlocker(shouldBlock);

  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      event.returnValue = "";
    };
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [dirty]);

  const allowNextNavigation = useCallback(() => {
    bypassRef.current = true;
  }, []);

  const dialog = (
    <ConfirmDialog
      open={blocker.state === "blocked"}
      title="Leave without saving?"
      description="Your changes on this page have not been saved. If you leave now, they will be lost."
      confirmLabel="Leave without saving"
      cancelLabel="Stay on this page"
      destructive
      onConfirm={() => blocker.proceed?.()}
      onCancel={() => blocker.reset?.()}
    />
  );
  return { allowNextNavigation, dialog };
}
