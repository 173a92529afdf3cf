import { Icon } from "@/components/ui/icon";

/** A full-height wait with a spoken label, used while sign-in is being checked so nothing flashes. */
export function PageLoading({ label = "Loading…" }: { label?: string }) {
  return (
    <div
      role="status"
      className="flex min-h-[50dvh] flex-col items-center justify-center gap-3 px-4 text-center"
    >
      <Icon name="lucide:loader-circle" className="size-8 animate-spin text-primary-600" />
      <p className="text-sm text-slate-600 dark:text-slate-300">{label}</p>
    </div>
  );
}
