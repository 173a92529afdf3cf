/**
 * Development identities: an RS256 key pair kept in the data folder, tokens for a local sign-in
 * page, their verification against the providers named by `convex/auth.config.ts`, and the identity
 * object Convex gives functions.
 */
import { randomUUID } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import {
  decodeJwt,
  exportJWK,
  generateKeyPair,
  importJWK,
  jwtVerify,
  SignJWT,
  type JWK,
  type JWTPayload,
} from "jose";
import type { Identity } from "../runtime/execution.ts";
import { DataFolderError, keepPrivate, writeFileDurably } from "../core/files.ts";

/** The default issuer of local tokens. Stable across ports, so `tokenIdentifier`s survive restarts. */
export const DEFAULT_LOCAL_ISSUER = "https://auth.livelocal.localhost";
/** The audience (`applicationID`) of local tokens. */
export const LOCAL_AUDIENCE = "livelocal-local";
/** The env var the project's `convex/auth.config.ts` reads in local mode. */
export const LOCAL_ISSUER_ENV = "LIVELOCAL_LOCAL_AUTH_ISSUER";

export type TokenClaims = {
  sub: string;
  email?: string;
  name?: string;
  picture?: string;
  /** Other claims are passed through to the identity. */
  [claim: string]: unknown;
};

export type IssuedToken = { token: string; expiresAt: number };

/** A provider from `auth.config.ts`, reduced to what verification needs. */
export type AuthProvider = { issuer: string; applicationID?: string };

export class AuthError extends Error {}

type StoredKey = { kid: string; privateJwk: JWK };

const IDENTITY_ATTRIBUTE_BY_CLAIM: Record<string, string> = {
  name: "name",
  given_name: "givenName",
  family_name: "familyName",
  nickname: "nickname",
  preferred_username: "preferredUsername",
  profile: "profileUrl",
  picture: "pictureUrl",
  email: "email",
  email_verified: "emailVerified",
  gender: "gender",
  birthdate: "birthday",
  zoneinfo: "timezone",
  locale: "language",
  phone_number: "phoneNumber",
  phone_number_verified: "phoneNumberVerified",
  address: "address",
  updated_at: "updatedAt",
};
const DROPPED_CLAIMS = new Set(["iss", "sub", "aud", "exp", "iat", "nbf", "jti"]);

/** The identity Convex derives from verified claims. */
export function identityFromClaims(claims: JWTPayload): Identity {
  const issuer = String(claims.iss);
  const subject = String(claims.sub);
  const identity: Identity = { tokenIdentifier: `${issuer}|${subject}`, subject, issuer };
  for (const [claim, value] of Object.entries(claims)) {
    if (DROPPED_CLAIMS.has(claim) || value === undefined) continue;
    (identity as Record<string, unknown>)[IDENTITY_ATTRIBUTE_BY_CLAIM[claim] ?? claim] = value;
  }
  return identity;
}

function normalizeIssuer(issuer: string): string {
  return issuer.replace(/\/+$/, "");
}

/** Reads the providers from the default export of `auth.config.ts` (OIDC `domain` or custom JWT `issuer`). */
export function providersFromAuthConfig(config: unknown): AuthProvider[] {
  const providers = (config as { providers?: unknown } | null | undefined)?.providers;
  if (!Array.isArray(providers)) return [];
  const result: AuthProvider[] = [];
  for (const provider of providers as Record<string, unknown>[]) {
    const issuer = provider.type === "customJwt" ? provider.issuer : provider.domain;
    if (typeof issuer !== "string") continue;
    result.push({
      issuer: normalizeIssuer(issuer),
      applicationID: typeof provider.applicationID === "string" ? provider.applicationID : undefined,
    });
  }
  return result;
}

/** The key pair kept in `file`, or a `DataFolderError` saying the file is damaged and what to do. */
async function readKeyFile(file: string): Promise<{ stored: StoredKey; privateKey: CryptoKey }> {
  try {
    const stored = JSON.parse(readFileSync(file, "utf8")) as Partial<StoredKey> | null;
    if (typeof stored?.kid !== "string" || stored.privateJwk?.kty !== "RSA" || !stored.privateJwk.d) {
      throw new Error("it does not hold an RSA private key");
    }
    const privateKey = (await importJWK(stored.privateJwk, "RS256")) as CryptoKey;
    return { stored: stored as StoredKey, privateKey };
  } catch (e) {
    throw new DataFolderError(
      `${file} is damaged (${e instanceof Error ? e.message : String(e)}), so the backend will not start with it. Put back a copy of it, or delete it to have a new key pair made at the next start (everyone signed in must sign in again).`,
      { cause: e },
    );
  }
}

export class LocalAuth {
  private providers: AuthProvider[] = [];

