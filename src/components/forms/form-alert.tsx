import { Icon } from "@/components/ui/icon";
import { cn } from "@/lib/cn";

/** A form-level message: the server's refusal in words (an alert), or a quiet confirmation of a save. */
export function FormAlert({
  message,
  tone = "error",
}: {
  message: string | null;
  tone?: "error" | "success";
}) {
  if (!message) return null;
  return (
    <p
      role={tone === "error" ? "alert" : "status"}
      className={cn(
        "flex items-start gap-2 rounded-xl px-4 py-3 text-sm",
        tone === "error"
          ? "bg-red-50 text-red-800 dark:bg-red-950/50 dark:text-red-200"
          : "bg-primary-50 text-primary-700 dark:bg-primary-900/40 dark:text-primary-100",
      )}
    >
      <Icon
        name={tone === "error" ? "lucide:circle-alert" : "lucide:circle-check"}
        className="mt-0.5 size-4"
      />
      <span>{message}</span>
    </p>
  );
}
