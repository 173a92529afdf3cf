import { SignIn } from "@clerk/react";

/**
 * Clerk's hosted sign-in. Hash routing keeps its steps inside /sign-in, so the router needs no splat
 * route. When done it returns to `returnTo` (this page), which moves on once Convex has the session.
 * The page shows it only once Clerk has loaded; a Clerk that cannot load is ClerkLoader's concern.
 */
export function ClerkSignIn({ returnTo }: { returnTo: string }) {
  return (
    <div className="flex flex-col items-center">
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
