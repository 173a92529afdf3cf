import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Icon } from "@/components/ui/icon";
import { paths } from "@/config/paths";
import { useStartNewAccount } from "./current-user";
import { useSignOut } from "./use-sign-out";

/**
 * Shown when signed in without a usable account row: it could not be created (EnsureUser failed), or
 * this sign-in's account was deleted, when the person may choose to start a new, empty account with it.
 */
export function AccountProblem({ message }: { message: string }) {
  const signOut = useSignOut();
  const { canStartOver, startNewAccount } = useStartNewAccount();
  const [starting, setStarting] = useState(false);
  return (
    <section role="alert" className="mx-auto flex max-w-md flex-col items-center px-4 py-24 text-center">
      <Icon name="lucide:triangle-alert" className="size-10 text-amber-500" />
      <h1 className="mt-4 text-2xl font-bold tracking-tight">
        {canStartOver ? "This account was deleted" : "Your account isn't ready"}
      </h1>
      <p className="mt-3 text-slate-600 dark:text-slate-300">{message}</p>
      <div className="mt-6 flex flex-wrap justify-center gap-3">
        {canStartOver && (
          <Button
            disabled={starting}
            onClick={() => {
              setStarting(true);
              void startNewAccount().finally(() => setStarting(false));
            }}
          >
            {starting ? "Starting…" : "Start a new account"}
          </Button>
        )}
        <Button variant="outline" onClick={() => void signOut({ redirectTo: paths.home.getHref() })}>
          <Icon name="lucide:log-out" />
          Sign out
        </Button>
      </div>
    </section>
  );
}
