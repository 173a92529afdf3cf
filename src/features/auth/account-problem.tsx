import { Button } from "@/components/ui/button";
import { Icon } from "@/components/ui/icon";
import { paths } from "@/config/paths";
import { useSignOut } from "./use-sign-out";

/**
 * Shown when signed in without a usable account row: it could not be created (EnsureUser failed), or
 * it was deleted while the page was open.
 */
export function AccountProblem({
  message,
  title = "Your account isn't ready",
}: {
  message: string;
  title?: string;
}) {
  const signOut = useSignOut();
  return (
    <section role="alert" className="mx-auto flex max-w-md flex-col items-center px-4 py-24 text-center">
      <Icon name="lucide:triangle-alert" className="size-10 text-amber-500" />
      <h1 className="mt-4 text-2xl font-bold tracking-tight">{title}</h1>
      <p className="mt-3 text-slate-600 dark:text-slate-300">{message}</p>
      <Button
        variant="outline"
        className="mt-6"
        onClick={() => void signOut({ redirectTo: paths.home.getHref() })}
      >
        <Icon name="lucide:log-out" />
        Sign out
      </Button>
    </section>
  );
}
