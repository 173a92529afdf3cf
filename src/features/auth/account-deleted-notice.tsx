import { useConvexAuth } from "convex/react";
import { Button } from "@/components/ui/button";
import { Icon } from "@/components/ui/icon";
import { ACCOUNT_DELETED_MESSAGE, useAccountDeleted } from "./current-user";

/**
 * Above every page once the person's account was deleted while they were here (an approved deletion
 * request): what happened, and that the session is over, until they dismiss it.
 */
export function AccountDeletedNotice() {
  const { isAuthenticated } = useConvexAuth();
  const { deleted, dismiss } = useAccountDeleted();
  if (!deleted) return null;
  return (
    <section
      role="alert"
      aria-labelledby="account-deleted-heading"
      className="border-b border-amber-200 bg-amber-50 dark:border-amber-900 dark:bg-amber-950/40"
    >
      <div className="mx-auto flex max-w-6xl flex-col gap-3 px-4 py-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="flex min-w-0 gap-3">
          <Icon name="lucide:triangle-alert" className="mt-0.5 size-5 shrink-0 text-amber-600" />
          <div className="min-w-0">
            <h2 id="account-deleted-heading" className="font-semibold">
              Your account was deleted
            </h2>
            <p className="mt-1 text-sm text-slate-700 dark:text-slate-200">
              {isAuthenticated ? "Signing you out…" : ACCOUNT_DELETED_MESSAGE}
            </p>
          </div>
        </div>
        {!isAuthenticated && (
          <Button size="sm" variant="outline" className="shrink-0 self-start" onClick={dismiss}>
            Dismiss
          </Button>
        )}
      </div>
    </section>
  );
}
