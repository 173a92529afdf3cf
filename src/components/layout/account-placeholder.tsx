/** Where the header's account control will be, while the session is not known yet. */
export function AccountPlaceholder() {
  return (
    <span aria-hidden="true" className="size-9 animate-pulse rounded-full bg-slate-200 dark:bg-slate-800" />
  );
}
