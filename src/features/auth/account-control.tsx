import { UserButton } from "@clerk/react";
import { useConvexAuth } from "convex/react";
import { Link, useLocation } from "react-router-dom";
import { AccountMenu } from "@/components/layout/account-menu";
import { buttonVariants } from "@/components/ui/button";
import { Icon } from "@/components/ui/icon";
import { mode } from "@/config/env";
import { paths } from "@/config/paths";
import { useSignInProviderFailed } from "./auth-pending";
import { useCurrentUser } from "./current-user";
import { useLocalSession } from "./local-auth";
import { currentPathForRedirect } from "./redirect";
import { ROLE_LABELS } from "./roles";
import { useSignOut } from "./use-sign-out";

/** The header's account control: "Sign in" when signed out, the account menu when signed in. */
export function AccountControl() {
  const { isLoading, isAuthenticated } = useConvexAuth();
  const providerFailed = useSignInProviderFailed();
  // A failed provider never finishes loading; the sign-in page explains what went wrong.
  if (isLoading && providerFailed) return <SignInLink />;
  if (isLoading) {
    return (
      <span aria-hidden="true" className="size-9 animate-pulse rounded-full bg-slate-200 dark:bg-slate-800" />
    );
  }
  if (!isAuthenticated) return <SignInLink />;
  return mode === "clerk" ? <ClerkAccountButton /> : <LocalAccountMenu />;
}

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
      onSignOut={() => void signOut({ redirectTo: paths.home.getHref() })}
    />
  );
}

function ClerkAccountButton() {
  return (
    <UserButton>
      <UserButton.MenuItems>
        <UserButton.Link
          label="Dashboard"
          href={paths.dashboard.root.getHref()}
          labelIcon={<Icon name="lucide:layout-dashboard" className="size-4" />}
        />
      </UserButton.MenuItems>
    </UserButton>
  );
}
