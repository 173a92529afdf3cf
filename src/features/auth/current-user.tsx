import { useConvexAuth, useMutation, useQuery } from "convex/react";
import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from "react";
import type { FunctionReturnType } from "convex/server";
import { errorMessage } from "@/lib/errors";
import { api } from "@convex/_generated/api";

export type CurrentUser = NonNullable<FunctionReturnType<typeof api.users.viewer>>;

const EnsureUserErrorContext = createContext<string | null>(null);

/**
 * Creates the signed-in person's user row from their token, once per sign-in (the row does not exist
 * on a first sign-in, and `users.viewer` is null until it does). A failure is kept for
 * `useCurrentUser`, so pages show it instead of loading forever.
 */
export function EnsureUser({ children }: { children: ReactNode }) {
  const { isAuthenticated } = useConvexAuth();
  const ensureUser = useMutation(api.users.ensureUser);
  const [error, setError] = useState<string | null>(null);
  // Survives StrictMode's second effect run, so one sign-in makes one call.
  const ensured = useRef(false);

  useEffect(() => {
    if (!isAuthenticated) {
      ensured.current = false;
      return;
    }
    if (ensured.current) return;
    ensured.current = true;
    ensureUser().then(
      () => setError(null),
      (e: unknown) => {
        console.error(e);
        setError(errorMessage(e));
      },
    );
  }, [isAuthenticated, ensureUser]);

  return <EnsureUserErrorContext value={isAuthenticated ? error : null}>{children}</EnsureUserErrorContext>;
}

/**
 * The signed-in person's profile. Signed in without a user row yet counts as loading (convex-demos
 * `useCurrentUser`); `error` is set when the row could not be created.
 */
export function useCurrentUser(): { isLoading: boolean; user: CurrentUser | null; error: string | null } {
  const { isLoading: authLoading, isAuthenticated } = useConvexAuth();
  const user = useQuery(api.users.viewer, isAuthenticated ? {} : "skip");
  const error = useContext(EnsureUserErrorContext);
  if (authLoading) return { isLoading: true, user: null, error: null };
  if (!isAuthenticated) return { isLoading: false, user: null, error: null };
  if (user) return { isLoading: false, user, error: null };
  return { isLoading: error === null, user: null, error };
}
