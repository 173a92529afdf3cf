import { usePaginatedQuery, useQuery } from "convex/react";
import type { FunctionReturnType } from "convex/server";
import { Button } from "@/components/ui/button";
import { CorrectionList } from "@/components/privacy/correction-list";
import {
  DateText,
  decisionNoteLabel,
  PRIVACY_TYPE_LABELS,
  PrivacyStatusBadge,
} from "@/components/privacy/privacy-status";
import { api } from "@convex/_generated/api";
import { requesterName } from "./privacy-request-card";

const PAGE_SIZE = 20;

type DecidedRequest = FunctionReturnType<typeof api.privacy.listDecidedRequests>["page"][number];

const listClass =
  "mt-4 divide-y divide-slate-200 rounded-2xl border border-slate-200 dark:divide-slate-800 dark:border-slate-800";
const emptyClass =
  "mt-4 rounded-2xl border border-dashed border-slate-300 p-6 text-sm text-slate-600 dark:border-slate-700 dark:text-slate-300";

/**
 * Every decided (or withdrawn) request, newest decision first, with who decided and their words; with
 * `search`, instead every request (open or closed) of the people whose email starts with it.
 */
export function PrivacyDecidedRequests({ search = "" }: { search?: string }) {
  return (
    <section aria-labelledby="decided-heading" className="mt-12">
      <h2 id="decided-heading" className="text-xl font-semibold tracking-tight">
        {search ? "Requests found" : "Decided"}
      </h2>
      {search ? <FoundRequests email={search} /> : <DecidedRequests />}
    </section>
  );
}

function DecidedRequests() {
  const { results, status, loadMore } = usePaginatedQuery(
    api.privacy.listDecidedRequests,
    {},
    { initialNumItems: PAGE_SIZE },
  );
  if (status === "LoadingFirstPage") {
    return (
      <p role="status" className="mt-4 text-sm text-slate-500 dark:text-slate-400">
        Loading decided requests…
      </p>
    );
  }
  return (
    <>
      {results.length === 0 ? (
        <p className={emptyClass}>No request has been decided yet.</p>
      ) : (
        <ol aria-label="Decided requests" className={listClass}>
          {results.map((request) => (
            <RequestRow key={request._id} request={request} />
          ))}
        </ol>
      )}
      {(status === "CanLoadMore" || status === "LoadingMore") && (
        <Button
          variant="outline"
          className="mt-4"
          disabled={status === "LoadingMore"}
          onClick={() => loadMore(PAGE_SIZE)}
        >
          {status === "LoadingMore" ? "Loading…" : "Load more"}
        </Button>
      )}
    </>
  );
}

function FoundRequests({ email }: { email: string }) {
  const found = useQuery(api.privacy.searchRequests, { email });
  if (found === undefined) {
    return (
      <p role="status" className="mt-4 text-sm text-slate-500 dark:text-slate-400">
        Searching…
      </p>
    );
  }
  return (
    <>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
        Every request of the people whose email starts with “{email}”, newest first.
      </p>
      {found.length === 0 ? (
        <p className={emptyClass}>Nobody whose email starts with “{email}” has made a request.</p>
      ) : (
        <ol aria-label="Requests found" className={listClass}>
          {found.map((request) => (
            <RequestRow key={request._id} request={request} />
          ))}
        </ol>
      )}
    </>
  );
}

function RequestRow({ request }: { request: DecidedRequest }) {
  return (
    <li className="p-4 text-sm">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="min-w-0 font-medium [overflow-wrap:anywhere]">
          {PRIVACY_TYPE_LABELS[request.type]} · {requesterName(request.user)}
        </p>
        <PrivacyStatusBadge request={request} />
      </div>
      <p className="mt-1 text-slate-600 dark:text-slate-300">
        Requested <DateText at={request.requestedAt} withTime />
        {request.decidedAt !== undefined && (
          <>
            {" "}
            · {request.status === "cancelled" ? "cancelled by the requester" : "decided"}{" "}
            <DateText at={request.decidedAt} withTime />
            {request.decidedByName && request.status !== "cancelled" && <> by {request.decidedByName}</>}
          </>
        )}
      </p>
      {request.details && (
        <p className="mt-1 whitespace-pre-line [overflow-wrap:anywhere]">
          <span className="font-medium">To correct:</span> {request.details}
        </p>
      )}
      <CorrectionList corrections={request.corrections ?? []} />
      {request.decisionReason && (
        <p className="mt-1 whitespace-pre-line [overflow-wrap:anywhere]">
          <span className="font-medium">{decisionNoteLabel(request)}:</span> {request.decisionReason}
        </p>
      )}
    </li>
  );
}
