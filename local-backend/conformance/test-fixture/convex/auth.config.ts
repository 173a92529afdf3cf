// As the project's auth config does: Clerk (an OIDC provider, audience "convex") when
// CLERK_JWT_ISSUER_DOMAIN is set, else the local backend's own issuer, whose discovery document and keys
// the backend holds itself. LIVELOCAL_TEST_AUTH_PROVIDERS (JSON) replaces both, for the tests of
// third-party providers (api/auth/jwt-providers.test.ts).
const testProviders = process.env.LIVELOCAL_TEST_AUTH_PROVIDERS;
const clerkIssuer = process.env.CLERK_JWT_ISSUER_DOMAIN;
const localIssuer = process.env.LIVELOCAL_LOCAL_AUTH_ISSUER;

export default {
  providers: testProviders
    ? (JSON.parse(testProviders) as unknown[])
    : clerkIssuer
      ? [{ domain: clerkIssuer, applicationID: "convex" }]
      : localIssuer
        ? [{ domain: localIssuer, applicationID: "livelocal-local" }]
        : [],
};
