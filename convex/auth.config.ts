import type { AuthConfig } from "convex/server";

/*
 * Which token issuers Convex accepts. On a real deployment: Clerk only (CLERK_JWT_ISSUER_DOMAIN, set
 * with `npx convex env set`). The local backend sets LIVELOCAL_LOCAL_AUTH_ISSUER for itself; Clerk wins
 * whenever it is configured, so a development token can never be accepted where Clerk is in use, and a
 * real deployment never has the local variable (decision 007).
 */
/* eslint-disable @convex-dev/no-process-env -- auth.config.ts is read by Convex at deploy time, before any typed env exists */
const clerkIssuer = process.env.CLERK_JWT_ISSUER_DOMAIN;
const localIssuer = process.env.LIVELOCAL_LOCAL_AUTH_ISSUER;
/* eslint-enable @convex-dev/no-process-env */

export const LOCAL_AUTH_APPLICATION_ID = "livelocal-local";

export default {
  providers: clerkIssuer
    ? [{ domain: clerkIssuer, applicationID: "convex" }]
    : localIssuer
      ? [{ domain: localIssuer, applicationID: LOCAL_AUTH_APPLICATION_ID }]
      : [],
} satisfies AuthConfig;
