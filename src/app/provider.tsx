import { useAuth } from "@clerk/react";
import { ConvexProviderWithAuth, ConvexReactClient } from "convex/react";
import { ConvexProviderWithClerk } from "convex/react-clerk";
import type { ReactNode } from "react";
import type { AppConfig } from "@/config/env";
import { paths } from "@/config/paths";
import { ClerkLoader } from "@/features/auth/clerk-loader";
import { EnsureUser } from "@/features/auth/current-user";
import { useLocalAuth } from "@/features/auth/local-auth";

/** Client-side navigation for Clerk's components, so its redirects do not reload the page. */
export type Navigate = (to: string, options?: { replace?: boolean }) => unknown;

// One client for the page's lifetime: it owns the WebSocket and the query cache.
const clients = new Map<string, ConvexReactClient>();
function convexClientFor(url: string): ConvexReactClient {
  let client = clients.get(url);
  if (!client) {
    client = new ConvexReactClient(url);
    clients.set(url, client);
  }
  return client;
}

type AppProviderProps = { config: AppConfig; navigate: Navigate; children: ReactNode };

/**
 * Convex with the sign-in of the configured mode: Clerk on a real deployment, the local backend's
 * development sign-in otherwise. Either way, components read the session through `useConvexAuth()`.
 */
export function AppProvider({ config, navigate, children }: AppProviderProps) {
  const client = convexClientFor(config.convexUrl);
  if (config.mode === "local") {
    return (
      <ConvexProviderWithAuth client={client} useAuth={useLocalAuth}>
        <EnsureUser>{children}</EnsureUser>
      </ConvexProviderWithAuth>
    );
  }
  return (
    <ClerkLoader
      options={{
        publishableKey: config.clerkPublishableKey,
        routerPush: (to) => navigate(to),
        routerReplace: (to) => navigate(to, { replace: true }),
        signInUrl: paths.signIn.getHref(),
        afterSignOutUrl: paths.home.getHref(),
      }}
    >
      <ConvexProviderWithClerk client={client} useAuth={useAuth}>
        <EnsureUser>{children}</EnsureUser>
      </ConvexProviderWithClerk>
    </ClerkLoader>
  );
}
