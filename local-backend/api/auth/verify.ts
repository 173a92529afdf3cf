/**
 * Verifies a token against the providers of `auth.config.ts` as Convex does: routed by its issuer and
 * audience, then for an OIDC provider the issuer's discovery document (`<iss>/.well-known/openid-configuration`)
 * and its `jwks_uri`, for a `customJwt` provider its `jwks` (a URL or a `data:` URL). Keys are kept
 * (jose's remote key sets: fetched again after 10 minutes, and at once when a token names a key id
 * they do not hold, at most once in a cooldown), so a signed-in client costs no request to the issuer
 * (decision 073). Errors are Convex's codes and words (providers.ts).
 */
import { STATUS_CODES } from "node:http";
import {
  compactVerify,
  createLocalJWKSet,
  createRemoteJWKSet,
  customFetch,
  decodeJwt,
  decodeProtectedHeader,
  type CompactVerifyGetKey,
  type JSONWebKeySet,
  type JWTPayload,
} from "jose";
import type { Identity } from "../../runtime/execution.ts";
import {
  AuthError,
  CLAIMS_UNUSABLE,
  customJwtIdentity,
  customJwtTimeProblem,
  noAuthProvider,
  oidcIdentity,
  PAYLOAD_UNPARSABLE,
  providerForToken,
  providerIssuer,
  routingClaims,
  sameIssuer,
  type CustomJwtProvider,
  type Provider,
} from "./providers.ts";

export type VerifiedToken = { identity: Identity; expiresAt: number | null };

type KeySet = CompactVerifyGetKey & {
  /** Remote sets only: whether the keys held are recent enough to use without fetching. */
  fresh?: boolean;
  reload?: () => Promise<void>;
};

/** Why fetching a key set failed: no answer, an answer other than 200, or an unusable body. */
type FetchFailure =
  | { kind: "unreachable"; error: unknown }
  | { kind: "status"; status: number; body: string }
  | { kind: "problem"; message: string };

export type VerifierOptions = {
  /** A token naming a key id the keys held lack fetches them again, at most once in this time (default 30 s, jose's). */
  cooldownMs?: number;
  /** Keys are fetched again after this long (default 10 minutes, jose's). */
  cacheMaxAgeMs?: number;
  /** How long the issuer gets to answer (default 5 s). */
  timeoutMs?: number;
  /**
   * This backend's own issuer (development tokens) and its keys: a provider with that issuer is
   * verified with them, without a request (the issuer's name does not resolve).
   */
  ownIssuer?: { issuer: string; jwks: () => JSONWebKeySet };
};

/** What Convex's OIDC verifier allows: RS256 (Clerk, Auth0) and EdDSA. */
const OIDC_ALGORITHMS = ["RS256", "EdDSA"];
const OIDC_UNVERIFIED =
  "Could not verify OIDC token claim. Check that the token signature is valid and the token hasn't expired.";
const JWKS_MEDIA_TYPES = ["application/json", "application/jwk-set+json"];

function isJwkSet(value: unknown): value is JSONWebKeySet {
  return (
    typeof value === "object" &&
    value !== null &&
    Array.isArray((value as { keys?: unknown }).keys) &&
    (value as { keys: unknown[] }).keys.every((key) => typeof key === "object" && key !== null)
  );
}

/** The HTTP status Convex answers when an issuer's discovery answered `status`. */
function discoveryStatus(status: number): number {
  if ([401, 403, 404, 429].includes(status)) return status;
  if (status >= 400 && status < 500) return 400;
  return status >= 500 ? 503 : 400;
}

function errorText(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  const cause = (e.cause as { code?: string; message?: string } | undefined) ?? undefined;
  return (cause?.code ?? cause?.message) ? `${e.message} (${cause.code ?? cause.message})` : e.message;
}

export class ProviderVerifier {
  private providers: Provider[] = [];
  private readonly keySets = new Map<string, KeySet>();
  private readonly discovery = new Map<string, { jwksUri: string; at: number }>();
  private readonly cooldownMs: number;
  private readonly cacheMaxAgeMs: number;
  private readonly timeoutMs: number;
  private ownKeySet: KeySet | null = null;

  constructor(private readonly options: VerifierOptions = {}) {
    this.cooldownMs = options.cooldownMs ?? 30_000;
    this.cacheMaxAgeMs = options.cacheMaxAgeMs ?? 600_000;
    this.timeoutMs = options.timeoutMs ?? 5_000;
  }

  setProviders(providers: Provider[]): void {
    this.providers = providers;
  }

  getProviders(): Provider[] {
    return this.providers;
  }

  /** Providers other than this backend's own issuer: real sign-in. */
  realProviders(): Provider[] {
    const own = this.options.ownIssuer?.issuer;
    return this.providers.filter(
      (provider) => own === undefined || !sameIssuer(providerIssuer(provider), own),
    );
  }

