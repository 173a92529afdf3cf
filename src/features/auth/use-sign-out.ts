import { useCallback } from "react";
import { useLocation, useNavigate } from "react-router-dom";
import { mode } from "@/config/env";
import { useClerkSignOutFunction } from "./clerk-sign-out";
import { signOutLocally } from "./local-auth";
import { currentPathForRedirect } from "./redirect";

/** Signs out and, given `redirectTo`, lands there; otherwise stays on the current page. */
export type SignOut = (options?: { redirectTo?: string }) => Promise<void>;

// Navigating first matters: signed out on a protected page, RequireAuth would otherwise send the
// visitor to /sign-in before the navigation to `redirectTo` lands. flushSync commits the new page
// before the promise resolves, instead of in a transition that the sign-out could overtake.
function useLocalSignOut(): SignOut {
  const navigate = useNavigate();
  return useCallback(
    async ({ redirectTo } = {}) => {
      if (redirectTo) await navigate(redirectTo, { flushSync: true });
      signOutLocally();
    },
    [navigate],
  );
}

function useClerkSignOut(): SignOut {
  const clerkSignOut = useClerkSignOutFunction();
  const navigate = useNavigate();
  const here = currentPathForRedirect(useLocation());
  return useCallback(
    async ({ redirectTo } = {}) => {
      if (redirectTo) await navigate(redirectTo, { flushSync: true });
      // Without a redirectUrl Clerk goes to afterSignOutUrl (home); "stay here" has to be explicit.
      await clerkSignOut(redirectTo ?? here);
    },
    [clerkSignOut, navigate, here],
  );
}

/** The sign-out of the configured mode; the mode is fixed for the app's lifetime, so the hook order is too. */
export const useSignOut: () => SignOut = mode === "clerk" ? useClerkSignOut : useLocalSignOut;
