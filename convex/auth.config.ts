import type { AuthConfig } from "convex/server";

/*
 * Which token issuers Convex accepts. On a real deployment: Clerk only (CLERK_JWT_ISSUER_DOMAIN, set
 * with `npx convex env set`). The local backend sets LIVELOCAL_LOCAL_AUTH_ISSUER for itself before it
 * loads this file; Clerk wins whenever it is configured, so a development token can never be accepted
 * where Clerk is in use, and a real deployment never has the local variable (decision 007). With
 * neither, loading this file throws, so a push to a deployment without the Clerk issuer fails, naming
 * the variable, instead of deploying a backend nobody can sign in to.
 */
/* eslint-disable @convex-dev/no-process-env -- auth.config.ts is read by Convex at deploy time, before any typed env exists */
const clerkIssuer = process.env.CLERK_JWT_ISSUER_DOMAIN;
const localIssuer = process.env.LIVELOCAL_LOCAL_AUTH_ISSUER;
/* eslint-enable @convex-dev/no-process-env */

export const LOCAL_AUTH_APPLICATION_ID = "livelocal-local";

export const MISSING_CLERK_ISSUER =
  "CLERK_JWT_ISSUER_DOMAIN is not set on this deployment, so nobody could sign in. Set it to your Clerk " +
  "issuer, then push again: npx convex env set CLERK_JWT_ISSUER_DOMAIN https://<your-app>.clerk.accounts.dev";

/** The providers for these settings (blank counts as unset); throws MISSING_CLERK_ISSUER with neither. */
export function authProviders(issuers: {
  clerkIssuer?: string;
  localIssuer?: string;
}): AuthConfig["providers"] {
  if (issuers.clerkIssuer) return [{ domain: issuers.clerkIssuer, applicationID: "convex" }];
  if (issuers.localIssuer) {
    return [{ domain: issuers.localIssuer, applicationID: LOCAL_AUTH_APPLICATION_ID }];
  }
  throw new Error(MISSING_CLERK_ISSUER);
}

export default { providers: authProviders({ clerkIssuer, localIssuer }) } satisfies AuthConfig;