  async verify(token: string): Promise<VerifiedToken> {
    let payload: JWTPayload;
    try {
      payload = decodeJwt(token);
    } catch {
      throw new AuthError(PAYLOAD_UNPARSABLE, "InvalidAuthHeader");
    }
    const { issuer, audiences } = routingClaims(payload);
    const provider = providerForToken(this.providers, issuer, audiences);
    if (!provider) throw noAuthProvider(this.providers);
    return provider.type === "oidc"
      ? await this.verifyOidc(token, issuer, provider.applicationID)
      : await this.verifyCustomJwt(token, provider);
  }

  private isOwn(issuer: string): boolean {
    const own = this.options.ownIssuer;
    return own !== undefined && sameIssuer(issuer, own.issuer);
  }

  /** This backend's own keys (they do not change while it runs). */
  private ownKeys(): KeySet {
    this.ownKeySet ??= createLocalJWKSet(this.options.ownIssuer!.jwks()) as KeySet;
    return this.ownKeySet;
  }

  // -- OIDC ----------------------------------------------------------------------------------------

  private async verifyOidc(token: string, issuer: string, applicationID: string): Promise<VerifiedToken> {
    // The discovery document's issuer must be the token's own (checked when it is read), and the
    // verifier checks it again: so the token's `iss` is the issuer's exactly, trailing slash included.
    const own = this.isOwn(issuer);
    const keys = own ? this.ownKeys() : await this.oidcKeys(issuer);
    const claims = decodeJwt(token);
    const identity = oidcIdentity(claims);
    const audiences = typeof claims.aud === "string" ? [claims.aud] : (claims.aud ?? []);
    // Another audience beside the application's is not trusted (Convex's verifier refuses it too).
    const exactIssuer = !own || issuer === this.options.ownIssuer!.issuer;
    if (!exactIssuer || audiences.length !== 1 || audiences[0] !== applicationID) {
      throw new AuthError(OIDC_UNVERIFIED);
    }
    try {
      await compactVerify(token, keys, { algorithms: OIDC_ALGORITHMS });
    } catch (e) {
      if (e instanceof AuthError) throw e;
      throw new AuthError(OIDC_UNVERIFIED);
    }
    const exp = claims.exp as number;
    if (Math.floor(Date.now() / 1000) >= exp) throw new AuthError(OIDC_UNVERIFIED);
    return { identity, expiresAt: exp * 1000 };
  }

  /** The key set of the issuer's discovery document, read again after the cache's age. */
  private async oidcKeys(issuer: string): Promise<KeySet> {
    const known = this.discovery.get(issuer);
    let jwksUri = known && Date.now() - known.at < this.cacheMaxAgeMs ? known.jwksUri : null;
    if (jwksUri === null) {
      jwksUri = await this.discover(issuer);
      this.discovery.set(issuer, { jwksUri, at: Date.now() });
    }
    return this.remoteKeys(jwksUri, (failure) =>
      this.discoveryError(issuer, failure.kind === "status" ? failure : undefined),
    );
  }

  private discoveryError(issuer: string, answer?: { status: number; body: string }): AuthError {
    const failed = `Auth provider discovery of ${issuer} failed`;
    if (!answer) return new AuthError(failed, "AuthProviderDiscoveryFailed", 400);
    return new AuthError(
      `${failed}: ${answer.status} ${STATUS_CODES[answer.status] ?? ""} ${answer.body}`,
      "AuthProviderDiscoveryFailed",
      discoveryStatus(answer.status),
    );
  }

