import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { FormAlert } from "./form-alert";

type FormFooterProps = {
  submitLabel: string;
  saving: boolean;
  dirty: boolean;
  /** Fields the shared schema refused, after an attempt to save. */
  invalidCount: number;
  serverError: string | null;
  notice: string | null;
  children?: ReactNode;
};

/** The save button, kept in view at the bottom of a long form, with what happened to the last save. */
export function FormFooter({
  submitLabel,
  saving,
  dirty,
  invalidCount,
  serverError,
  notice,
  children,
}: FormFooterProps) {
  return (
    <div className="sticky bottom-0 z-10 -mx-4 space-y-3 border-t border-slate-200 bg-white/95 px-4 py-3 backdrop-blur dark:border-slate-800 dark:bg-slate-950/95">
      <FormAlert message={serverError} />
      <FormAlert
        message={
          invalidCount > 0
            ? `Fix ${invalidCount === 1 ? "the marked field" : `the ${invalidCount} marked fields`} before saving.`
            : null
        }
      />
      <FormAlert tone="success" message={dirty ? null : notice} />
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={saving}>
          {saving ? "Saving…" : submitLabel}
        </Button>
        {dirty && <span className="text-sm text-slate-500 dark:text-slate-400">Unsaved changes</span>}
        {children}
      </div>
    </div>
  );
}
