import { useConvexAuth } from "convex/react";
import { lazy, Suspense } from "react";
import { Link, useLocation } from "react-router-dom";
import { AccountMenu } from "@/components/layout/account-menu";
import { AccountPlaceholder } from "@/components/layout/account-placeholder";
import { buttonVariants } from "@/components/ui/button-variants";
import { Icon } from "@/components/ui/icon";
import { mode } from "@/config/env";
import { paths } from "@/config/paths";
import { ROLE_LABELS } from "@/lib/roles";
import { useCurrentUser } from "./current-user";
import { useLocalSession } from "./local-auth";
import { currentPathForRedirect } from "./redirect";
import { useSignOut } from "./use-sign-out";

/** The header's account control: "Sign in" when signed out, the account menu when signed in. */
export function AccountControl() {
  const { isLoading, isAuthenticated } = useConvexAuth();
  if (isLoading) return <AccountPlaceholder />;
  if (!isAuthenticated) return <SignInLink />;
  if (mode === "local") return <LocalAccountMenu />;
  return (
    <Suspense fallback={<AccountPlaceholder />}>
      <ClerkAccountButton />
    </Suspense>
  );
}

// Clerk's button comes with Clerk's module, loaded only in Clerk mode (the initial-JS budget).
const ClerkAccountButton = lazy(async () => ({
  default: (await import("./clerk-account-button")).ClerkAccountButton,
}));

function SignInLink() {
  const location = useLocation();
  // On /sign-in itself, keep the page's own redirect rather than pointing back at the sign-in page.
  const to =
    location.pathname === paths.signIn.path
      ? `${location.pathname}${location.search}`
      : paths.signIn.getHref(currentPathForRedirect(location));
  return (
    <Link to={to} className={buttonVariants({ size: "sm" })}>
      <Icon name="lucide:log-in" className="size-4" />
      Sign in
    </Link>
  );
}

function LocalAccountMenu() {
  const { user } = useCurrentUser();
  const identity = useLocalSession();
  const signOut = useSignOut();
  // Until the user row exists, the session's own name and email stand in.
  const name = user?.name ?? identity?.name ?? user?.email ?? "Account";
  return (
    <AccountMenu
      user={{
        name,
        email: user?.email ?? identity?.email ?? "",
        roleLabel: user ? ROLE_LABELS[user.role] : "Setting up…",
        avatarUrl: user?.avatar ?? identity?.picture,
      }}
      showAdmin={user?.role === "admin"}
      onSignOut={() => void signOut({ redirectTo: paths.home.getHref() })}
    />
  );
}
