import { useQuery } from "convex/react";
import { useState } from "react";
import { FormAlert } from "@/components/forms/form-alert";
import { useNow } from "@/lib/use-now";
import { api } from "@convex/_generated/api";
import { AdminShell } from "./admin-shell";
import { PrivacyRequestCard } from "./privacy-request-card";
import { PrivacyDecidedRequests } from "./privacy-request-decided";
import { PrivacyRestrictedAccounts } from "./privacy-request-restricted";

/**
 * Admin screen: open GDPR requests oldest first (so the most overdue lead), each with its legal due
 * date, to approve or reject; restricted accounts; and the decided history. Everything is live.
 */
export function PrivacyRequestsPage() {
  const open = useQuery(api.privacy.listOpenRequests, {});
  const now = useNow();
  const [notice, setNotice] = useState<string | null>(null);
  const overdue = open?.filter((request) => request.dueAt < now).length ?? 0;

  return (
    <AdminShell
      title="Privacy requests"
      description="GDPR requests are answered within one month of being made. Oldest first."
    >
      <section aria-labelledby="open-heading">
        <h2 id="open-heading" className="text-xl font-semibold tracking-tight">
          Open requests
          {open !== undefined && (
            <span className="ml-2 font-normal text-slate-500 dark:text-slate-400">
              ({open.length}
              {overdue > 0 && <span className="text-red-700 dark:text-red-300">, {overdue} overdue</span>})
            </span>
          )}
        </h2>
        {/* Always present, so the outcome of a decision (its card leaves the list) is announced. */}
        <div aria-live="polite" className="mt-4">
          <FormAlert tone="success" message={notice} />
        </div>
        {open === undefined ? (
          <p role="status" className="mt-4 text-sm text-slate-500 dark:text-slate-400">
            Loading open requests…
          </p>
        ) : open.length === 0 ? (
          <p className="mt-4 rounded-2xl border border-dashed border-slate-300 p-6 text-sm text-slate-600 dark:border-slate-700 dark:text-slate-300">
            No open requests. New ones appear here as they arrive.
          </p>
        ) : (
          <ol aria-label="Open requests" className="mt-4 space-y-4">
            {open.map((request) => (
              <PrivacyRequestCard key={request._id} request={request} now={now} onDecided={setNotice} />
            ))}
          </ol>
        )}
      </section>
      <PrivacyRestrictedAccounts onLifted={setNotice} />
      <PrivacyDecidedRequests />
    </AdminShell>
  );
}