  /** `<issuer>/.well-known/openid-configuration`: its `jwks_uri`, once its `issuer` is the token's. */
  private async discover(issuer: string): Promise<string> {
    const url = `${issuer.endsWith("/") ? issuer : `${issuer}/`}.well-known/openid-configuration`;
    let response: Response;
    try {
      response = await fetch(url, {
        headers: { accept: "application/json" },
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch {
      throw this.discoveryError(issuer);
    }
    const body = await response.text().catch(() => "");
    if (response.status !== 200) throw this.discoveryError(issuer, { status: response.status, body });
    if (!isJsonType(response.headers.get("content-type"), ["application/json"]))
      throw this.discoveryError(issuer);
    let document: { issuer?: unknown; jwks_uri?: unknown };
    try {
      document = JSON.parse(body) as typeof document;
    } catch {
      throw this.discoveryError(issuer);
    }
    if (
      document.issuer !== issuer ||
      typeof document.jwks_uri !== "string" ||
      !URL.canParse(document.jwks_uri)
    ) {
      throw this.discoveryError(issuer);
    }
    return document.jwks_uri;
  }

  // -- Custom JWT ----------------------------------------------------------------------------------

  private async verifyCustomJwt(token: string, provider: CustomJwtProvider): Promise<VerifiedToken> {
    const keys = this.isOwn(provider.issuer) ? this.ownKeys() : await this.customJwtKeys(provider.jwks);
    // Fetch problems come first, as Convex fetches the key set before it reads the token's header.
    if (keys.fresh === false) await keys.reload?.();
    const kid = (() => {
      try {
        return decodeProtectedHeader(token).kid;
      } catch {
        return undefined;
      }
    })();
    const undecodable = new AuthError(
      kid === undefined
        ? "Could not decode token. JWT may be missing a 'kid' (key ID) header."
        : `Could not decode token. The JWT's 'kid' (key ID) header is '${kid}', does this key match any key in the provider's JWKS?`,
      "InvalidAuthHeader",
    );
    if (kid === undefined) throw undecodable;
    try {
      await compactVerify(token, keys, { algorithms: [provider.algorithm] });
    } catch (e) {
      if (e instanceof AuthError) throw e;
      throw undecodable;
    }
    const claims = decodeJwt(token);
    const problem = customJwtTimeProblem(claims, Math.floor(Date.now() / 1000));
    if (problem !== null) throw new AuthError(problem, "InvalidAuthHeader");
    const identity = customJwtIdentity(claims);
    if (typeof claims.exp !== "number") throw new AuthError(CLAIMS_UNUSABLE, "InvalidAuthHeader");
    return { identity, expiresAt: claims.exp * 1000 };
  }

  private async customJwtKeys(jwks: string): Promise<KeySet> {
    if (!jwks.startsWith("data:")) {
      return this.remoteKeys(jwks, (failure) => {
        if (failure.kind === "problem") return new AuthError(failure.message, "InvalidAuthHeader");
        const reason =
          failure.kind === "status"
            ? `HTTP ${failure.status} ${STATUS_CODES[failure.status] ?? "Unknown"}`
            : errorText(failure.error);
        return new AuthError(
          `Could not fetch JWKS from URL '${jwks}': ${reason}. Check that the URL is correct and accessible.`,
          "InvalidAuthHeader",
        );
      });
    }
    const known = this.keySets.get(jwks);
    if (known) return known;
    let text: string;
    try {
      // Node's fetch reads `data:` URLs as the fetch standard says (an unknown type is text/plain).
      text = await (await fetch(jwks)).text();
    } catch {
      throw new AuthError(
        "Invalid JWKS data URL. Check that the data URL is properly formatted and contains valid base64-encoded JSON.",
        "InvalidAuthHeader",
      );
    }
    const keys = createLocalJWKSet(parseJwks(text, jwks)) as KeySet;
    this.keySets.set(jwks, keys);
    return keys;
  }

  // -- Remote key sets -----------------------------------------------------------------------------

  /**
   * jose's remote key set for `url`, one per URL, fetching through `fetch` with Convex's checks: 200,
   * a JSON content type, a key set in the body. `failure` words a failed fetch for the provider's kind.
   */
  private remoteKeys(url: string, failure: (failure: FetchFailure) => AuthError): KeySet {
    const known = this.keySets.get(url);
    if (known) return known;
    const fetchKeys = async (input: string | URL, init?: RequestInit): Promise<Response> => {
      let response: Response;
      try {
        response = await fetch(input, { headers: init?.headers, signal: init?.signal });
      } catch (error) {
        throw failure({ kind: "unreachable", error });
      }
      const body = await response.text().catch(() => "");
      if (response.status !== 200) throw failure({ kind: "status", status: response.status, body });
      const type = response.headers.get("content-type");
      if (!isJsonType(type, JWKS_MEDIA_TYPES)) {
        const message = `Invalid Content-Type '${type ?? "unknown"}' when fetching JWKS from '${url}'. Expected 'application/json' or 'application/jwk-set+json'.`;
        throw failure({ kind: "problem", message });
      }
      try {
        return Response.json(parseJwks(body, url));
      } catch (e) {
        throw e instanceof AuthError ? failure({ kind: "problem", message: e.message }) : e;
      }
    };
    const keys = createRemoteJWKSet(new URL(url), {
      cooldownDuration: this.cooldownMs,
      cacheMaxAge: this.cacheMaxAgeMs,
      timeoutDuration: this.timeoutMs,
      [customFetch]: fetchKeys,
    }) as KeySet;
    this.keySets.set(url, keys);
    return keys;
  }
}

function isJsonType(header: string | null, types: string[]): boolean {
  if (header === null) return false;
  const [essence, ...params] = header.split(";").map((part) => part.trim().toLowerCase());
  const charset = params.find((param) => param.startsWith("charset="));
  return types.includes(essence) && (charset === undefined || charset === "charset=utf-8");
}

function parseJwks(text: string, from: string): JSONWebKeySet {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (!isJwkSet(parsed)) {
    throw new AuthError(
      `Invalid JWKS response body from '${from}'. The response is not valid JSON or doesn't match the expected JWKS format.`,
      "InvalidAuthHeader",
    );
  }
  return parsed;
}
