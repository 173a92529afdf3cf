import { useMutation } from "convex/react";
import { ConvexError } from "convex/values";
import { useId, useRef, useState, type FormEvent } from "react";
import { flushSync } from "react-dom";
import { FormAlert } from "@/components/forms/form-alert";
import { TextField } from "@/components/forms/text-field";
import { Button } from "@/components/ui/button";
import { Icon } from "@/components/ui/icon";
import { useConfirm } from "@/components/ui/use-confirm";
import { cn } from "@/lib/cn";
import { errorMessage } from "@/lib/errors";
import { api } from "@convex/_generated/api";
import { fieldErrors, LIMITS, privacyRequestSchema } from "@convex/lib/validation";
import type { PrivacyRequestKind } from "@/components/privacy/privacy-status";

type Choice = { type: PrivacyRequestKind; label: string; description: string };

const CHOICES: Choice[] = [
  {
    type: "access",
    label: "A copy of my data",
    description:
      "A machine-readable file (JSON) of everything LiveLocal stores about you: your profile, shops, streams, watch list, follows and requests.",
  },
  {
    type: "correction",
    label: "Correct my data",
    description: "Tell us what is wrong. An admin corrects it and tells you what changed.",
  },
  {
    type: "restriction",
    label: "Restrict processing of my data",
    description: "Your shops and streams are hidden from public pages until the restriction is lifted.",
  },
  {
    type: "deletion",
    label: "Delete my account",
    description: "Your account and everything you own on LiveLocal are removed for good.",
  },
];

const SUBMIT_LABELS: Record<PrivacyRequestKind, string> = {
  access: "Request my data",
  correction: "Request a correction",
  restriction: "Request a restriction",
  deletion: "Request deletion",
};

type Values = { type: PrivacyRequestKind | null; reason: string; details: string };
const EMPTY: Values = { type: null, reason: "", details: "" };

/** The server's per-field refusals (ConvexError `{ code, message, fields }`), keyed like the schema's. */
function serverFieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ConvexError)) return {};
  const data: unknown = error.data;
  if (!data || typeof data !== "object" || !("fields" in data)) return {};
  const fields: unknown = data.fields;
  if (!fields || typeof fields !== "object") return {};
  return Object.fromEntries(
    Object.entries(fields).filter((entry): entry is [string, string] => typeof entry[1] === "string"),
  );
}

