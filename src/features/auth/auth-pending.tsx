import { useClerk } from "@clerk/react";
import { PageLoading } from "@/components/layout/page-loading";
import { Button } from "@/components/ui/button";
import { Icon } from "@/components/ui/icon";
import { mode } from "@/config/env";

function useClerkFailed(): boolean {
  // Clerk re-renders its context when its status changes, so this follows a failed script load.
  return useClerk().status === "error";
}

/** Whether the sign-in provider's script failed to load (Clerk mode only; local sign-in cannot). */
export const useSignInProviderFailed: () => boolean = mode === "clerk" ? useClerkFailed : () => false;

/** SPEC.md section 8: a provider script that fails to load is reported as 'Failed to load'. */
export function SignInProviderFailed() {
  return (
    <section role="alert" className="mx-auto flex max-w-md flex-col items-center px-4 py-16 text-center">
      <Icon name="lucide:triangle-alert" className="size-10 text-amber-500" />
      <h2 className="mt-4 text-2xl font-bold tracking-tight">Failed to load the sign-in provider</h2>
      <p className="mt-3 text-slate-600 dark:text-slate-300">
        Clerk's sign-in script could not be loaded. Check your connection, then reload the page.
      </p>
      <Button variant="outline" className="mt-6" onClick={() => window.location.reload()}>
        <Icon name="lucide:rotate-cw" />
        Reload
      </Button>
    </section>
  );
}

/**
 * The wait while the session is being established; says so instead of spinning forever when the
 * provider could not load (Convex then never leaves its loading state).
 */
export function AuthPending({ label }: { label: string }) {
  const failed = useSignInProviderFailed();
  return failed ? <SignInProviderFailed /> : <PageLoading label={label} />;
}
