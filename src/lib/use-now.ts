import { useEffect, useState } from "react";
import { useHydrating, usePageData } from "./page-data";

/**
 * The current time, refreshed every `intervalMs`, for pages that compare times with "now". While a
 * server-rendered page hydrates, the time the server drew it at (decision 040), so the first render
 * matches its HTML; the browser's own clock from the render after.
 */
export function useNow(intervalMs = 60_000): number {
  const [now, setNow] = useState(() => Date.now());
  const page = usePageData();
  const hydrating = useHydrating();
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), intervalMs);
    return () => window.clearInterval(timer);
  }, [intervalMs]);
  return hydrating && page ? page.data.now : now;
}
