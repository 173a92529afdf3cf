import { useMutation } from "convex/react";
import type { FunctionReturnType } from "convex/server";
import { useId, useState } from "react";
import { Link } from "react-router-dom";
import { FormAlert } from "@/components/forms/form-alert";
import { TextField } from "@/components/forms/text-field";
import { Button } from "@/components/ui/button";
import { Icon } from "@/components/ui/icon";
import { useConfirm } from "@/components/ui/use-confirm";
import {
  DAY_MS,
  PrivacyRequestFacts,
  isPreparingExport,
  PRIVACY_TYPE_LABELS,
  type PrivacyRequestKind,
} from "@/components/privacy/privacy-status";
import { paths } from "@/config/paths";
import { cn } from "@/lib/cn";
import { errorMessage } from "@/lib/errors";
import { api } from "@convex/_generated/api";
import {
  CORRECTION_NOTE_REQUIRED,
  fieldErrors,
  LIMITS,
  NOTHING_CORRECTED,
  privacyDecisionSchema,
} from "@convex/lib/validation";
import { plural } from "./admin-list";

export type OpenPrivacyRequest = FunctionReturnType<typeof api.privacy.listOpenRequests>[number];

const APPROVE_LABELS: Record<PrivacyRequestKind, string> = {
  access: "Approve and prepare export",
  deletion: "Approve deletion",
  correction: "Mark as corrected",
  restriction: "Approve restriction",
};

const APPROVE_DONE: Record<PrivacyRequestKind, string> = {
  access: "approved; the export is being prepared.",
  deletion: "approved; the account is being deleted.",
  correction: "marked as corrected.",
  restriction: "approved; their shops and streams are hidden from public pages.",
};

/** Where a request stands against its legal due date, in words (never colour alone). */
export function dueWords(dueAt: number, now: number): { overdue: boolean; text: string } {
  if (dueAt < now)
    return { overdue: true, text: `Overdue by ${plural(Math.ceil((now - dueAt) / DAY_MS), "day")}` };
  const days = Math.ceil((dueAt - now) / DAY_MS);
  return { overdue: false, text: days <= 1 ? "Due within a day" : `Due in ${plural(days, "day")}` };
}

/** Who asked, as an admin recognises them; a deleted account has no personal data left. */
export function requesterName(user: OpenPrivacyRequest["user"]): string {
  if (!user) return "Deleted account";
  return user.name ? `${user.name} (${user.email})` : user.email;
}

