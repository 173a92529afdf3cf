/**
 * A token issuer on this machine for tests, standing in for Clerk (which is not reachable here): an
 * OIDC discovery document and a JWKS over HTTP, a key pair made by jose, and tokens shaped like those of
 * Clerk's `convex` JWT template. It counts the JWKS requests and can rotate its key.
 */
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, SignJWT, type JSONWebKeySet, type JWK, type JWTPayload } from "jose";

type KeyPair = { kid: string; privateKey: CryptoKey; publicJwk: JWK };

async function newKeyPair(alg: "RS256" | "ES256"): Promise<KeyPair> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const kid = `ins_${randomUUID()}`;
  return { kid, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg, use: "sig" } };
}

export type SignOptions = {
  /** Seconds from now (negative: in the past). Default 60. */
  expiresIn?: number;
  /** `iat` in seconds from now (default -10), or null for none. */
  issuedAt?: number | null;
  /** The header's `kid` (default the current key's), or null for none. */
  kid?: string | null;
  /** Sign with a key the issuer never published. */
  foreignKey?: boolean;
};

export type TestIssuer = {
  /** The issuer (`iss`, and an OIDC provider's `domain`): `http://127.0.0.1:<port>`. */
  url: string;
  jwksUrl: string;
  /** The JWKS it serves now. */
  jwks(): JSONWebKeySet;
  /** How many times the JWKS was asked for. */
  jwksRequests(): number;
  /** A token signed with the current key; `claims` are added to (or replace) the template's. */
  sign(claims?: JWTPayload, options?: SignOptions): Promise<string>;
  /** A new key replaces the current one in the JWKS. */
  rotate(): Promise<void>;
  /** What the JWKS answers from now on (status, content type, body), or null for the keys again. */
  answerJwks(answer: { status: number; contentType: string; body: string } | null): void;
  stop(): Promise<void>;
};

/** The claims of Clerk's `convex` template for a user, as Clerk fills them in. */
export function clerkTemplateClaims(subject = "user_2abcDEF"): JWTPayload {
  return {
    sub: subject,
    aud: "convex",
    azp: "http://localhost:5173",
    name: "Ada Lovelace",
    email: "ada@example.com",
    picture: "https://img.clerk.com/ada.png",
    nickname: "ada",
    given_name: "Ada",
    family_name: "Lovelace",
    updated_at: 1_735_689_600,
    phone_number: null,
    email_verified: true,
    phone_number_verified: false,
    jti: randomUUID(),
  };
}

export async function startTestIssuer(alg: "RS256" | "ES256" = "RS256"): Promise<TestIssuer> {
  let current = await newKeyPair(alg);
  const foreign = await newKeyPair(alg);
  let requests = 0;
  let override: { status: number; contentType: string; body: string } | null = null;
  let url = "";
  const server = createServer((req, res) => {
    const send = (status: number, contentType: string, body: string) => {
      res.writeHead(status, { "Content-Type": contentType });
      res.end(body);
    };
    if (req.url === "/.well-known/openid-configuration") {
      send(
        200,
        "application/json",
        JSON.stringify({ issuer: url, jwks_uri: `${url}/.well-known/jwks.json` }),
      );
    } else if (req.url === "/.well-known/jwks.json") {
      requests += 1;
      if (override) send(override.status, override.contentType, override.body);
      else send(200, "application/json; charset=utf-8", JSON.stringify({ keys: [current.publicJwk] }));
    } else {
      send(404, "text/plain", "not found");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    jwksUrl: `${url}/.well-known/jwks.json`,
    jwks: () => ({ keys: [current.publicJwk] }),
    jwksRequests: () => requests,
    async sign(claims = clerkTemplateClaims(), options = {}) {
      const key = options.foreignKey ? foreign : current;
      const now = Math.floor(Date.now() / 1000);
      const kid = options.kid === undefined ? key.kid : options.kid;
      const payload: JWTPayload = { iss: url, ...claims, exp: now + (options.expiresIn ?? 60) };
      const issuedAt = options.issuedAt === undefined ? -10 : options.issuedAt;
      if (issuedAt !== null) payload.iat = now + issuedAt;
      if (issuedAt !== null && payload.nbf === undefined) payload.nbf = now + issuedAt;
      return await new SignJWT(payload)
        .setProtectedHeader({ alg, typ: "JWT", ...(kid !== null && { kid }) })
        .sign(key.privateKey);
    },
    async rotate() {
      current = await newKeyPair(alg);
    },
    answerJwks(answer) {
      override = answer;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
