import { ConvexProviderWithAuth, ConvexReactClient } from "convex/react";
import { lazy, Suspense, type ReactNode } from "react";
import { PageLoading } from "@/components/layout/page-loading";
import type { AppConfig } from "@/config/env";
import { EnsureUser } from "@/features/auth/current-user";
import { useLocalAuth } from "@/features/auth/local-auth";
import { AuthTokenProvider } from "@/features/auth/use-auth-token";

/** Client-side navigation for Clerk's components, so its redirects do not reload the page. */
export type Navigate = (to: string, options?: { replace?: boolean }) => unknown;

// One client for the page's lifetime: it owns the WebSocket and the query cache.
const clients = new Map<string, ConvexReactClient>();
export function convexClientFor(url: string): ConvexReactClient {
  let client = clients.get(url);
  if (!client) {
    client = new ConvexReactClient(url);
    clients.set(url, client);
  }
  return client;
}

// Clerk is loaded only in Clerk mode and never counts towards the initial JavaScript: local mode
// never downloads it (docs/decisions/016-initial-javascript-builds-and-serving.md).
const ClerkAuthProvider = lazy(async () => ({
  default: (await import("@/features/auth/clerk-auth-provider")).ClerkAuthProvider,
}));

type AppProviderProps = { config: AppConfig; navigate: Navigate; children: ReactNode };

/**
 * Convex with the sign-in of the configured mode: Clerk on a real deployment, the local backend's
 * development sign-in otherwise. Either way, components read the session through `useConvexAuth()`.
 */
export function AppProvider({ config, navigate, children }: AppProviderProps) {
  const client = convexClientFor(config.convexUrl);
  if (config.mode === "local") return <LocalSessionProvider client={client}>{children}</LocalSessionProvider>;
  return (
    <Suspense fallback={<PageLoading label="Loading the sign-in service…" />}>
      <ClerkAuthProvider client={client} publishableKey={config.clerkPublishableKey} navigate={navigate}>
        <AuthTokenProvider>{children}</AuthTokenProvider>
      </ClerkAuthProvider>
    </Suspense>
  );
}

/** Local mode's session around `client`: the development sign-in's tokens, the user row made on sign-in. */
export function LocalSessionProvider({
  client,
  children,
}: {
  client: ConvexReactClient;
  children: ReactNode;
}) {
  return (
    <ConvexProviderWithAuth client={client} useAuth={useLocalAuth}>
      <EnsureUser>
        <AuthTokenProvider>{children}</AuthTokenProvider>
      </EnsureUser>
    </ConvexProviderWithAuth>
  );
}