  private constructor(
    readonly issuer: string,
    private readonly kid: string,
    private readonly privateKey: CryptoKey,
    readonly publicJwk: JWK,
    private readonly publicKey: CryptoKey,
  ) {}

  /**
   * Loads the key pair from `dataDir/auth-key.json`, generating it on first use. A file that is there
   * but does not hold a key pair is refused (`DataFolderError`), not replaced: a new key would sign
   * everyone out without a word.
   */
  static async create(options: { dataDir?: string; issuer?: string }): Promise<LocalAuth> {
    const issuer = normalizeIssuer(options.issuer ?? DEFAULT_LOCAL_ISSUER);
    const file = options.dataDir ? path.join(options.dataDir, "auth-key.json") : null;
    let loaded: { stored: StoredKey; privateKey: CryptoKey } | null = null;
    if (file && existsSync(file)) {
      keepPrivate(file);
      loaded = await readKeyFile(file);
    }
    if (!loaded) {
      const generated = await generateKeyPair("RS256", { extractable: true });
      const stored = { kid: randomUUID(), privateJwk: await exportJWK(generated.privateKey) };
      if (file) writeFileDurably(file, Buffer.from(JSON.stringify(stored, null, 2) + "\n"), 0o600);
      loaded = { stored, privateKey: generated.privateKey };
    }
    const { stored, privateKey } = loaded;
    const { kty, n, e } = stored.privateJwk;
    const publicJwk: JWK = { kty, n, e, kid: stored.kid, alg: "RS256", use: "sig" };
    const publicKey = (await importJWK(publicJwk, "RS256")) as CryptoKey;
    return new LocalAuth(issuer, stored.kid, privateKey, publicJwk, publicKey);
  }

  /** The providers tokens are accepted for (from `auth.config.ts`; none when it is missing). */
  setProviders(providers: AuthProvider[]): void {
    this.providers = providers;
  }

  getProviders(): AuthProvider[] {
    return this.providers;
  }

  async issueToken(claims: TokenClaims, options: { expiresInSeconds?: number } = {}): Promise<IssuedToken> {
    if (typeof claims.sub !== "string" || claims.sub.length === 0) throw new AuthError("`sub` is required");
    const now = Math.floor(Date.now() / 1000);
    const exp = now + (options.expiresInSeconds ?? 3600);
    const extra = Object.fromEntries(
      Object.entries(claims).filter(([key, value]) => key !== "sub" && value !== undefined),
    );
    const token = await new SignJWT(extra)
      .setProtectedHeader({ alg: "RS256", kid: this.kid, typ: "JWT" })
      .setIssuer(this.issuer)
      .setAudience(LOCAL_AUDIENCE)
      .setSubject(claims.sub)
      .setIssuedAt(now)
      .setExpirationTime(exp)
      .sign(this.privateKey);
    return { token, expiresAt: exp * 1000 };
  }

  /** Verifies a token as Convex would for the configured providers, and returns its identity. */
  async verify(token: string): Promise<{ identity: Identity; expiresAt: number | null }> {
    let unverified: JWTPayload;
    try {
      unverified = decodeJwt(token);
    } catch {
      throw new AuthError("Could not parse JWT payload. Check that the token is a valid JWT format.");
    }
    const issuer = typeof unverified.iss === "string" ? normalizeIssuer(unverified.iss) : "";
    const provider = this.providers.find((p) => p.issuer === issuer);
    if (!provider) {
      throw new AuthError(
        `No auth provider found matching the given token (issuer ${JSON.stringify(issuer)}). Check convex/auth.config.ts.`,
      );
    }
    if (issuer !== this.issuer) {
      throw new AuthError(`The local backend can only verify tokens it issued (issuer ${this.issuer}).`);
    }
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, this.publicKey, {
        algorithms: ["RS256"],
        issuer: this.issuer,
        audience: provider.applicationID,
        requiredClaims: ["sub", "iat", "exp"],
      }));
    } catch (e) {
      throw new AuthError(
        `Could not verify token claim: ${e instanceof Error ? e.message : String(e)}. Check that the token signature is valid and the token hasn't expired.`,
      );
    }
    return { identity: identityFromClaims(payload), expiresAt: payload.exp ? payload.exp * 1000 : null };
  }

  /** The backend origin's OpenID discovery document. */
  openIdConfiguration(origin: string): Record<string, unknown> {
    return {
      issuer: this.issuer,
      jwks_uri: `${origin}/.well-known/jwks.json`,
      id_token_signing_alg_values_supported: ["RS256"],
      response_types_supported: ["id_token"],
      subject_types_supported: ["public"],
    };
  }

  jwks(): { keys: JWK[] } {
    return { keys: [this.publicJwk] };
  }
}
