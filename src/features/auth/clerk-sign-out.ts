import { createContext, useContext } from "react";

/** Clerk's sign-out, handed down by the lazily loaded Clerk provider so this module never imports Clerk. */
export type ClerkSignOut = (redirectUrl: string) => Promise<void>;

export const ClerkSignOutContext = createContext<ClerkSignOut | null>(null);

/** Clerk's sign-out; before Clerk's module has loaded there is nobody signed in to sign out. */
export function useClerkSignOutFunction(): ClerkSignOut {
  return useContext(ClerkSignOutContext) ?? (() => Promise.resolve());
}
