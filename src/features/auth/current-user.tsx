import { useConvexAuth, useMutation, useQuery } from "convex/react";
import { ConvexError } from "convex/values";
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from "react";
import type { FunctionReturnType } from "convex/server";
import { mode } from "@/config/env";
import { errorMessage } from "@/lib/errors";
import { api } from "@convex/_generated/api";
import { viewerTimeZone } from "@convex/lib/timeZone";
import { useClerkSignOutFunction } from "./clerk-sign-out";
import { signOutLocally } from "./local-auth";

export type CurrentUser = NonNullable<FunctionReturnType<typeof api.users.viewer>>;

/** What EnsureUser knows about the account beyond its row. */
type AccountState = {
  /** Why the row could not be created or found for this sign-in. */
  error: string | null;
  /** The account was deleted while a page was open here; the session was ended. Kept until dismissed. */
  deleted: boolean;
  /** This sign-in's account was deleted and its owner may choose to start a new, empty one. */
  canStartOver: boolean;
  startNewAccount: () => Promise<void>;
  dismissDeleted: () => void;
};

const AccountStateContext = createContext<AccountState>({
  error: null,
  deleted: false,
  canStartOver: false,
  startNewAccount: () => Promise.resolve(),
  dismissDeleted: () => {},
});

export const ACCOUNT_DELETED_MESSAGE =
  "Your LiveLocal account and its data were deleted, as you asked, and you have been signed out. Signing in again with the same account asks you first before it starts a new, empty one.";

type EnsureFailure = { message: string; canStartOver: boolean };

function failureOf(error: unknown): EnsureFailure {
  const data: unknown = error instanceof ConvexError ? error.data : null;
  const restartable =
    typeof data === "object" &&
    data !== null &&
    "code" in data &&
    data.code === "ACCOUNT_DELETED" &&
    "restartable" in data &&
    data.restartable === true;
  return { message: errorMessage(error), canStartOver: restartable };
}

/** Ends the session of the configured sign-in, staying on the page (RequireAuth then leaves it). */
function useEndSession(): () => Promise<void> {
  const clerkSignOut = useClerkSignOutFunction();
  return useCallback(async () => {
    if (mode === "local") signOutLocally();
    else await clerkSignOut(`${window.location.pathname}${window.location.search}`);
  }, [clerkSignOut]);
}

/**
 * Creates the signed-in person's user row from their token, once per sign-in (the row does not exist
 * on a first sign-in, and `users.viewer` is null until it does). A failure is kept for
 * `useCurrentUser`, so pages show it instead of loading forever. A row that disappears during the
 * sign-in (an approved deletion) ends the session at once, so a reload cannot quietly start a new account
 * (decision 027); signing in again with a deleted account's sign-in offers a new account, never makes one
 * unasked.
 */
export function EnsureUser({ children }: { children: ReactNode }) {
  const { isAuthenticated } = useConvexAuth();
  const ensureUser = useMutation(api.users.ensureUser);
  const startOver = useMutation(api.users.startNewAccount);
  const endSession = useEndSession();
  const [failure, setFailure] = useState<EnsureFailure | null>(null);
  // Survives StrictMode's second effect run, so one sign-in makes one call.
  const ensured = useRef(false);
  // A row that existed during this sign-in and is gone: the account was deleted while the page was open.
  const user = useQuery(api.users.viewer, isAuthenticated ? {} : "skip");
  const [hadRow, setHadRow] = useState(false);
  const [deleted, setDeleted] = useState(false);
  if (isAuthenticated && user && !hadRow) setHadRow(true);
  if (!isAuthenticated && hadRow) setHadRow(false);
  const rowVanished = isAuthenticated && hadRow && user === null;
  if (rowVanished && !deleted) setDeleted(true);
  // Signed in again: the news of the deletion gave way to this sign-in.
  if (isAuthenticated && !hadRow && deleted) setDeleted(false);

  useEffect(() => {
    if (!rowVanished) return;
    endSession().catch((e: unknown) => console.error(e));
  }, [rowVanished, endSession]);

  useEffect(() => {
    if (!isAuthenticated) {
      ensured.current = false;
      return;
    }
    if (ensured.current) return;
    ensured.current = true;
    // The browser's zone goes along, for when "Monday morning" is for the weekly digest.
    ensureUser({ timeZone: viewerTimeZone() }).then(
      () => setFailure(null),
      (e: unknown) => {
        console.error(e);
        setFailure(failureOf(e));
      },
    );
  }, [isAuthenticated, ensureUser]);

  const startNewAccount = useCallback(async () => {
    try {
      await startOver();
      setFailure(null);
    } catch (e) {
      setFailure(failureOf(e));
    }
  }, [startOver]);
  const dismissDeleted = useCallback(() => setDeleted(false), []);

  const state = useMemo<AccountState>(
    () => ({
      error: isAuthenticated ? (failure?.message ?? null) : null,
      deleted,
      canStartOver: isAuthenticated && failure !== null && failure.canStartOver,
      startNewAccount,
      dismissDeleted,
    }),
    [isAuthenticated, failure, deleted, startNewAccount, dismissDeleted],
  );
  return <AccountStateContext value={state}>{children}</AccountStateContext>;
}

/**
 * The signed-in person's profile. Signed in without a user row yet counts as loading (convex-demos
 * `useCurrentUser`); `error` is set when the row could not be created, `deleted` when the account was
 * deleted during this session (which ended it).
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
  if (authLoading) return { isLoading: true, user: null, error: null, deleted };
  if (!isAuthenticated) return { isLoading: false, user: null, error: null, deleted };
  if (user) return { isLoading: false, user, error: null, deleted: false };
  if (deleted) return { isLoading: false, user: null, error: ACCOUNT_DELETED_MESSAGE, deleted };
  return { isLoading: error === null, user: null, error, deleted: false };
}

/** Whether this sign-in may start a new account after its account was deleted, and how. */
export function useStartNewAccount(): { canStartOver: boolean; startNewAccount: () => Promise<void> } {
  const { canStartOver, startNewAccount } = useContext(AccountStateContext);
  return { canStartOver, startNewAccount };
}

/** The account deleted during this session (already signed out), until the person dismisses the news. */
export function useAccountDeleted(): { deleted: boolean; dismiss: () => void } {
  const { deleted, dismissDeleted } = useContext(AccountStateContext);
  return { deleted, dismiss: dismissDeleted };
}
