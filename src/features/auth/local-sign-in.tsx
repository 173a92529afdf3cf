import { useEffect, useState } from "react";
import { PageLoading } from "@/components/layout/page-loading";
import { Icon } from "@/components/ui/icon";
import { DemoAccounts } from "./demo-accounts";
import { signInLocally, signOutLocally, type LocalIdentity } from "./local-auth";
import { useLocalSignInAvailability } from "./local-sign-in-availability";
import { NewUserForm } from "./new-user-form";

/** How long to wait for Convex to accept a fresh local sign-in before calling it failed. */
const CONFIRM_TIMEOUT_MS = 15_000;

/**
 * Local mode's sign-in: pick a demo account or make up a new one; no password, no provider. The
 * page moves on by itself once Convex confirms the session (SignInPage). A server that offers no
 * development sign-in (served to the public, or reached through a proxy) is said to, in words.
 */
export function LocalSignIn() {
  const availability = useLocalSignInAvailability();
  if (availability.state === "checking") return <PageLoading label="Checking sign-in on this server…" />;
  if (availability.state === "off") return <SignInUnavailable message={availability.message} />;
  return <DevelopmentSignIn />;
}

function SignInUnavailable({ message }: { message: string }) {
  return (
    <section
      aria-labelledby="sign-in-unavailable-heading"
      className="flex gap-3 rounded-xl border border-slate-200 bg-slate-50 p-5 dark:border-slate-800 dark:bg-slate-900"
    >
      <Icon name="lucide:log-in" className="mt-1 shrink-0" />
      <div className="space-y-2">
        <h2 id="sign-in-unavailable-heading" className="text-xl font-semibold tracking-tight">
          Sign-in is not available on this server
        </h2>
        <p className="text-sm text-slate-700 dark:text-slate-300">{message}</p>
        <p className="text-sm text-slate-700 dark:text-slate-300">
          Everything public (live shows, shops, explore) works without an account.
        </p>
      </div>
    </section>
  );
}

function DevelopmentSignIn() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  // Still mounted this long after signing in means the backend never accepted the token.
  useEffect(() => {
    if (!busy) return;
    const timer = setTimeout(() => {
      signOutLocally();
      setError("The local backend did not accept the sign-in. Please try again.");
      setBusy(false);
    }, CONFIRM_TIMEOUT_MS);
    return () => clearTimeout(timer);
  }, [busy]);

  async function signIn(identity: LocalIdentity) {
    setBusy(true);
    setError(null);
    try {
      await signInLocally(identity);
    } catch (e) {
      setError(e instanceof Error ? e.message : "Signing in failed.");
      setBusy(false);
    }
  }

  return (
    <div className="space-y-10">
      <div className="flex gap-3 rounded-xl border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950/40 dark:text-amber-100">
        <Icon name="lucide:flask-conical" className="mt-0.5" />
        <p>
          <strong>Development sign-in.</strong> This app is running on the local backend, so there are no
          passwords: choose any account below. Its tokens are signed by the local backend and only it accepts
          them; a real deployment signs in with Clerk instead.
        </p>
      </div>

      {error && (
        <p
          role="alert"
          className="rounded-lg bg-red-50 p-3 text-sm text-red-700 dark:bg-red-950/40 dark:text-red-300"
        >
          {error}
        </p>
      )}
      {busy && (
        <p role="status" className="flex items-center gap-2 text-sm text-slate-600 dark:text-slate-300">
          <Icon name="lucide:loader-circle" className="size-4 animate-spin" />
          Signing in…
        </p>
      )}

      <section aria-labelledby="demo-accounts-heading">
        <h2 id="demo-accounts-heading" className="text-xl font-semibold tracking-tight">
          Demo accounts
        </h2>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
          Seeded with shops, streams and an admin, so every screen has something to show.
        </p>
        <div className="mt-5">
          <DemoAccounts busy={busy} onSignIn={(identity) => void signIn(identity)} />
        </div>
      </section>

      <section aria-labelledby="new-user-heading">
        <h2 id="new-user-heading" className="text-xl font-semibold tracking-tight">
          Sign in as a new user
        </h2>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
          Starts as a viewer, as every new account does. Using the same email again returns to the same
          account.
        </p>
        <div className="mt-5">
          <NewUserForm busy={busy} onSignIn={(identity) => void signIn(identity)} />
        </div>
      </section>
    </div>
  );
}
