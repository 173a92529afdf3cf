import { CorrectionList } from "@/components/privacy/correction-list";
import {
  DateText,
  decisionNoteLabel,
  PRIVACY_TYPE_LABELS,
  PrivacyStatusBadge,
  type PrivacyRequestView,
} from "@/components/privacy/privacy-status";

/** Past requests, newest first, with what was decided and the admin's words. */
export function PrivacyRequestHistory({ requests }: { requests: PrivacyRequestView[] }) {
  return (
    <div className="mt-8 border-t border-slate-200 pt-6 dark:border-slate-800">
      <h3 className="text-base font-semibold">Past requests</h3>
      {requests.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">
          You have not made any other requests.
        </p>
      ) : (
        <ol aria-label="Past requests" className="mt-3 space-y-3">
          {requests.map((request) => (
            <li
              key={request._id}
              className="rounded-2xl border border-slate-200 p-4 text-sm dark:border-slate-800"
            >
              <div className="flex flex-wrap items-center justify-between gap-2">
                <p className="font-medium">{PRIVACY_TYPE_LABELS[request.type]}</p>
                <PrivacyStatusBadge request={request} />
              </div>
              <p className="mt-1 text-slate-600 dark:text-slate-300">
                Requested <DateText at={request.requestedAt} />
                {request.decidedAt !== undefined && request.status !== "cancelled" && (
                  <>
                    {" "}
                    · decided <DateText at={request.decidedAt} />
                  </>
                )}
                {request.status === "cancelled" && request.decidedAt !== undefined && (
                  <>
                    {" "}
                    · cancelled <DateText at={request.decidedAt} />
                  </>
                )}
              </p>
              {(request.details || request.reason || request.decisionReason) && (
                <dl className="mt-2 space-y-2">
                  {request.details && <Note term="To correct" value={request.details} />}
                  {request.reason && <Note term="Your reason" value={request.reason} />}
                  {request.decisionReason && (
                    <Note term={decisionNoteLabel(request)} value={request.decisionReason} emphasis />
                  )}
                </dl>
              )}
              <CorrectionList corrections={request.corrections ?? []} />
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

function Note({ term, value, emphasis = false }: { term: string; value: string; emphasis?: boolean }) {
  return (
    <div className={emphasis ? "rounded-xl bg-slate-50 p-3 dark:bg-slate-900" : undefined}>
      <dt className="font-medium text-slate-700 dark:text-slate-200">{term}</dt>
      <dd className="mt-0.5 whitespace-pre-line text-slate-700 [overflow-wrap:anywhere] dark:text-slate-300">
        {value}
      </dd>
    </div>
  );
}
