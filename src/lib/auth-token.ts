import { createContext, useContext } from "react";

/** Resolves to the token Convex authenticates with, or null when nobody is signed in. */
export type GetAuthToken = () => Promise<string | null>;

/**
 * The signed-in person's Convex auth token, for calls Convex's client does not make itself (HTTP
 * actions). The app provides the sign-in mode's getter (`AuthTokenProvider` in features/auth), so
 * features read it here without importing the auth feature.
 */
export const AuthTokenContext = createContext<GetAuthToken>(() => Promise.resolve(null));

export function useAuthToken(): GetAuthToken {
  return useContext(AuthTokenContext);
}
