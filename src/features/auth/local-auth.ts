/**
 * Development sign-in for local mode. The chosen identity is kept in localStorage (so every tab shares
 * it); tokens are signed by the local backend (`POST /local-auth/token`) and kept only in memory, so a
 * stored session is just a name and can never be replayed against a real deployment.
 */
import { useCallback, useMemo, useSyncExternalStore } from "react";

export const LOCAL_SESSION_KEY = "livelocal:local-session";
export const LOCAL_TOKEN_ENDPOINT = "/local-auth/token";
/** A cached token this close to expiry is replaced rather than handed to Convex. */
export const TOKEN_REFRESH_MARGIN_MS = 60_000;

export type LocalIdentity = { sub: string; email: string; name: string; picture?: string };
type IssuedToken = { token: string; expiresAt: number };
type CachedToken = IssuedToken & { sub: string };

// Plain checks rather than zod: this module is in the main chunk, and even zod/mini's core costs a
// tenth of the initial-JS budget (issue 5). The same rules as the sign-in form's, which does use zod.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The identity when `value` is one (a non-empty subject, an email, a name, maybe a picture), else null. */
function asIdentity(value: unknown): LocalIdentity | null {
  if (typeof value !== "object" || value === null) return null;
  const { sub, email, name, picture } = value as Record<string, unknown>;
  if (typeof sub !== "string" || sub === "" || typeof email !== "string" || !EMAIL.test(email)) return null;
  if (typeof name !== "string" || (picture !== undefined && typeof picture !== "string")) return null;
  return picture === undefined ? { sub, email, name } : { sub, email, name, picture };
}

function asIssuedToken(value: unknown): IssuedToken {
  const { token, expiresAt } = (typeof value === "object" && value !== null ? value : {}) as Record<
    string,
    unknown
  >;
  if (typeof token !== "string" || token === "" || typeof expiresAt !== "number") {
    throw new Error("The local backend answered with something that is not a token.");
  }
  return { token, expiresAt };
}

// ---------------------------------------------------------------------------------------------
// Session store (the identity)
// ---------------------------------------------------------------------------------------------

const listeners = new Set<() => void>();
let lastRaw: string | null = null;
let lastIdentity: LocalIdentity | null = null;

function readRaw(): string | null {
  try {
    return localStorage.getItem(LOCAL_SESSION_KEY);
  } catch {
    return null;
  }
}

/** The signed-in local identity, or null. Returns the same object while the stored value is unchanged. */
export function readLocalSession(): LocalIdentity | null {
  const raw = readRaw();
  if (raw !== lastRaw) {
    lastRaw = raw;
    lastIdentity = parseIdentity(raw);
  }
  return lastIdentity;
}

function parseIdentity(raw: string | null): LocalIdentity | null {
  if (raw === null) return null;
  try {
    return asIdentity(JSON.parse(raw));
  } catch {
    return null;
  }
}

function notify(): void {
  for (const listener of listeners) listener();
}

// Other tabs write the same key; `storage` fires there only (key null means storage was cleared).
function onStorage(event: StorageEvent): void {
  if (event.key === null || event.key === LOCAL_SESSION_KEY) notify();
}

export function subscribeLocalSession(listener: () => void): () => void {
  if (listeners.size === 0) window.addEventListener("storage", onStorage);
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) window.removeEventListener("storage", onStorage);
  };
}

export function useLocalSession(): LocalIdentity | null {
  return useSyncExternalStore(subscribeLocalSession, readLocalSession, () => null);
}

// ---------------------------------------------------------------------------------------------
// Tokens
// ---------------------------------------------------------------------------------------------

let cachedToken: CachedToken | null = null;
let pending: { sub: string; promise: Promise<CachedToken> } | null = null;

async function requestToken(identity: LocalIdentity): Promise<CachedToken> {
  const response = await fetch(LOCAL_TOKEN_ENDPOINT, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(identity),
  });
  if (!response.ok) {
    // The backend says why in words (a rate limit says when to try again); otherwise, the status.
    const reason = await response
      .json()
      .then((body: unknown) => (body as { message?: unknown } | null)?.message)
      .catch(() => undefined);
    throw new Error(
      typeof reason === "string" && response.status < 500
        ? reason
        : `The local backend refused to sign you in (HTTP ${response.status}). Is \`npm run dev\` running?`,
    );
  }
  const issued = asIssuedToken(await response.json());
  cachedToken = { ...issued, sub: identity.sub };
  return cachedToken;
}

/** One request at a time per identity: Convex and a sign-in may ask together. */
function tokenFor(identity: LocalIdentity): Promise<CachedToken> {
  if (pending?.sub === identity.sub) return pending.promise;
  const promise = requestToken(identity).finally(() => {
    if (pending?.promise === promise) pending = null;
  });
  pending = { sub: identity.sub, promise };
  return promise;
}

/**
 * A token for `identity`: the cached one unless a refresh is forced (Convex asks after the server
 * rejected it) or it expires within a minute. Null when the local backend cannot be reached, which
 * Convex treats as signed out.
 */
export async function fetchLocalToken(
  identity: LocalIdentity,
  { forceRefreshToken }: { forceRefreshToken: boolean },
): Promise<string | null> {
  const cached = cachedToken;
  if (
    !forceRefreshToken &&
    cached?.sub === identity.sub &&
    cached.expiresAt - Date.now() > TOKEN_REFRESH_MARGIN_MS
  ) {
    return cached.token;
  }
  try {
    return (await tokenFor(identity)).token;
  } catch (error) {
    console.error(error);
    return null;
  }
}

// ---------------------------------------------------------------------------------------------
// Sign in and out
// ---------------------------------------------------------------------------------------------

/** Signs in as `identity` in every tab. Fetches a token first, so an unreachable backend fails here, visibly. */
export async function signInLocally(identity: LocalIdentity): Promise<void> {
  const checked = asIdentity(identity);
  if (!checked) throw new Error("A local identity needs a subject, a valid email and a name.");
  await tokenFor(checked);
  localStorage.setItem(LOCAL_SESSION_KEY, JSON.stringify(checked));
  notify();
}

export function signOutLocally(): void {
  cachedToken = null;
  pending = null;
  try {
    localStorage.removeItem(LOCAL_SESSION_KEY);
  } catch {
    // Storage unavailable: there was no stored session to remove.
  }
  notify();
}

/** The `useAuth` hook `ConvexProviderWithAuth` expects, backed by the local session. */
export function useLocalAuth(): {
  isLoading: boolean;
  isAuthenticated: boolean;
  fetchAccessToken: (args: { forceRefreshToken: boolean }) => Promise<string | null>;
} {
  const identity = useLocalSession();
  // A new function per identity is Convex's signal that the user changed (it re-authenticates).
  const fetchAccessToken = useCallback(
    async ({ forceRefreshToken }: { forceRefreshToken: boolean }) =>
      identity ? await fetchLocalToken(identity, { forceRefreshToken }) : null,
    [identity],
  );
  // localStorage is read synchronously, so the session is never "still loading".
  return useMemo(
    () => ({ isLoading: false, isAuthenticated: identity !== null, fetchAccessToken }),
    [identity, fetchAccessToken],
  );
}
