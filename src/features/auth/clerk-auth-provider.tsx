/**
 * Everything of Clerk the app needs around its pages. Imported only with `import()` in Clerk mode, so
 * local mode never downloads Clerk and Clerk mode keeps it out of the initial JavaScript budget.
 */
import { useAuth, useClerk } from "@clerk/react";
import type { ConvexReactClient } from "convex/react";
import { ConvexProviderWithClerk } from "convex/react-clerk";
import { useCallback, type ReactNode } from "react";
import { paths } from "@/config/paths";
import { ClerkLoader } from "./clerk-loader";
import { ClerkSignOutContext } from "./clerk-sign-out";
import { EnsureUser } from "./current-user";

type ClerkAuthProviderProps = {
  client: ConvexReactClient;
  publishableKey: string;
  navigate: (to: string, options?: { replace?: boolean }) => unknown;
  children: ReactNode;
};

export function ClerkAuthProvider({ client, publishableKey, navigate, children }: ClerkAuthProviderProps) {
  return (
    <ClerkLoader
      options={{
        publishableKey,
        routerPush: (to) => navigate(to),
        routerReplace: (to) => navigate(to, { replace: true }),
        signInUrl: paths.signIn.getHref(),
        afterSignOutUrl: paths.home.getHref(),
      }}
    >
      <ConvexProviderWithClerk client={client} useAuth={useAuth}>
        <ProvideClerkSignOut>
          <EnsureUser>{children}</EnsureUser>
        </ProvideClerkSignOut>
      </ConvexProviderWithClerk>
    </ClerkLoader>
  );
}

function ProvideClerkSignOut({ children }: { children: ReactNode }) {
  const clerk = useClerk();
  const signOut = useCallback((redirectUrl: string) => clerk.signOut({ redirectUrl }), [clerk]);
  return <ClerkSignOutContext value={signOut}>{children}</ClerkSignOutContext>;
}
