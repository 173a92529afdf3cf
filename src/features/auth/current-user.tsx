import { useConvexAuth, useMutation, useQuery } from "convex/react";
import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from "react";
import type { FunctionReturnType } from "convex/server";
import { errorMessage } from "@/lib/errors";
import { api } from "@convex/_generated/api";

export type CurrentUser = NonNullable<FunctionReturnType<typeof api.users.viewer>>;

/** What EnsureUser knows about the row: a failure to create it, or its removal while signed in. */
type AccountState = { error: string | null; deleted: boolean };

const AccountStateContext = createContext<AccountState>({ error: null, deleted: false });

export const ACCOUNT_DELETED_MESSAGE =
  "Your LiveLocal account and its data were deleted, as you asked. Sign out to finish; signing in again starts a new, empty account.";

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
  // A row that existed during this sign-in and is gone: the account was deleted (an approved privacy
  // request) while the page was open. Shown as such, rather than as "setting up" forever.
  const user = useQuery(api.users.viewer, isAuthenticated ? {} : "skip");
  const [hadRow, setHadRow] = useState(false);
  if (isAuthenticated && user && !hadRow) setHadRow(true);
  if (!isAuthenticated && hadRow) setHadRow(false);
  const deleted = isAuthenticated && hadRow && user === null;

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

  return (
    <AccountStateContext value={{ error: isAuthenticated ? error : null, deleted }}>
      {children}
    </AccountStateContext>
  );
}

/**
 * The signed-in person's profile. Signed in without a user row yet counts as loading (convex-demos
 * `useCurrentUser`); `error` is set when the row could not be created, `deleted` when it was removed
 * during this sign-in (then `error` says so too).
 */
export function useCurrentUser(): {
  isLoading: boolean;
  user: CurrentUser | null;
  error: string | null;
  deleted: boolean;
} {
  const { isLoading: authLoading, isAuthenticated } = useConvexAuth();
  const user = useQuery(api.users.viewer, isAuthenticated ? {} : "skip");
  const { error, deleted } = useContext(AccountStateContext);
  if (authLoading) return { isLoading: true, user: null, error: null, deleted: false };
  if (!isAuthenticated) return { isLoading: false, user: null, error: null, deleted: false };
  if (user) return { isLoading: false, user, error: null, deleted: false };
  if (deleted) return { isLoading: false, user: null, error: ACCOUNT_DELETED_MESSAGE, deleted };
  return { isLoading: error === null, user: null, error, deleted: false };
}