/** One open request: who, what, when, how late, and the admin's decision. */
export function PrivacyRequestCard({
  request,
  now,
  onDecided,
  selected,
  onSelect,
}: {
  request: OpenPrivacyRequest;
  now: number;
  /** Said on the page, since a decided request leaves this list. */
  onDecided: (message: string) => void;
  /** Given, the card can be chosen for a bulk approval (open data exports). */
  selected?: boolean;
  onSelect?: (selected: boolean) => void;
}) {
  const decidePrivacyRequest = useMutation(api.privacy.decidePrivacyRequest);
  const [confirm, dialog] = useConfirm();
  const [note, setNote] = useState("");
  const [noteError, setNoteError] = useState<string | undefined>();
  const [deciding, setDeciding] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const headingId = useId();
  const due = dueWords(request.dueAt, now);
  const who = requesterName(request.user);
  const preparing = isPreparingExport(request);
  const corrections = request.corrections?.length ?? 0;

  async function decide(decision: "approve" | "reject") {
    // The shared rules: a reason to reject, within the limit; a correction's approval also needs a note.
    const parsed = privacyDecisionSchema.safeParse({ decision, reason: note });
    if (!parsed.success) {
      setNoteError(Object.values(fieldErrors(parsed.error))[0]);
      return;
    }
    const { reason } = parsed.data;
    if (decision === "approve" && request.type === "correction" && reason === undefined) {
      setNoteError(CORRECTION_NOTE_REQUIRED);
      return;
    }
    setNoteError(undefined);
    if (decision === "approve" && request.type === "correction" && corrections === 0) {
      setError(NOTHING_CORRECTED);
      return;
    }
    if (decision === "approve" && request.type === "deletion") {
      const sure = await confirm({
        title: "Delete this account for good?",
        description: (
          <>
            <p className="[overflow-wrap:anywhere]">
              The account of {who} and everything they own on LiveLocal — profile, live shops, streams, watch
              list and follows — will be deleted.
            </p>
            <p className="mt-2 font-semibold">This is irreversible.</p>
          </>
        ),
        confirmLabel: "Delete account",
        cancelLabel: "Go back",
        destructive: true,
      });
      if (!sure) return;
    }
    setDeciding(true);
    setError(null);
    try {
      await decidePrivacyRequest({
        requestId: request._id,
        decision,
        ...(reason !== undefined && { reason }),
      });
      setNote("");
      onDecided(
        decision === "reject"
          ? `${PRIVACY_TYPE_LABELS[request.type]} request from ${who} rejected.`
          : `${PRIVACY_TYPE_LABELS[request.type]} request from ${who}: ${APPROVE_DONE[request.type]}`,
      );
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setDeciding(false);
    }
  }

  return (
    <li
      aria-labelledby={headingId}
      className={cn(
        "rounded-2xl border p-4 sm:p-6",
        due.overdue
          ? "border-red-300 bg-red-50/50 dark:border-red-800 dark:bg-red-950/20"
          : "border-slate-200 dark:border-slate-800",
      )}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="flex min-w-0 items-start gap-3">
          {onSelect && (
            <input
              type="checkbox"
              checked={selected ?? false}
              onChange={(event) => onSelect(event.target.checked)}
              aria-label={`Select the data export of ${who}`}
              className="mt-1 size-4 shrink-0 accent-primary-700"
            />
          )}
          <h3 id={headingId} className="min-w-0 font-semibold [overflow-wrap:anywhere]">
            {PRIVACY_TYPE_LABELS[request.type]} · {who}
          </h3>
        </div>
        <span
          className={cn(
            "inline-flex items-center gap-1 rounded-full px-2.5 py-0.5 text-xs font-semibold",
            due.overdue
              ? "bg-red-100 text-red-800 dark:bg-red-900/50 dark:text-red-100"
              : "bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200",
          )}
        >
          <Icon name={due.overdue ? "lucide:triangle-alert" : "lucide:clock"} className="size-3.5" />
          {due.text}
        </span>
      </div>
      <PrivacyRequestFacts request={request} audience="admin" />
      {request.type === "correction" && (
        <p className="mt-3 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
          <Link
            to={paths.dashboard.admin.privacyCorrection.getHref(request._id)}
            className="inline-flex items-center gap-1 font-medium text-primary-700 underline underline-offset-2 dark:text-primary-100"
          >
            <Icon name="lucide:pencil" className="size-4" />
            Correct the data
          </Link>
          <span className="text-slate-600 dark:text-slate-300">
            {corrections === 0
              ? "Nothing corrected yet."
              : `${plural(corrections, "change")} made, shown to the requester.`}
          </span>
        </p>
      )}

      {preparing ? (
        <div className="mt-4 flex flex-wrap items-center gap-x-4 gap-y-2 text-sm">
          <p className="flex items-center gap-2 text-slate-700 dark:text-slate-200">
            <Icon name="lucide:loader-circle" className="size-4" />
            Approved: the export is being prepared.
          </p>
          {/* Approving again schedules another build: the server allows it so a failed build can be retried. */}
          <Button size="sm" variant="ghost" disabled={deciding} onClick={() => void decide("approve")}>
            Prepare it again
          </Button>
        </div>
      ) : (
        <div className="mt-4 space-y-3">
          <TextField
            label={
              request.type === "correction"
                ? "What you changed, or why you reject it"
                : "Note to the requester"
            }
            name={`note-${request._id}`}
            value={note}
            onChange={(value) => {
              setNote(value);
              setNoteError(undefined);
            }}
            error={noteError}
            max={LIMITS.statusReason}
            multiline
            rows={2}
            hint={
              request.type === "correction"
                ? "Needed to approve and to reject. The requester sees it."
                : "Needed to reject. The requester sees it."
            }
          />
          <div className="flex flex-wrap gap-2">
            <Button
              size="sm"
              className={request.type === "deletion" ? "bg-red-600 hover:bg-red-700" : undefined}
              disabled={deciding}
              onClick={() => void decide("approve")}
            >
              {APPROVE_LABELS[request.type]}
            </Button>
            <Button size="sm" variant="outline" disabled={deciding} onClick={() => void decide("reject")}>
              Reject
            </Button>
          </div>
        </div>
      )}
      {error && (
        <div className="mt-3">
          <FormAlert message={error} />
        </div>
      )}
      {dialog}
    </li>
  );
}
