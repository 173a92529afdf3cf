import { cva } from "class-variance-authority";
import type { FunctionReturnType } from "convex/server";
import { formatDate, formatDateTime } from "@/lib/format-date";
import type { api } from "@convex/_generated/api";

export type MyPrivacy = NonNullable<FunctionReturnType<typeof api.privacy.myPrivacy>>;
/** A request as the API returns it (`privacy.myPrivacy`, convex/model/privacy.ts). */
export type PrivacyRequestView = MyPrivacy["history"][number];
export type PrivacyRequestKind = PrivacyRequestView["type"];
export type PrivacyRequestState = PrivacyRequestView["status"];

export const DAY_MS = 24 * 60 * 60 * 1000;

/** What each type is called, as a person asking for it would say it. */
export const PRIVACY_TYPE_LABELS: Record<PrivacyRequestKind, string> = {
  access: "Data export",
  deletion: "Account deletion",
  correction: "Correction",
  restriction: "Restriction of processing",
};

export const PRIVACY_STATUS_LABELS: Record<PrivacyRequestState, string> = {
  pending_export: "Awaiting review",
  pending_deletion: "Awaiting review",
  pending_review: "Awaiting review",
  completed: "Completed",
  rejected: "Rejected",
  cancelled: "Cancelled",
};

export function isOpen(request: Pick<PrivacyRequestView, "status">): boolean {
  return request.status.startsWith("pending_");
}

/** An approved export stays open until its file exists; the approval is what sets `decidedAt`. */
export function isPreparingExport(request: Pick<PrivacyRequestView, "status" | "decidedAt">): boolean {
  return request.status === "pending_export" && request.decidedAt !== undefined;
}

/** The badge's words: "Preparing" for an approved export still being built, else the status's. */
export function privacyStatusLabel(request: Pick<PrivacyRequestView, "status" | "decidedAt">): string {
  return isPreparingExport(request) ? "Approved, preparing" : PRIVACY_STATUS_LABELS[request.status];
}

const badge = cva("inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold", {
  variants: {
    tone: {
      open: "bg-amber-100 text-amber-900 dark:bg-amber-900/50 dark:text-amber-100",
      preparing: "bg-secondary-50 text-secondary-700 dark:bg-secondary-700/30 dark:text-blue-100",
      completed: "bg-primary-50 text-primary-700 dark:bg-primary-900/40 dark:text-primary-100",
      rejected: "bg-red-100 text-red-800 dark:bg-red-900/40 dark:text-red-100",
      cancelled: "bg-slate-100 text-slate-600 dark:bg-slate-800 dark:text-slate-300",
    },
  },
});

export function PrivacyStatusBadge({
  request,
}: {
  request: Pick<PrivacyRequestView, "status" | "decidedAt">;
}) {
  const tone = isPreparingExport(request)
    ? "preparing"
    : isOpen(request)
      ? "open"
      : (request.status as "completed" | "rejected" | "cancelled");
  return <span className={badge({ tone })}>{privacyStatusLabel(request)}</span>;
}

/** A day as a <time> element, read as "Mar 4, 2026"; `withTime`: "Mar 4, 2026, 3:05 PM" (admins' queues). */
export function DateText({ at, withTime = false }: { at: number; withTime?: boolean }) {
  return <time dateTime={new Date(at).toISOString()}>{withTime ? formatDateTime(at) : formatDate(at)}</time>;
}

/** The admin's words on a decided request, introduced by what they are. */
export function decisionNoteLabel(request: Pick<PrivacyRequestView, "type" | "status">): string {
  if (request.status === "rejected") return "Reason for the rejection";
  if (request.type === "correction") return "What was changed";
  return "Note from LiveLocal";
}

const TERM = "text-slate-600 dark:text-slate-300";
const FREE_TEXT = "whitespace-pre-line [overflow-wrap:anywhere]";

/**
 * A request's dates and words: when it was made, when the answer is due, what to correct and why.
 * The requester reads "your reason" (left out when none was given); an admin sees "None given", and
 * the times, which order a day's requests in the queue.
 */
export function PrivacyRequestFacts({
  request,
  audience,
}: {
  request: Pick<PrivacyRequestView, "requestedAt" | "dueAt" | "details" | "reason">;
  audience: "requester" | "admin";
}) {
  const forAdmin = audience === "admin";
  return (
    <dl className="mt-3 grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[9rem_1fr]">
      <dt className={TERM}>Requested</dt>
      <dd>
        <DateText at={request.requestedAt} withTime={forAdmin} />
      </dd>
      <dt className={TERM}>{forAdmin ? "Due by" : "Answer due by"}</dt>
      <dd>
        <DateText at={request.dueAt} withTime={forAdmin} />
      </dd>
      {request.details && (
        <>
          <dt className={TERM}>To correct</dt>
          <dd className={FREE_TEXT}>{request.details}</dd>
        </>
      )}
      {(request.reason || forAdmin) && (
        <>
          <dt className={TERM}>{forAdmin ? "Reason" : "Your reason"}</dt>
          <dd className={FREE_TEXT}>
            {request.reason ?? <span className="text-slate-500 dark:text-slate-400">None given</span>}
          </dd>
        </>
      )}
    </dl>
  );
}
