import { useCallback, type ReactNode } from "react";
import { mode } from "@/config/env";
import { AuthTokenContext, type GetAuthToken } from "@/lib/auth-token";
import { fetchLocalToken, useLocalSession } from "./local-auth";

/** The local backend's development token for the signed-in identity (the one Convex uses, cached). */
function useLocalAuthToken(): GetAuthToken {
  const identity = useLocalSession();
  return useCallback(
    async () => (identity ? await fetchLocalToken(identity, { forceRefreshToken: false }) : null),
    [identity],
  );
}

// Clerk's `getToken` works outside components (it waits for Clerk to load); importing it only when
// asked keeps Clerk out of every chunk local mode downloads, as the lazily loaded provider does.
async function clerkToken(): Promise<string | null> {
  const { getToken } = await import("@clerk/react");
  return await getToken({ template: "convex" });
}

function useClerkAuthToken(): GetAuthToken {
  return clerkToken;
}

/**
 * A function returning the signed-in person's Convex auth token, for calls Convex's client does not
 * make itself (HTTP actions): the same JWT template Convex uses. The mode is fixed for the app's
 * lifetime, so the hook order is too.
 */
export const useAuthTokenGetter: () => GetAuthToken =
  mode === "clerk" ? useClerkAuthToken : useLocalAuthToken;

/** Gives every page the token getter of the configured mode, read with `useAuthToken` of src/lib. */
export function AuthTokenProvider({ children }: { children: ReactNode }) {
  return <AuthTokenContext value={useAuthTokenGetter()}>{children}</AuthTokenContext>;
}
