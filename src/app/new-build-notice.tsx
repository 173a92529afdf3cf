import { useEffect, useState } from "react";
import type { createBrowserRouter } from "react-router-dom";
import { Button } from "@/components/ui/button";
import { BUILD_POLL_INTERVAL_MS, CURRENT_BUILD_ID, fetchLatestBuildId, isNewBuild } from "@/lib/new-build";

type AppRouter = Pick<ReturnType<typeof createBrowserRouter>, "subscribe" | "state">;

/** Whether a newer build than this one is out: polled every 5 minutes and when the tab comes back. */
export function useNewBuildAvailable(currentId = CURRENT_BUILD_ID): boolean {
  const [available, setAvailable] = useState(false);
  useEffect(() => {
    if (!currentId || available) return;
    let cancelled = false;
    const check = () =>
      void fetchLatestBuildId().then((latest) => {
        if (!cancelled && isNewBuild(currentId, latest)) setAvailable(true);
      });
    const onVisible = () => {
      if (document.visibilityState === "visible") check();
    };
    const timer = window.setInterval(check, BUILD_POLL_INTERVAL_MS);
    document.addEventListener("visibilitychange", onVisible);
    window.addEventListener("focus", check);
    return () => {
      cancelled = true;
      window.clearInterval(timer);
      document.removeEventListener("visibilitychange", onVisible);
      window.removeEventListener("focus", check);
    };
  }, [currentId, available]);
  return available;
}

/**
 * Offers a reload when a new build is out, and otherwise reloads at the next navigation: the URL has
 * already changed then, so the reload opens the new page with the new build instead of an old chunk.
 */
export function NewBuildNotice({ router, currentId }: { router: AppRouter; currentId?: string }) {
  const available = useNewBuildAvailable(currentId);
  const [dismissed, setDismissed] = useState(false);

  useEffect(() => {
    if (!available) return;
    let location = router.state.location;
    return router.subscribe((state) => {
      // A new page, not a changed filter on the same page: a reload there would be a surprise.
      if (state.location.pathname !== location.pathname) window.location.reload();
      location = state.location;
    });
  }, [available, router]);

  if (!available || dismissed) return null;
  return (
    <div
      role="status"
      className="fixed inset-x-4 bottom-4 z-50 mx-auto flex max-w-md flex-wrap items-center gap-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-lg sm:inset-x-auto sm:right-4 dark:border-slate-700 dark:bg-slate-900"
    >
      <p className="flex-1 text-sm">A new version of LiveLocal is available.</p>
      <Button size="sm" onClick={() => window.location.reload()}>
        Reload
      </Button>
      <Button size="sm" variant="ghost" onClick={() => setDismissed(true)}>
        Later
      </Button>
    </div>
  );
}
