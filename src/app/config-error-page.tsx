import { Icon } from "@/components/ui/icon";
import type { ConfigProblem } from "@/config/env";
import { useDocumentTitle } from "@/lib/use-document-title";

/**
 * Shown instead of the app when the environment is unusable (docs/product.md#errors: a missing or invalid
 * publishable key raises an error). Outside the router, so it links nowhere; the fix is in .env.local.
 */
export function ConfigErrorPage({ problem }: { problem: ConfigProblem }) {
  useDocumentTitle("Configuration error");
  return (
    <main className="mx-auto flex min-h-dvh max-w-xl flex-col justify-center px-4 py-24">
      <Icon name="lucide:triangle-alert" className="size-12 text-amber-500" />
      <h1 className="mt-4 text-3xl font-bold tracking-tight">LiveLocal is not configured correctly</h1>
      <p role="alert" className="mt-4 [overflow-wrap:anywhere] text-slate-700 dark:text-slate-200">
        {problem.message}
      </p>
      <p className="mt-4 text-slate-600 dark:text-slate-300">
        Set <code className="rounded bg-slate-100 px-1 dark:bg-slate-800">{problem.variable}</code> in{" "}
        <code className="rounded bg-slate-100 px-1 dark:bg-slate-800">.env.local</code> and restart the dev
        server or rebuild. To run without accounts on the local backend, remove{" "}
        <code className="rounded bg-slate-100 px-1 dark:bg-slate-800">VITE_CONVEX_URL</code> instead.
      </p>
    </main>
  );
}
