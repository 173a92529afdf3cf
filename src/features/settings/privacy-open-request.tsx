import { useMutation } from "convex/react";
import { useState } from "react";
import { FormAlert } from "@/components/forms/form-alert";
import { Button } from "@/components/ui/button";
import { Icon } from "@/components/ui/icon";
import { CorrectionList } from "@/components/privacy/correction-list";
import { errorMessage } from "@/lib/errors";
import { api } from "@convex/_generated/api";
import {
  PrivacyRequestFacts,
  isPreparingExport,
  PRIVACY_TYPE_LABELS,
  PrivacyStatusBadge,
  type PrivacyRequestView,
} from "@/components/privacy/privacy-status";

/** What is happening with an open request, in a sentence. */
export function openStatusWords(request: PrivacyRequestView): string {
  if (isPreparingExport(request)) {
    return "Approved. Your file is being prepared; a download button appears here as soon as it is ready.";
  }
  switch (request.type) {
    case "access":
      return "Waiting for a LiveLocal admin to review it. Once approved, your file is prepared and can be downloaded here.";
    case "deletion":
      return "Waiting for a LiveLocal admin to review it. Once approved, your account and everything you own are deleted.";
    case "correction":
      return "Waiting for a LiveLocal admin to make the changes. You see here each one as it is made.";
    case "restriction":
      return "Waiting for a LiveLocal admin to review it. Once approved, your shops and streams leave public pages until the restriction is lifted.";
  }
}

/** The one open request: what, when, by when it is answered, where it stands, and a way to withdraw it. */
export function PrivacyOpenRequest({ request }: { request: PrivacyRequestView }) {
  const cancelPrivacyRequest = useMutation(api.privacy.cancelPrivacyRequest);
  const [cancelling, setCancelling] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Once approved the work has started (the export is being built): there is nothing left to withdraw.
  const cancellable = request.decidedAt === undefined;

  async function cancel() {
    setCancelling(true);
    setError(null);
    try {
      await cancelPrivacyRequest({ requestId: request._id });
    } catch (caught) {
      setError(errorMessage(caught));
      setCancelling(false);
    }
  }

  return (
    <div
      aria-label="Your open request"
      role="group"
      className="rounded-2xl border border-amber-300 bg-amber-50/60 p-4 sm:p-6 dark:border-amber-800 dark:bg-amber-950/30"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="text-base font-semibold">Open request: {PRIVACY_TYPE_LABELS[request.type]}</h3>
        <PrivacyStatusBadge request={request} />
      </div>
      <PrivacyRequestFacts request={request} audience="requester" />
      <CorrectionList corrections={request.corrections ?? []} heading="Changed so far" />
      <p
        aria-live="polite"
        className="mt-3 flex items-start gap-2 text-sm text-slate-700 dark:text-slate-200"
      >
        <Icon
          name={isPreparingExport(request) ? "lucide:loader-circle" : "lucide:clock"}
          className="mt-0.5 size-4"
        />
        <span>{openStatusWords(request)}</span>
      </p>
      {cancellable && (
        <div className="mt-4 space-y-3">
          <Button variant="outline" size="sm" disabled={cancelling} onClick={() => void cancel()}>
            {cancelling ? "Cancelling…" : "Cancel request"}
          </Button>
          <FormAlert message={error} />
        </div>
      )}
    </div>
  );
}
