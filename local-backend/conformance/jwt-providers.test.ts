/**
 * Issue 39, items 2 and 5: tokens of third-party providers (`convex/auth.config.ts`'s OIDC and
 * `customJwt` entries) verified as Convex verifies them, with the official clients against a started
 * backend and a token issuer on this machine (test-issuer.ts) standing in for Clerk. With a real
 * provider configured, development sign-in is off.
 */
import { randomUUID } from "node:crypto";
import type { ConvexClient } from "convex/browser";
import type { Value } from "convex/values";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StartedAppServer } from "../../scripts/serve/server.ts";
import { startTestApp } from "../../scripts/serve/test-dist.ts";
import type { RunningLocalBackend } from "../host/start.ts";
import {
  newClient,
  newHttpClient,
  openRawSync,
  q,
  rawRequest,
  startFixtureBackend,
  watch,
} from "./test-helpers.ts";
import { clerkTemplateClaims, startTestIssuer, type TestIssuer } from "./test-issuer.ts";

/** Runs `start` with `env` set while the functions (auth.config.ts) load. */
async function withEnv<T>(env: Record<string, string>, start: () => Promise<T>): Promise<T> {
  const before = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
  Object.assign(process.env, env);
  try {
    return await start();
  } finally {
    for (const [name, value] of Object.entries(before)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

/** What a ConvexHttpClient query with `token` is refused with (`{ code, message }`, Convex's body). */
async function refusal(
  backend: RunningLocalBackend,
  token: string,
): Promise<{ code: string; message: string }> {
  const http = newHttpClient(backend.url);
  http.setAuth(token);
  const error = await http.query(q("messages:identity"), {}).then(
    () => new Error("expected the token to be refused"),
    (e: unknown) => e as Error,
  );
  return JSON.parse(error.message) as { code: string; message: string };
}

function startWithEnv(env: Record<string, string>): Promise<RunningLocalBackend> {
  return withEnv(env, () => startFixtureBackend({ jwksCooldownMs: 0 }));
}

function connect() {
  return {
    type: "Connect",
    sessionId: randomUUID(),
    connectionCount: 0,
    lastCloseReason: null,
    clientTs: Date.now(),
  };
}

const OIDC_UNVERIFIED =
  "Could not verify OIDC token claim. Check that the token signature is valid and the token hasn't expired.";

describe("an OIDC provider (Clerk's convex template, CLERK_JWT_ISSUER_DOMAIN)", () => {
  let issuer: TestIssuer;
  let backend: RunningLocalBackend;
  let client: ConvexClient | null = null;

  beforeAll(async () => {
    issuer = await startTestIssuer();
    backend = await startWithEnv({ CLERK_JWT_ISSUER_DOMAIN: issuer.url });
  });
  afterAll(async () => {
    await client?.close();
    await backend?.stop();
    await issuer?.stop();
  });

  const clerkIdentity = () => ({
    tokenIdentifier: `${issuer.url}|user_2abcDEF`,
    subject: "user_2abcDEF",
    issuer: issuer.url,
    name: "Ada Lovelace",
    email: "ada@example.com",
    pictureUrl: "https://img.clerk.com/ada.png",
    nickname: "ada",
    givenName: "Ada",
    familyName: "Lovelace",
    updatedAt: "2025-01-01T00:00:00+00:00",
    emailVerified: true,
    phoneNumberVerified: false,
  });

  it("signs a ConvexClient in over the sync socket with Convex's identity", async () => {
    client = newClient(backend.url);
    const authChanges: boolean[] = [];
    client.setAuth(
      () => issuer.sign(),
      (signedIn) => authChanges.push(signedIn),
    );
    const me = watch<Record<string, Value> | null>(client, q("messages:identity"), {});
    expect(await me.next((identity) => identity !== null, 10_000)).toEqual(clerkIdentity());
    expect(authChanges).toContain(true);
  });

  it("takes the token as a Bearer token over HTTP and in HTTP actions", async () => {
    const http = newHttpClient(backend.url);
    http.setAuth(await issuer.sign());
    expect(await http.query(q("messages:identity"), {})).toEqual(clerkIdentity());
    const response = await fetch(`${backend.siteUrl}/identity`, {
      headers: { Authorization: `Bearer ${await issuer.sign()}` },
    });
    expect(await response.json()).toEqual(clerkIdentity());
  });

  it("refuses a wrong audience, a wrong issuer, an expired token, a bad signature and garbage, in Convex's words", async () => {
    const listed = `[OIDC(domain=${issuer.url}, app_id=convex)]`;
    const noProvider = {
      code: "NoAuthProvider",
      message: `No auth provider found matching the given token. Check that your JWT's issuer and audience match one of your configured providers: ${listed}`,
    };
    expect(await refusal(backend, await issuer.sign({ ...clerkTemplateClaims(), aud: "other-app" }))).toEqual(
      noProvider,
    );
    expect(
      await refusal(backend, await issuer.sign({ ...clerkTemplateClaims(), iss: "https://evil.example" })),
    ).toEqual(noProvider);
    const unverified = { code: "Unauthenticated", message: OIDC_UNVERIFIED };
    expect(await refusal(backend, await issuer.sign(undefined, { expiresIn: -1 }))).toEqual(unverified);
    const current = issuer.jwks().keys[0].kid!;
    expect(await refusal(backend, await issuer.sign(undefined, { foreignKey: true, kid: current }))).toEqual(
      unverified,
    );
    expect(await refusal(backend, "not.a.jwt")).toEqual({
      code: "InvalidAuthHeader",
      message:
        "Could not parse JWT payload. Check that the token is a valid JWT format with three base64-encoded parts separated by dots.",
    });
    // The status too: 401, as Convex answers an unauthenticated request.
    const raw = await fetch(`${backend.url}/api/query`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: "Bearer not.a.jwt" },
      body: JSON.stringify({ path: "messages:identity", args: [{}], format: "json" }),
    });
    expect(raw.status).toBe(401);
  });

  it("refuses an expired token on the sync socket with an AuthError", async () => {
    const socket = await openRawSync(backend.url);
    socket.send(connect());
    socket.send({
      type: "Authenticate",
      tokenType: "User",
      value: await issuer.sign(undefined, { expiresIn: -1 }),
      baseVersion: 0,
    });
    expect(await socket.next((message) => message.type === "AuthError")).toMatchObject({
      error: OIDC_UNVERIFIED,
      authUpdateAttempted: true,
    });
    expect(await socket.closed).toBe(1000);
  });

  it("fetches a rotated key once, and refuses a key id the issuer does not have", async () => {
    const http = newHttpClient(backend.url);
    http.setAuth(await issuer.sign());
    await http.query(q("messages:identity"), {});
    const before = issuer.jwksRequests();
    await issuer.rotate();
    for (let i = 0; i < 3; i++) {
      http.setAuth(await issuer.sign());
      expect(await http.query(q("messages:identity"), {})).toMatchObject({ subject: "user_2abcDEF" });
    }
    expect(issuer.jwksRequests()).toBe(before + 1);
    expect(await refusal(backend, await issuer.sign(undefined, { kid: "ins_unknown" }))).toEqual({
      code: "Unauthenticated",
      message: OIDC_UNVERIFIED,
    });
  });

  it("throws from an HTTP action's getUserIdentity() for a garbage Bearer token, as Convex does", async () => {
    const anonymous = await fetch(`${backend.siteUrl}/identity`);
    expect(await anonymous.json()).toBeNull();
    const garbage = await fetch(`${backend.siteUrl}/identity`, {
      headers: { Authorization: "Bearer garbage" },
    });
    expect(garbage.status).toBe(500);
    expect(await garbage.text()).toMatch(/Could not parse JWT payload/);
  });

  it("turns development sign-in off entirely, and says which sign-in it offers", async () => {
    const describedAs = `Sign-in is through OIDC(domain=${issuer.url}, app_id=convex) (convex/auth.config.ts); development sign-in is off.`;
    const token = await rawRequest(backend.url, {
      method: "POST",
      path: "/local-auth/token",
      body: JSON.stringify({ sub: "demo_admin", name: "Avery", email: "admin@livelocal.test" }),
    });
    expect(token.status).toBe(403);
    expect(JSON.parse(token.body)).toEqual({ code: "Forbidden", message: describedAs });
    const config = await rawRequest(backend.url, { path: "/local-auth/config" });
    expect(JSON.parse(config.body)).toMatchObject({ devSignIn: false, message: describedAs });
    // A development token (the backend can still make one) is not for any configured provider.
    const { token: devToken } = await backend.issueToken({ sub: "demo_admin" });
    expect((await refusal(backend, devToken)).code).toBe("NoAuthProvider");
  });
});

describe("customJwt providers, configured as Convex's own integration tests configure them", () => {
  let issuer: TestIssuer;
  let backend: RunningLocalBackend;

  beforeAll(async () => {
    issuer = await startTestIssuer();
    const jwksDataUrl = `data:text/plain;charset=utf-8;base64,${Buffer.from(JSON.stringify(issuer.jwks())).toString("base64")}`;
    const providers = [
      {
        type: "customJwt",
        applicationID: "App 1",
        issuer: "https://issuer.example.com/1",
        jwks: issuer.jwksUrl,
        algorithm: "RS256",
      },
      {
        type: "customJwt",
        issuer: "https://issuer.example.com/no-aud-specified",
        jwks: jwksDataUrl,
        algorithm: "RS256",
      },
      {
        type: "customJwt",
        applicationID: "App 4",
        issuer: "https://issuer.example.com/4",
        jwks: "data:invalid,not-a-valid-jwks",
        algorithm: "RS256",
      },
    ];
    backend = await startWithEnv({ LIVELOCAL_TEST_AUTH_PROVIDERS: JSON.stringify(providers) });
  });
  afterAll(async () => {
    await backend?.stop();
    await issuer?.stop();
  });

  const app1 = (claims: Record<string, unknown> = {}) => ({
    iss: "https://issuer.example.com/1",
    aud: "App 1",
    sub: "The Subject",
    ...claims,
  });

  it("accepts a token and passes its claims through as Convex does (no renaming, nested objects dotted)", async () => {
    const http = newHttpClient(backend.url);
    http.setAuth(
      await issuer.sign(
        app1({
          name: "Presley",
          picture: "https://p.example/1.png",
          org: { id: "o1", role: "admin" },
          fva: [1, 2],
        }),
      ),
    );
    expect(await http.query(q("messages:identity"), {})).toEqual({
      tokenIdentifier: "https://issuer.example.com/1|The Subject",
      subject: "The Subject",
      issuer: "https://issuer.example.com/1",
      name: "Presley",
      picture: "https://p.example/1.png",
      "org.id": "o1",
      "org.role": "admin",
    });
  });

  it("needs no audience when the provider names none, and allows 5 seconds of clock skew", async () => {
    const http = newHttpClient(backend.url);
    const noAud = { iss: "https://issuer.example.com/no-aud-specified", sub: "s" };
    for (const token of [
      await issuer.sign({ ...noAud, aud: "asdf" }),
      await issuer.sign(noAud),
      await issuer.sign(app1(), { issuedAt: 3 }),
      await issuer.sign(app1(), { issuedAt: null }),
      await issuer.sign(app1(), { expiresIn: -1 }),
    ]) {
      http.setAuth(token);
      expect(await http.query(q("messages:identity"), {})).not.toBeNull();
    }
  });

  it("refuses what Convex refuses, with its codes and words", async () => {
    const check = async (token: string, code: string, ...parts: RegExp[]) => {
      const error = await refusal(backend, token);
      expect(error.code).toBe(code);
      for (const part of parts) expect(error.message).toMatch(part);
    };
    await check(await issuer.sign(app1({ iss: undefined })), "InvalidAuthHeader", /issuer/, /'iss'/);
    await check(
      await issuer.sign(app1({ aud: undefined })),
      "NoAuthProvider",
      /No auth provider found matching the given token/,
    );
    await check(
      await issuer.sign(app1({ iss: "https://unknown-issuer.example.com" })),
      "NoAuthProvider",
      /configured providers/,
      /CustomJWT\(issuer=https:\/\/issuer\.example\.com\/1, app_id=App 1\)/,
      /CustomJWT\(issuer=https:\/\/issuer\.example\.com\/no-aud-specified, app_id=none\)/,
    );
    await check(await issuer.sign(app1({ aud: "asdf" })), "NoAuthProvider");
    await check(await issuer.sign(app1(), { kid: null }), "InvalidAuthHeader", /missing a 'kid'/);
    await check(
      await issuer.sign(app1(), { kid: "key-2 (oops, this is the wrong kid!)" }),
      "InvalidAuthHeader",
      /Could not decode token/,
      /'key-2 \(oops, this is the wrong kid!\)'/,
    );
    await check("not.a.jwt", "InvalidAuthHeader", /JWT/, /three base64-encoded parts/);
    await check(
      await issuer.sign({ iss: "https://issuer.example.com/4", aud: "App 4", sub: "s" }),
      "InvalidAuthHeader",
      /Invalid JWKS response body/,
      /not valid JSON/,
    );
    await check(
      await issuer.sign(app1(), { expiresIn: -10, issuedAt: -20 }),
      "InvalidAuthHeader",
      /^Could not validate token: Token expired \d+ seconds ago$/,
    );
    await check(await issuer.sign(app1(), { issuedAt: 10 }), "InvalidAuthHeader", /will be valid in/);
  });

  it("says when the key set cannot be fetched", async () => {
    issuer.answerJwks({ status: 500, contentType: "text/plain", body: "down" });
    await expect(refusal(backend, await issuer.sign(app1(), { kid: "ins_new" }))).resolves.toEqual({
      code: "InvalidAuthHeader",
      message: `Could not fetch JWKS from URL '${issuer.jwksUrl}': HTTP 500 Internal Server Error. Check that the URL is correct and accessible.`,
    });
    issuer.answerJwks({ status: 200, contentType: "text/html", body: "<html></html>" });
    await expect(refusal(backend, await issuer.sign(app1(), { kid: "ins_new" }))).resolves.toEqual({
      code: "InvalidAuthHeader",
      message: `Invalid Content-Type 'text/html' when fetching JWKS from '${issuer.jwksUrl}'. Expected 'application/json' or 'application/jwk-set+json'.`,
    });
    issuer.answerJwks(null);
  });
});

describe("npm start with CLERK_JWT_ISSUER_DOMAIN: a town with Clerk sign-in on one machine", () => {
  let issuer: TestIssuer;
  let app: StartedAppServer;

  beforeAll(async () => {
    issuer = await startTestIssuer();
    app = await withEnv({ CLERK_JWT_ISSUER_DOMAIN: issuer.url }, () =>
      // Served to a town (Host names beyond this machine); the provider is what the refusal names.
      startTestApp({ allowedHosts: ["livelocal.example"] }, "livelocal-clerk-"),
    );
  });
  afterAll(async () => {
    await app?.stop();
    await issuer?.stop();
  });

  it("verifies Clerk's tokens on the app's own origin and gives no development token", async () => {
    const http = newHttpClient(app.url);
    http.setAuth(await issuer.sign());
    expect(await http.query(q("messages:identity"), {})).toMatchObject({
      subject: "user_2abcDEF",
      email: "ada@example.com",
    });
    const token = await rawRequest(app.url, {
      method: "POST",
      path: "/local-auth/token",
      body: JSON.stringify({ sub: "demo_admin", name: "Avery", email: "admin@livelocal.test" }),
    });
    expect(token.status).toBe(403);
    expect(JSON.parse(token.body)).toMatchObject({
      message: expect.stringMatching(/^Sign-in is through OIDC/) as string,
    });
  });
});
