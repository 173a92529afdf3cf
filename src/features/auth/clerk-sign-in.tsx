import { ClerkFailed, ClerkLoading, SignIn } from "@clerk/react";
import { PageLoading } from "@/components/layout/page-loading";
import { SignInProviderFailed } from "./auth-pending";

/**
 * Clerk's hosted sign-in. Hash routing keeps its steps inside /sign-in, so the router needs no splat
 * route. When done it returns to `returnTo` (this page), which moves on once Convex has the session.
 */
export function ClerkSignIn({ returnTo }: { returnTo: string }) {
  return (
    <div className="flex flex-col items-center">
      <ClerkLoading>
        <PageLoading label="Loading sign-in…" />
      </ClerkLoading>
      <ClerkFailed>
        <SignInProviderFailed />
      </ClerkFailed>
      <SignIn
        routing="hash"
        // There is no separate sign-up page: new people sign up in the same component.
        withSignUp
        forceRedirectUrl={returnTo}
        signUpForceRedirectUrl={returnTo}
      />
    </div>
  );
}
