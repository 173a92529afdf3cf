import { useMutation, useQuery } from "convex/react";
import type { FunctionReturnType } from "convex/server";
import { useEffect, useEffectEvent, useRef } from "react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { useNotices, type Notice } from "@/components/notices/notices";
import { paths } from "@/config/paths";
import { planClaims } from "./claim-timing";
import { withUnseenMark, withoutUnseenMark } from "./unseen-title";

type AlertId = Id<"goLiveAlerts">;
export type GoLiveAnnouncement = NonNullable<FunctionReturnType<typeof api.goLiveAlerts.claim>>;

/** The notice for a won claim; one per stream, so the same show never stacks twice. */
export function goLiveNotice({ streamId, streamTitle, liveShopName, reason }: GoLiveAnnouncement): Notice {
  return {
    id: `go-live-${streamId}`,
    tone: "live",
    title: `${streamTitle} is live now`,
    body:
      reason === "saved"
        ? `A show you saved · ${liveShopName}`
        : `${liveShopName}, a shop you follow, just went live`,
    href: paths.stream.getHref(streamId),
    linkLabel: "Watch now",
  };
}

function isVisible(): boolean {
  return document.visibilityState === "visible";
}

/**
 * Announces the signed-in person's go-live alerts in this tab (issue 8, decision 021). It watches the
 * alerts no tab has claimed yet and claims each once, at once when the tab is visible and after a short
 * grace when hidden (claim-timing.ts); only the claim the server lets win shows a notice, so one event
 * is announced once, in one tab. Renders nothing itself: the notices region is the live region.
 */
export function GoLiveAlerts() {
  const pending = useQuery(api.goLiveAlerts.myPendingAlerts, {});
  const claim = useMutation(api.goLiveAlerts.claim);
  return <GoLiveAnnouncer pending={pending} claim={claim} />;
}

type PendingAlerts = FunctionReturnType<typeof api.goLiveAlerts.myPendingAlerts>;

/**
 * When to claim which alert, and what a won claim shows: `pending` is the live list (undefined while it
 * loads), `claim` the server's claim. Apart from the data so that its timing is tested on its own, with
 * fake timers (the wiring to the server is tested on the real client).
 */
export function GoLiveAnnouncer({
  pending,
  claim,
}: {
  pending: PendingAlerts | undefined;
  claim: (args: { alertId: AlertId }) => Promise<GoLiveAnnouncement | null>;
}) {
  const { show } = useNotices();
  // Kept for the tab's life, across re-renders and StrictMode's second effect run, so this tab claims
  // an alert at most once. Both grow by one entry per alert seen: a handful a day.
  const tried = useRef(new Set<AlertId>());
  const firstSeenAt = useRef(new Map<AlertId, number>());
  // A claim answered after sign-out (the component is gone) announces nothing.
  const mounted = useRef(false);

  const claimAndAnnounce = useEffectEvent((alertId: AlertId) => {
    claim({ alertId }).then(
      (announcement) => {
        if (!announcement || !mounted.current) return;
        show(goLiveNotice(announcement));
        if (!isVisible()) document.title = withUnseenMark(document.title);
      },
      // Gone, signed out meanwhile, or refused: not the person's doing, and not worth a retry.
      (error: unknown) => console.warn("A go-live alert could not be claimed:", error),
    );
  });

  useEffect(() => {
    mounted.current = true;
    const unmark = () => {
      if (isVisible()) document.title = withoutUnseenMark(document.title);
    };
    document.addEventListener("visibilitychange", unmark);
    return () => {
      mounted.current = false;
      document.removeEventListener("visibilitychange", unmark);
      document.title = withoutUnseenMark(document.title);
    };
  }, []);

  useEffect(() => {
    if (pending === undefined) return;
    const pendingIds = pending.map((alert) => alert._id);
    let timer: number | undefined;
    const run = () => {
      window.clearTimeout(timer);
      // A steady clock: a wall clock set back would stretch a hidden tab's grace.
      const now = performance.now();
      for (const id of pendingIds) if (!firstSeenAt.current.has(id)) firstSeenAt.current.set(id, now);
      const plan = planClaims({
        pendingIds,
        tried: tried.current,
        firstSeenAt: firstSeenAt.current,
        visible: isVisible(),
        now,
      });
      for (const id of plan.claimNow) {
        tried.current.add(id);
        claimAndAnnounce(id);
      }
      if (plan.recheckInMs !== null) timer = window.setTimeout(run, plan.recheckInMs);
    };
    run();
    // Coming back to a hidden tab claims what it was waiting on, without waiting out the grace.
    document.addEventListener("visibilitychange", run);
    return () => {
      window.clearTimeout(timer);
      document.removeEventListener("visibilitychange", run);
    };
  }, [pending]);

  return null;
}
