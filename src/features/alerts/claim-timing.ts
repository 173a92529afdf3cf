/**
 * When a tab claims a go-live alert (issue 8, decision 021). Every open tab of the person sees the same
 * waiting alerts and the server lets only the first claim announce. A visible tab claims at once; a
 * hidden one waits a little first, so the tab the person is looking at wins whenever there is one, and
 * when every tab is hidden one of them still announces (the notice waits there for their return).
 */

/** How long a hidden tab waits, from first seeing an alert, before claiming it anyway. */
export const HIDDEN_TAB_GRACE_MS = 4000;

export type ClaimPlanInput<Id extends string> = {
  /** The alerts waiting now, as the server lists them. */
  pendingIds: readonly Id[];
  /** Alerts this tab has already claimed (or tried to): never claimed again. */
  tried: ReadonlySet<Id>;
  /** When this tab first saw each alert (same clock as `now`); a missing one counts as seen now. */
  firstSeenAt: ReadonlyMap<Id, number>;
  /** Whether the tab is visible (`document.visibilityState === "visible"`). */
  visible: boolean;
  now: number;
};

export type ClaimPlan<Id extends string> = {
  /** Alerts to claim now, in the server's order. */
  claimNow: Id[];
  /** When to look again for alerts still in their grace, or null when none is waiting. */
  recheckInMs: number | null;
};

/** Which waiting alerts this tab claims now, and when to look again for the rest. */
export function planClaims<Id extends string>({
  pendingIds,
  tried,
  firstSeenAt,
  visible,
  now,
}: ClaimPlanInput<Id>): ClaimPlan<Id> {
  const claimNow: Id[] = [];
  let recheckInMs: number | null = null;
  for (const id of pendingIds) {
    if (tried.has(id) || claimNow.includes(id)) continue;
    // A clock that went back counts as no time waited, so the wait never exceeds the grace.
    const waited = Math.max(0, now - (firstSeenAt.get(id) ?? now));
    if (visible || waited >= HIDDEN_TAB_GRACE_MS) {
      claimNow.push(id);
    } else {
      const left = HIDDEN_TAB_GRACE_MS - waited;
      recheckInMs = recheckInMs === null ? left : Math.min(recheckInMs, left);
    }
  }
  return { claimNow, recheckInMs };
}
