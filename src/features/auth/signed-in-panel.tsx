import { Link } from "react-router-dom";
import { PageLoading } from "@/components/layout/page-loading";
import { Button } from "@/components/ui/button";
import { buttonVariants } from "@/components/ui/button-variants";
import { Icon } from "@/components/ui/icon";
import { paths } from "@/config/paths";
import { ROLE_LABELS } from "@/lib/roles";
import { useCurrentUser } from "./current-user";
import { useSignOut } from "./use-sign-out";

/** /sign-in for someone already signed in: who they are, a way on, and a way out. */
export function SignedInPanel({ redirectTo }: { redirectTo: string }) {
  const { isLoading, user, error } = useCurrentUser();
  const signOut = useSignOut();
  if (isLoading) return <PageLoading label="Loading your account…" />;
  const toDashboard = redirectTo === paths.dashboard.root.getHref();
  return (
    <section aria-labelledby="signed-in-heading" className="mx-auto max-w-md text-center">
      <Icon name="lucide:circle-user" className="size-12 text-primary-600" />
      <h1 id="signed-in-heading" className="mt-4 text-3xl font-bold tracking-tight">
        You're signed in
      </h1>
      {user ? (
        <p className="mt-3 text-slate-600 dark:text-slate-300">
          as <strong className="text-slate-900 dark:text-white">{user.name ?? user.email}</strong>
          {user.name && <> ({user.email})</>}, {ROLE_LABELS[user.role].toLowerCase()}.
        </p>
      ) : (
        <p role="alert" className="mt-3 text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Link to={redirectTo} className={buttonVariants()}>
          {toDashboard ? "Go to your dashboard" : "Continue"}
        </Link>
        <Button variant="outline" onClick={() => void signOut()}>
          <Icon name="lucide:log-out" />
          Sign out
        </Button>
      </div>
    </section>
  );
}