/** The form for a new privacy request: which right, what to correct, an optional reason. */
export function PrivacyRequestForm() {
  const requestPrivacy = useMutation(api.privacy.requestPrivacy);
  const [confirm, dialog] = useConfirm();
  const [values, setValues] = useState<Values>(EMPTY);
  const [submitted, setSubmitted] = useState(false);
  const [sending, setSending] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const legendId = useId();
  const typeErrorId = useId();

  const isCorrection = values.type === "correction";
  const parsed = privacyRequestSchema.safeParse({
    type: values.type ?? "none",
    reason: values.reason,
    // Details belong to a correction only; a half-typed note stays in the field but is not sent.
    ...(isCorrection && { details: values.details }),
  });
  const schemaErrors = parsed.success ? {} : fieldErrors(parsed.error);
  const errors = submitted ? { ...serverErrors, ...schemaErrors } : serverErrors;

  function update(patch: Partial<Values>) {
    setValues((current) => ({ ...current, ...patch }));
    setServerErrors((current) => {
      const next = { ...current };
      for (const key of Object.keys(patch)) delete next[key];
      return next;
    });
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    flushSync(() => {
      setSubmitted(true);
      setServerError(null);
    });
    if (!parsed.success) {
      formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
      return;
    }
    const { type, reason, details } = parsed.data;
    const request = {
      type,
      ...(reason !== undefined && { reason }),
      ...(details !== undefined && { details }),
    };
    if (request.type === "deletion") {
      const sure = await confirm({
        title: "Ask to delete your account?",
        description: (
          <>
            <p>
              Once an admin approves it, your account, your live shops and streams, your watch list and
              follows are deleted. <strong>This cannot be undone.</strong>
            </p>
            <p className="mt-2">You can cancel the request while it is waiting for review.</p>
          </>
        ),
        confirmLabel: "Request deletion",
        cancelLabel: "Keep my account",
        destructive: true,
      });
      if (!sure) return;
    }
    setSending(true);
    try {
      await requestPrivacy(request);
      // The open request replaces this form as soon as the query sees it.
    } catch (caught) {
      const fields = serverFieldErrors(caught);
      setServerErrors(fields);
      setServerError(Object.keys(fields).length > 0 ? "Fix the marked field." : errorMessage(caught));
    } finally {
      setSending(false);
    }
  }

  return (
    <form ref={formRef} noValidate onSubmit={(event) => void submit(event)} className="space-y-5">
      <fieldset
        aria-labelledby={legendId}
        aria-describedby={errors.type ? typeErrorId : undefined}
        className="space-y-2"
      >
        <legend id={legendId} className="text-sm font-medium">
          What would you like to ask for?
        </legend>
        <div className="grid gap-2 sm:grid-cols-2">
          {CHOICES.map((choice) => (
            <label
              key={choice.type}
              className={cn(
                "flex cursor-pointer gap-3 rounded-xl border p-3 text-sm has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-primary-600",
                values.type === choice.type
                  ? choice.type === "deletion"
                    ? "border-red-500 bg-red-50 dark:border-red-500 dark:bg-red-950/40"
                    : "border-primary-600 bg-primary-50 dark:border-primary-500 dark:bg-primary-900/30"
                  : "border-slate-200 hover:bg-slate-50 dark:border-slate-800 dark:hover:bg-slate-900",
              )}
            >
              <input
                type="radio"
                name="type"
                value={choice.type}
                checked={values.type === choice.type}
                onChange={() => update({ type: choice.type })}
                aria-invalid={errors.type ? true : undefined}
                className="mt-0.5 size-4 shrink-0 accent-primary-700"
              />
              <span>
                <span className="block font-medium">{choice.label}</span>
                <span className="mt-0.5 block text-slate-600 dark:text-slate-300">{choice.description}</span>
              </span>
            </label>
          ))}
        </div>
        {errors.type && (
          <p id={typeErrorId} className="text-sm text-red-700 dark:text-red-300">
            {errors.type}
          </p>
        )}
      </fieldset>

      {values.type === "deletion" && (
        <div className="flex gap-3 rounded-xl border border-red-300 bg-red-50 p-4 text-sm text-red-900 dark:border-red-800 dark:bg-red-950/50 dark:text-red-100">
          <Icon name="lucide:triangle-alert" className="mt-0.5 size-5" />
          <div>
            <p className="font-semibold">Deleting your account cannot be undone.</p>
            <p className="mt-1">
              Once an admin approves it, your profile, live shops, streams, watch list and follows are removed
              and you are signed out. If you want to keep a copy, request your data first.
            </p>
          </div>
        </div>
      )}

      {isCorrection && (
        <TextField
          label="What should be corrected?"
          name="details"
          value={values.details}
          onChange={(details) => update({ details })}
          error={errors.details}
          max={LIMITS.correctionDetails}
          multiline
          rows={3}
          hint="Say which information is wrong and what it should be."
        />
      )}

      <TextField
        label="Reason"
        name="reason"
        value={values.reason}
        onChange={(reason) => update({ reason })}
        error={errors.reason}
        max={LIMITS.gdprReason}
        optional
        multiline
        rows={2}
        hint="Anything that helps an admin handle your request."
      />

      <FormAlert message={serverError} />
      <Button type="submit" disabled={sending}>
        {sending ? "Sending…" : values.type ? SUBMIT_LABELS[values.type] : "Send request"}
      </Button>
      {dialog}
    </form>
  );
}
