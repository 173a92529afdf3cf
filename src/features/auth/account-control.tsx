import { UserButton } from "@clerk/react";
import { useConvexAuth } from "convex/react";
import { Link, useLocation } from "react-router-dom";
import { accountLinks } from "@/components/layout/account-links";
import { AccountMenu } from "@/components/layout/account-menu";
import { buttonVariants } from "@/components/ui/button";
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
      showAdmin={user?.role === "admin"}
      onSignOut={() => void signOut({ redirectTo: paths.home.getHref() })}
    />
  );
}

/**
 * Clerk's own account button with the same pages as the local menu. Clerk's menu has no place for
 * plain text, so the role sits beside the button.
 */
function ClerkAccountButton() {
  const { user } = useCurrentUser();
  return (
    <div className="flex items-center gap-2">
      {user && (
        <span className="rounded-full bg-primary-50 px-2 py-0.5 text-xs font-medium text-primary-700 dark:bg-primary-900/40 dark:text-primary-100">
          <span className="sr-only">Role: </span>
          {ROLE_LABELS[user.role]}
        </span>
      )}
      <UserButton>
        <UserButton.MenuItems>
          {accountLinks(user?.role === "admin").map((link) => (
            <UserButton.Link
              key={link.href}
              label={link.label}
              href={link.href}
              labelIcon={<Icon name={link.icon} className="size-4" />}
            />
          ))}
          <UserButton.Action label="manageAccount" />
          <UserButton.Action label="signOut" />
        </UserButton.MenuItems>
      </UserButton>
    </div>
  );
}
