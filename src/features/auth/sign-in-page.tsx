import { useConvexAuth } from "convex/react";
import { lazy, Suspense, useState } from "react";
import { Navigate, useLocation, useSearchParams } from "react-router-dom";
import { PageLoading } from "@/components/layout/page-loading";
import { mode } from "@/config/env";
import { useDocumentTitle } from "@/lib/use-document-title";
import { LocalSignIn } from "./local-sign-in";
import { safeRedirect } from "./redirect";
import { SignedInPanel } from "./signed-in-panel";

// Clerk's sign-in comes with Clerk's module, so local mode never downloads it.
const ClerkSignIn = lazy(async () => ({ default: (await import("./clerk-sign-in")).ClerkSignIn }));

export function SignInPage() {
  useDocumentTitle("Sign in");
  const [searchParams] = useSearchParams();
  const location = useLocation();
  const redirectTo = safeRedirect(searchParams.get("redirect"));
  const { isLoading, isAuthenticated } = useConvexAuth();
  // Whether this visit began signed out. Convex keeps reporting "signed out" until the server has
  // accepted a fresh sign-in, so the page leaves only once it has; leaving earlier would reach
  // RequireAuth while it still sees a signed-out visitor and bounce straight back here.
  const [startedSignedOut, setStartedSignedOut] = useState(false);
  if (!startedSignedOut && !isLoading && !isAuthenticated) setStartedSignedOut(true);

  if (isAuthenticated && startedSignedOut) return <Navigate to={redirectTo} replace />;

  let content;
  if (isLoading) content = <PageLoading label="Checking your sign-in…" />;
  else if (isAuthenticated) content = <SignedInPanel redirectTo={redirectTo} />;
  // Clerk returns here when done (not to the target), for the same reason. No hash: Clerk's steps live there.
  else if (mode === "clerk") {
    content = (
      <Suspense fallback={<PageLoading label="Loading sign-in…" />}>
        <ClerkSignIn returnTo={`${location.pathname}${location.search}`} />
      </Suspense>
    );
  } else content = <LocalSignIn />;

  return (
    <div className="mx-auto max-w-4xl px-4 py-12">
      {!isAuthenticated && (
        <header className="mb-10 max-w-2xl">
          <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">Sign in to LiveLocal</h1>
          <p className="mt-3 text-slate-600 dark:text-slate-300">
            Keep a watch list, follow shops and open your dashboard to run a live shop.
          </p>
        </header>
      )}
      {content}
    </div>
  );
}
