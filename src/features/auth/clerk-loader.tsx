import { ClerkProvider, useClerk, type ClerkProviderProps } from "@clerk/react";
import { useCallback, useEffect, useState, type ReactNode } from "react";
import { PageLoading } from "@/components/layout/page-loading";
import { backoffDelayMs, type BackoffPolicy } from "@/lib/backoff";
import { ClerkLoadFailed } from "./clerk-load-failed";

/** docs/product.md#errors: retry the sign-in script after 125 ms, doubling, up to 5 times. */
export const CLERK_RETRY: BackoffPolicy = { initialDelayMs: 125, factor: 2, maxRetries: 5 };

type LoadState = {
  /** Keys the provider: each attempt is a fresh ClerkProvider. */
  attempt: number;
  /** Retries used since the last fresh start (the Retry button starts over). */
  retries: number;
  phase: "loading" | "waiting" | "failed";
};

type ClerkLoaderProps = { options: Omit<ClerkProviderProps, "children">; children: ReactNode };

/**
 * ClerkProvider, retried when Clerk reports that it could not load (docs/product.md#errors). Clerk
 * keeps one instance per publishable key and only forgets it when its provider unmounts, so between
 * attempts nothing of the provider stays mounted; the next attempt then loads the script anew
 * (decision 010).
 */
export function ClerkLoader({ options, children }: ClerkLoaderProps) {
  const [state, setState] = useState<LoadState>({ attempt: 0, retries: 0, phase: "loading" });

  // Tied to its attempt, so a late or repeated report (StrictMode runs effects twice) changes nothing.
  const onFailed = useCallback((attempt: number) => {
    setState((current) => {
      if (current.attempt !== attempt || current.phase !== "loading") return current;
      const next = backoffDelayMs(current.retries + 1, CLERK_RETRY);
      return { ...current, phase: next === null ? "failed" : "waiting" };
    });
  }, []);

  useEffect(() => {
    if (state.phase !== "waiting") return;
    const delay = backoffDelayMs(state.retries + 1, CLERK_RETRY) ?? 0;
    const timer = setTimeout(() => {
      setState((current) => ({
        attempt: current.attempt + 1,
        retries: current.retries + 1,
        phase: "loading",
      }));
    }, delay);
    return () => clearTimeout(timer);
  }, [state.phase, state.retries]);

  if (state.phase === "failed") {
    return (
      <ClerkLoadFailed
        onRetry={() =>
          setState((current) => ({ attempt: current.attempt + 1, retries: 0, phase: "loading" }))
        }
      />
    );
  }
  if (state.phase === "waiting") {
    return (
      <main className="min-h-dvh">
        <PageLoading label="Reconnecting to the sign-in service…" />
      </main>
    );
  }
  return (
    <ClerkProvider key={state.attempt} {...options}>
      <ReportLoadFailure attempt={state.attempt} onFailed={onFailed} />
      {children}
    </ClerkProvider>
  );
}

/** Tells the loader when Clerk's own status says the load failed (its `<ClerkFailed>` reads the same). */
function ReportLoadFailure({ attempt, onFailed }: { attempt: number; onFailed: (attempt: number) => void }) {
  const { status } = useClerk();
  useEffect(() => {
    if (status === "error") onFailed(attempt);
  }, [status, attempt, onFailed]);
  return null;
}
