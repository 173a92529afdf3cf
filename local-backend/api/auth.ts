/**
 * Development identities: an RS256 key pair kept in the data folder and tokens for a local sign-in
 * page. Every token, these and third-party providers' alike, is verified against the providers named
 * by `convex/auth.config.ts` as Convex verifies them (api/auth/verify.ts).
 */
import { randomUUID } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { exportJWK, generateKeyPair, importJWK, SignJWT, type JWK } from "jose";
import { AuthError, type Provider } from "./auth/providers.ts";
import { ProviderVerifier, type VerifiedToken, type VerifierOptions } from "./auth/verify.ts";
import { DataFolderError, keepPrivate, writeFileDurably } from "../core/files.ts";

export { AuthError };

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

/** A signing key pair as kept in `auth-key.json`: its key id and private JWK. */
export type LocalAuthKey = { kid: string; privateJwk: JWK };
type StoredKey = LocalAuthKey;

/** A new key pair for local tokens. */
export async function generateLocalAuthKey(): Promise<LocalAuthKey> {
  const generated = await generateKeyPair("RS256", { extractable: true });
  return { kid: randomUUID(), privateJwk: await exportJWK(generated.privateKey) };
}

function normalizeIssuer(issuer: string): string {
  return issuer.replace(/\/+$/, "");
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
  private readonly verifier: ProviderVerifier;

  private constructor(
    readonly issuer: string,
    private readonly kid: string,
    private readonly privateKey: CryptoKey,
    readonly publicJwk: JWK,
    verifierOptions: VerifierOptions,
  ) {
    this.verifier = new ProviderVerifier({
      ...verifierOptions,
      ownIssuer: { issuer, jwks: () => this.jwks() },
    });
  }

  /**
   * Loads the key pair from `dataDir/auth-key.json`, generating it on first use. A file that is there
   * but does not hold a key pair is refused (`DataFolderError`), not replaced: a new key would sign
   * everyone out without a word. Without a data folder, `key` is used if given (page tests share one
   * per run: making a key pair costs a busy machine up to a second), else a new one.
   */
  static async create(options: {
    dataDir?: string;
    issuer?: string;
    verifier?: VerifierOptions;
    key?: LocalAuthKey;
  }): Promise<LocalAuth> {
    const issuer = normalizeIssuer(options.issuer ?? DEFAULT_LOCAL_ISSUER);
    const file = options.dataDir ? path.join(options.dataDir, "auth-key.json") : null;
    let loaded: { stored: StoredKey; privateKey: CryptoKey } | null = null;
    if (file && existsSync(file)) {
      keepPrivate(file);
      loaded = await readKeyFile(file);
    }
    if (!loaded) {
      const stored = !file && options.key ? options.key : await generateLocalAuthKey();
      if (file) writeFileDurably(file, Buffer.from(JSON.stringify(stored, null, 2) + "\n"), 0o600);
      loaded = { stored, privateKey: (await importJWK(stored.privateJwk, "RS256")) as CryptoKey };
    }
    const { stored, privateKey } = loaded;
    const { kty, n, e } = stored.privateJwk;
    const publicJwk: JWK = { kty, n, e, kid: stored.kid, alg: "RS256", use: "sig" };
    return new LocalAuth(issuer, stored.kid, privateKey, publicJwk, options.verifier ?? {});
  }

  /** The providers tokens are accepted for (from `auth.config.ts`; none when it is missing). */
  setProviders(providers: Provider[]): void {
    this.verifier.setProviders(providers);
  }

  getProviders(): Provider[] {
    return this.verifier.getProviders();
  }

  /** The providers besides this backend's own issuer: real sign-in, which turns development sign-in off. */
  realProviders(): Provider[] {
    return this.verifier.realProviders();
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
  verify(token: string): Promise<VerifiedToken> {
    return this.verifier.verify(token);
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
