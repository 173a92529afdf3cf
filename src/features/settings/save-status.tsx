import { Icon } from "@/components/ui/icon";
import { cn } from "@/lib/cn";

/**
 * A polite live region for "Saved"-style confirmations: always rendered, so screen readers announce
 * each new message, and visually empty until there is one.
 */
export function SaveStatus({ message, className }: { message: string | null; className?: string }) {
  return (
    <p
      role="status"
      className={cn(
        message
          ? "flex items-start gap-2 text-sm font-medium text-primary-700 dark:text-primary-100"
          : "sr-only",
        message && className,
      )}
    >
      {message && (
        <>
          <Icon name="lucide:circle-check" className="mt-0.5 size-4" />
          <span>{message}</span>
        </>
      )}
    </p>
  );
}
