/** The pure pieces of third-party sign-in (providers.ts), and the key cache's cooldown (verify.ts). */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  customJwtIdentity,
  customJwtTimeProblem,
  noAuthProvider,
  oidcIdentity,
  parseAuthConfig,
  providerForToken,
} from "./providers.ts";
import { startTestIssuer, type TestIssuer } from "../../conformance/test-issuer.ts";
import { ProviderVerifier } from "./verify.ts";

describe("auth.config.ts's providers", () => {
  it("reads OIDC and customJwt providers as Convex does (https:// added when no scheme is given)", () => {
    expect(
      parseAuthConfig({
        providers: [
          { domain: "x.clerk.accounts.dev", applicationID: "convex" },
          { type: "customJwt", issuer: "https://local/", jwks: "data:,{}", algorithm: "ES256" },
        ],
      }),
    ).toEqual([
      { type: "oidc", domain: "https://x.clerk.accounts.dev", applicationID: "convex" },
      {
        type: "customJwt",
        issuer: "https://local/",
        jwks: "data:,{}",
        algorithm: "ES256",
        applicationID: null,
      },
    ]);
    expect(parseAuthConfig(undefined)).toEqual([]);
    expect(() =>
      parseAuthConfig({
        providers: [{ type: "customJwt", issuer: "https://a", jwks: "x", algorithm: "HS256" }],
      }),
    ).toThrow(/only RS256 and ES256 are supported/);
    expect(() => parseAuthConfig({ providers: [{ domain: "https://a" }] })).toThrow(/applicationID/);
  });

  it("routes a token by issuer (trailing slash and scheme forgiven) and, when named, audience", () => {
    const providers = parseAuthConfig({
      providers: [
        { domain: "https://clerk.example/", applicationID: "convex" },
        { type: "customJwt", issuer: "https://any-aud.example", jwks: "x", algorithm: "RS256" },
      ],
    });
    expect(providerForToken(providers, "https://clerk.example", ["convex"])).toBe(providers[0]);
    expect(providerForToken(providers, "clerk.example/", ["other", "convex"])).toBe(providers[0]);
    expect(providerForToken(providers, "https://clerk.example", ["other"])).toBeNull();
    expect(providerForToken(providers, "https://any-aud.example", [])).toBe(providers[1]);
    expect(noAuthProvider(providers).message).toBe(
      "No auth provider found matching the given token. Check that your JWT's issuer and audience match one of your configured providers: [OIDC(domain=https://clerk.example/, app_id=convex), CustomJWT(issuer=https://any-aud.example, app_id=none)]",
    );
    expect(noAuthProvider([]).message).toMatch(/\(no providers configured\)/);
  });
});

describe("identities", () => {
  it("builds an OIDC identity as Convex does: standard claims renamed, others passed through", () => {
    expect(
      oidcIdentity({
        iss: "https://issuer",
        sub: "u1",
        aud: "app",
        iat: 1,
        exp: 2,
        nbf: 1,
        jti: "j",
        azp: "http://localhost",
        fva: [0, -1],
        picture: "p",
        given_name: "Ada",
        "name#fr": "Ada (fr)",
        middle_name: "dropped",
        email_verified: true,
        phone_number: null,
        address: { formatted: "1 Main St", country: "US" },
        updated_at: 1_735_689_600,
        org: { id: "o1" },
      }),
    ).toEqual({
      tokenIdentifier: "https://issuer|u1",
      subject: "u1",
      issuer: "https://issuer",
      pictureUrl: "p",
      givenName: "Ada",
      emailVerified: true,
      address: "1 Main St",
      updatedAt: "2025-01-01T00:00:00+00:00",
      org: { id: "o1" },
    });
    // What Convex's OIDC parser refuses.
    expect(() => oidcIdentity({ iss: "https://i", sub: "u", exp: 2 })).toThrow(
      /Could not parse as OIDC ID token/,
    );
    expect(() => oidcIdentity({ iss: "https://i", sub: "u", exp: 2, iat: 1, email_verified: "yes" })).toThrow(
      /Could not parse as OIDC ID token/,
    );
  });

  it("builds a custom JWT identity as Convex does: claims under their own names, nested objects dotted", () => {
    expect(
      customJwtIdentity({
        iss: "https://issuer",
        sub: "u1",
        aud: "app",
        exp: 2,
        iat: 1,
        picture: "p",
        fva: [1],
        org: { id: "o1", team: { name: "t" } },
        roles: ["a"],
      }),
    ).toEqual({
      tokenIdentifier: "https://issuer|u1",
      subject: "u1",
      issuer: "https://issuer",
      picture: "p",
      "org.id": "o1",
      "org.team.name": "t",
      roles: ["a"],
    });
    expect(() => customJwtIdentity({ iss: "https://issuer", exp: 2 })).toThrow(
      /Could not verify token claim/,
    );
  });

  it("gives a custom JWT 5 seconds of clock skew, in Convex's words", () => {
    expect(customJwtTimeProblem({ exp: 95 }, 100)).toBeNull();
    expect(customJwtTimeProblem({ exp: 90 }, 100)).toBe(
      "Could not validate token: Token expired 10 seconds ago",
    );
    expect(customJwtTimeProblem({ exp: 200, iat: 105 }, 100)).toBeNull();
    expect(customJwtTimeProblem({ exp: 200, iat: 110 }, 100)).toBe(
      "Could not validate token: Token will be valid in 10 seconds",
    );
    expect(customJwtTimeProblem({ exp: 200, nbf: 107 }, 100)).toMatch(/will be valid in 7 seconds/);
  });
});

describe("the key cache", () => {
  let issuer: TestIssuer;
  beforeAll(async () => {
    issuer = await startTestIssuer();
  });
  afterAll(async () => {
    await issuer?.stop();
  });

  it("does not ask the issuer again for an unknown key id within the cooldown", async () => {
    const verifier = new ProviderVerifier();
    verifier.setProviders(parseAuthConfig({ providers: [{ domain: issuer.url, applicationID: "convex" }] }));
    await verifier.verify(await issuer.sign());
    const fetched = issuer.jwksRequests();
    await verifier.verify(await issuer.sign());
    await expect(verifier.verify(await issuer.sign(undefined, { kid: "ins_unknown" }))).rejects.toThrow(
      /Could not verify OIDC token claim/,
    );
    expect(issuer.jwksRequests()).toBe(fetched);
  });
});
