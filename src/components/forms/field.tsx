import { useId, type ReactNode } from "react";
import { cn } from "@/lib/cn";

export const controlClass =
  "mt-1 block w-full min-w-0 rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm dark:border-slate-700 dark:bg-slate-900 aria-invalid:border-red-500 focus-visible:outline-2 focus-visible:outline-primary-600";

export type ControlProps = { id: string; "aria-describedby"?: string; "aria-invalid"?: true };

type FieldProps = {
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
  /** Shows "used / max" characters beside the field. */
  count?: { used: number; max: number };
  optional?: boolean;
  className?: string;
  children: (control: ControlProps) => ReactNode;
};

/** A label, the control, and what belongs to it (hint, character count, error), tied by ids for screen readers. */
export function Field({ label, hint, error, count, optional, className, children }: FieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const countId = `${id}-count`;
  const errorId = `${id}-error`;
  const describedBy = [hint && hintId, count && countId, error && errorId].filter(Boolean).join(" ");
  const over = count !== undefined && count.used > count.max;
  return (
    <div className={cn("min-w-0", className)}>
      <label htmlFor={id} className="text-sm font-medium">
        {label}
        {optional && <span className="font-normal text-slate-500 dark:text-slate-400"> (optional)</span>}
      </label>
      {children({
        id,
        "aria-describedby": describedBy || undefined,
        "aria-invalid": error ? true : undefined,
      })}
      {(hint || error || count) && (
        <div className="mt-1 flex items-start justify-between gap-3 text-sm">
          <div className="min-w-0">
            {hint && (
              <p id={hintId} className="text-slate-500 [overflow-wrap:anywhere] dark:text-slate-400">
                {hint}
              </p>
            )}
            {error && (
              <p id={errorId} className="text-red-700 [overflow-wrap:anywhere] dark:text-red-300">
                {error}
              </p>
            )}
          </div>
          {count && (
            <p
              id={countId}
              className={cn(
                "shrink-0 tabular-nums text-slate-500 dark:text-slate-400",
                over && "font-semibold text-red-700 dark:text-red-300",
              )}
            >
              {count.used.toLocaleString("en-US")}/{count.max.toLocaleString("en-US")}
              <span className="sr-only"> characters</span>
            </p>
          )}
        </div>
      )}
    </div>
  );
}
