import { useEffect, useState } from "react";

/** A short status note ("Copied") that clears itself after `ms`; setting it again restarts the wait. */
export function useTransientNote(ms = 4000): [string | null, (note: string | null) => void] {
  const [note, setNote] = useState<string | null>(null);
  useEffect(() => {
    if (!note) return;
    const timer = window.setTimeout(() => setNote(null), ms);
    return () => window.clearTimeout(timer);
  }, [note, ms]);
  return [note, setNote];
}
