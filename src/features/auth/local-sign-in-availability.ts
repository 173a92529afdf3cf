import { useEffect, useState } from "react";

/** Where the local backend says whether it offers development sign-in (local-backend/api/dev-sign-in.ts). */
export const LOCAL_AUTH_CONFIG_ENDPOINT = "/local-auth/config";

export type LocalSignInAvailability =
  { state: "checking" } | { state: "on" } | { state: "off"; message: string };

const OFF_FALLBACK =
  "Development sign-in is off on this server. To sign people in on a served deployment, use Clerk: start it with CLERK_JWT_ISSUER_DOMAIN set and build the app with VITE_CLERK_PUBLISHABLE_KEY; without them, only the operator can sign in, in a browser on the server's own machine, with the server started for that machine alone (no --public-origin, --allowed-hosts or --host).";

/**
 * Whether this server offers development sign-in. A server started for the public (or reached through
 * a proxy) refuses it; the page then says so instead of offering accounts that would fail. Anything but
 * the server's explicit "off" leaves sign-in offered: the token request then says what is wrong.
 */
export function useLocalSignInAvailability(): LocalSignInAvailability {
  const [availability, setAvailability] = useState<LocalSignInAvailability>({ state: "checking" });
  useEffect(() => {
    const aborted = new AbortController();
    void fetch(LOCAL_AUTH_CONFIG_ENDPOINT, { signal: aborted.signal })
      .then(async (response) => {
        const body = (await response.json().catch(() => null)) as {
          devSignIn?: unknown;
          message?: unknown;
        } | null;
        if (body?.devSignIn === false) {
          const message = typeof body.message === "string" && body.message ? body.message : OFF_FALLBACK;
          setAvailability({ state: "off", message });
        } else {
          setAvailability({ state: "on" });
        }
      })
      .catch(() => {
        if (!aborted.signal.aborted) setAvailability({ state: "on" });
      });
    return () => aborted.abort();
  }, []);
  return availability;
}
