import { useCallback, useEffect, useLayoutEffect, useMemo, useRef } from "react";

export type RefusalHandOff = {
  /**
   * Shows the server's refusal with `show`, beside what it refused; once that part of the page is gone
   * (or when it already is), the refusal goes to `onOrphaned` instead.
   */
  refuse: (message: string, show: (message: string) => void) => void;
  /** The refusal shown was read or replaced (a new try, the dialog closed): nothing to hand on. */
  clear: () => void;
};

/**
 * A refusal that outlives what it refused. A live list can drop a row while its action is with the
 * server (another admin decided the shop, answered the request): the row's dialog or form goes, and the
 * refusal with it. The page hands `onOrphaned` to such a row so the words reach the person anyway.
 */
export function useRefusalHandOff(onOrphaned: ((message: string) => void) | undefined): RefusalHandOff {
  const mounted = useRef(false);
  const shown = useRef<string | null>(null);
  const latest = useRef(onOrphaned);
  useLayoutEffect(() => {
    latest.current = onOrphaned;
  });
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      if (shown.current !== null) latest.current?.(shown.current);
      shown.current = null;
    };
  }, []);

  const refuse = useCallback((message: string, show: (message: string) => void) => {
    if (!mounted.current) {
      latest.current?.(message);
      return;
    }
    shown.current = message;
    show(message);
  }, []);
  const clear = useCallback(() => {
    shown.current = null;
  }, []);
  return useMemo(() => ({ refuse, clear }), [refuse, clear]);
}
