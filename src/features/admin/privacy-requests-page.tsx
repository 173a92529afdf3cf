import { useMutation, useQuery } from "convex/react";
import { useState } from "react";
import { FormAlert } from "@/components/forms/form-alert";
import { isPreparingExport } from "@/components/privacy/privacy-status";
import { useDebouncedValue } from "@/lib/use-debounced-value";
import { useNow } from "@/lib/use-now";
import { api } from "@convex/_generated/api";
import { AdminSearch, SEARCH_DELAY_MS, useBulkApproval } from "./admin-list";
import { AdminShell } from "./admin-shell";
import { PrivacyRequestCard, requesterName, type OpenPrivacyRequest } from "./privacy-request-card";
import { PrivacyDecidedRequests } from "./privacy-request-decided";
import { PrivacyRestrictedAccounts } from "./privacy-request-restricted";

/** Whether the request's person is found by `text` (their name or email contains it, any case). */
function matches(request: OpenPrivacyRequest, text: string): boolean {
  if (text === "") return true;
  return requesterName(request.user).toLowerCase().includes(text.toLowerCase());
}

/** An open data export nobody approved yet: the one kind of request approved several at a time. */
function isExportToApprove(request: OpenPrivacyRequest): boolean {
  return request.type === "access" && !isPreparingExport(request);
}

/**
 * Admin screen: open GDPR requests oldest first (so the most overdue lead), each with its legal due
 * date, to approve or reject (data exports several at once); a search by name or email; restricted
 * accounts; and the decided history (with a search, every request of the people found). Everything is
 * live.
 */
export function PrivacyRequestsPage() {
  const open = useQuery(api.privacy.listOpenRequests, {});
  const now = useNow();
  const [notice, setNotice] = useState<{ tone: "success" | "error"; text: string } | null>(null);
  const [text, setText] = useState("");
  const search = useDebouncedValue(text.trim(), SEARCH_DELAY_MS);
  const shown = open?.filter((request) => matches(request, search));
  const exports = shown?.filter(isExportToApprove) ?? [];
  const overdue = open?.filter((request) => request.dueAt < now).length ?? 0;
  const approveExports = useMutation(api.privacy.approveExports);
  const bulk = useBulkApproval({
    rows: exports.map((request) => ({ id: request._id, name: requesterName(request.user) })),
    rowNoun: "data export request",
    noun: "data export",
    explanation: "A file of everything stored about each person is prepared for them to download:",
    done: "approved; the files are being prepared.",
    approve: (requestIds) => approveExports({ requestIds }),
    onNotice: setNotice,
  });

  return (
    <AdminShell
      title="Privacy requests"
      description="GDPR requests are answered within one month of being made. Oldest first."
    >
      <AdminSearch
        label="Search by name or email"
        value={text}
        onChange={setText}
        hint="Narrows the open requests; the history below finds every request of people whose email starts with it."
      />
      <section aria-labelledby="open-heading" className="mt-8">
        <h2 id="open-heading" className="text-xl font-semibold tracking-tight">
          Open requests
          {open !== undefined && (
            <span className="ml-2 font-normal text-slate-500 dark:text-slate-400">
              ({shown && shown.length < open.length ? `${shown.length} shown of ${open.length}` : open.length}
              {overdue > 0 && <span className="text-red-700 dark:text-red-300">, {overdue} overdue</span>})
            </span>
          )}
        </h2>
        {/* Always present, so the outcome of a decision (its card leaves the list) is announced. */}
        <div aria-live="polite" className="mt-4">
          <FormAlert tone={notice?.tone ?? "success"} message={notice?.text ?? null} />
        </div>
        {shown === undefined ? (
          <p role="status" className="mt-4 text-sm text-slate-500 dark:text-slate-400">
            Loading open requests…
          </p>
        ) : shown.length === 0 ? (
          <p className="mt-4 rounded-2xl border border-dashed border-slate-300 p-6 text-sm text-slate-600 dark:border-slate-700 dark:text-slate-300">
            {search
              ? `No open request from anyone whose name or email contains “${search}”.`
              : "No open requests. New ones appear here as they arrive."}
          </p>
        ) : (
          <>
            {bulk.bar}
            <ol aria-label="Open requests" className="mt-4 space-y-4">
              {shown.map((request) => (
                <PrivacyRequestCard
                  key={request._id}
                  request={request}
                  now={now}
                  onDecided={(text) => setNotice({ tone: "success", text })}
                  {...(isExportToApprove(request) && {
                    selected: bulk.selection.isSelected(request._id),
                    onSelect: (on: boolean) => bulk.selection.toggle(request._id, on),
                  })}
                />
              ))}
            </ol>
          </>
        )}
      </section>
      <PrivacyRestrictedAccounts onLifted={(text) => setNotice({ tone: "success", text })} />
      <PrivacyDecidedRequests search={search} />
      {bulk.dialog}
    </AdminShell>
  );
}
