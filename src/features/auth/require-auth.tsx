import { useConvexAuth } from "convex/react";
import { useState, type ReactNode } from "react";
import { Navigate, Outlet, useLocation } from "react-router-dom";
import { PageLoading } from "@/components/layout/page-loading";
import { paths } from "@/config/paths";
import { AccountProblem } from "./account-problem";
import { useCurrentUser } from "./current-user";
import { currentPathForRedirect } from "./redirect";

/**
 * Guards a route for signed-in people (docs/product.md#screens-and-routes). Follows Convex's session, not
 * the sign-in provider's, and waits for both it and the user row, so nothing protected renders early.
 * Renders `children`, or the child routes when used as a layout route.
 */
export function RequireAuth({ children }: { children?: ReactNode }) {
  const { isLoading, isAuthenticated } = useConvexAuth();
  const { isLoading: userLoading, error, deleted } = useCurrentUser();
  const location = useLocation();
  // Someone who signs out here (or in another tab) meant to leave: they go home, not to sign-in.
  const [wasSignedIn, setWasSignedIn] = useState(false);
  if (isAuthenticated && !wasSignedIn) setWasSignedIn(true);

  if (isLoading) return <PageLoading label="Checking your sign-in…" />;
  if (!isAuthenticated) {
    const to = wasSignedIn ? paths.home.getHref() : paths.signIn.getHref(currentPathForRedirect(location));
    return <Navigate to={to} replace />;
  }
  // The session is ending; AccountDeletedNotice above the page says why.
  if (deleted) return <PageLoading label="Signing you out…" />;
  if (error) return <AccountProblem message={error} />;
  if (userLoading) return <PageLoading label="Setting up your account…" />;
  return children ?? <Outlet />;
}
