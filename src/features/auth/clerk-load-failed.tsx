import { Button } from "@/components/ui/button";
import { Icon } from "@/components/ui/icon";
import { useDocumentTitle } from "@/lib/use-document-title";

/**
 * docs/product.md#errors: the sign-in provider's script could not be loaded, even after retrying. Shown in
 * place of the app (outside the router, so it links nowhere); Retry starts the attempts over.
 */
export function ClerkLoadFailed({ onRetry }: { onRetry: () => void }) {
  useDocumentTitle("Failed to load Clerk");
  return (
    <main className="mx-auto flex min-h-dvh max-w-xl flex-col items-center justify-center px-4 py-24 text-center">
      <Icon name="lucide:triangle-alert" className="size-12 text-amber-500" />
      <h1 className="mt-4 text-3xl font-bold tracking-tight">Failed to load Clerk</h1>
      <p role="alert" className="mt-4 text-slate-600 dark:text-slate-300">
        LiveLocal signs you in with Clerk, and its script could not be loaded. Check your connection and any
        content blocker, then try again.
      </p>
      <Button className="mt-8" onClick={onRetry}>
        <Icon name="lucide:rotate-cw" />
        Retry
      </Button>
    </main>
  );
}
