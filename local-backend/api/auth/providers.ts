/**
 * The providers of `convex/auth.config.ts` as Convex reads them, which one a token is for, and the
 * identity Convex builds from a verified token's claims (`ctx.auth.getUserIdentity()`). Pure: the
 * fetching and signature checks are in verify.ts. Words, codes and rules follow Convex's backend
 * (`crates/common/src/auth.rs`, `crates/authentication`, `crates/keybroker`), so what a client sees here
 * is what it would see on Convex.
 */
import type { JWTPayload } from "jose";
import type { Identity } from "../../runtime/execution.ts";

/** An OIDC provider (`{ domain, applicationID }`): keys found through the issuer's discovery document. */
export type OidcProvider = { type: "oidc"; domain: string; applicationID: string };
/** A `customJwt` provider: keys at `jwks` (a URL or a `data:` URL), one algorithm, audience optional. */
export type CustomJwtProvider = {
  type: "customJwt";
  issuer: string;
  jwks: string;
  algorithm: "RS256" | "ES256";
  applicationID: string | null;
};
export type Provider = OidcProvider | CustomJwtProvider;

/**
 * A token refused, with Convex's code (`InvalidAuthHeader`, `NoAuthProvider`, `Unauthenticated`,
 * `AuthProviderDiscoveryFailed`) and the HTTP status it answers with (401 unless Convex says otherwise).
 */
export class AuthError extends Error {
  constructor(
    message: string,
    readonly code = "Unauthenticated",
    readonly status = 401,
  ) {
    super(message);
  }
}

export const PAYLOAD_UNPARSABLE =
  "Could not parse JWT payload. Check that the token is a valid JWT format with three base64-encoded parts separated by dots.";
export const MISSING_ISSUER =
  "Missing issuer claim ('iss') in JWT payload. The JWT must include an 'iss' claim that matches one of your configured auth providers.";

/** Convex's reading of a provider's domain or issuer: `https://` added when no scheme is given. */
function issuerUrl(value: unknown, field: string): string {
  if (typeof value !== "string")
    throw new Error(`auth.config.ts: a provider's \`${field}\` must be a string`);
  if (value.startsWith('"')) {
    throw new Error(`Invalid provider domain URL "${value}": starts with a double quote (")`);
  }
  const url = /^\w+:\/\//.test(value) ? value : `https://${value}`;
  if (!URL.canParse(url)) throw new Error(`Invalid provider domain URL "${value}"`);
  if (!["http:", "https:"].includes(new URL(url).protocol)) {
    throw new Error(`Invalid provider domain URL "${value}": scheme should be http or https`);
  }
  return url;
}

/** The providers of `auth.config.ts`'s default export; throws, as a push to Convex fails, on a bad one. */
export function parseAuthConfig(config: unknown): Provider[] {
  const providers = (config as { providers?: unknown } | null | undefined)?.providers;
  if (providers === undefined) return [];
  if (!Array.isArray(providers)) throw new Error("auth.config.ts: `providers` must be an array");
  return providers.map((entry: unknown): Provider => {
    const provider = (entry ?? {}) as Record<string, unknown>;
    if (provider.type === "customJwt") {
      if (typeof provider.jwks !== "string")
        throw new Error("auth.config.ts: a customJwt provider needs `jwks`");
      if (provider.algorithm !== "RS256" && provider.algorithm !== "ES256") {
        throw new Error(
          `Invalid signature algorithm (only RS256 and ES256 are supported): ${JSON.stringify(provider.algorithm)}`,
        );
      }
      const applicationID = provider.applicationID;
      if (applicationID !== undefined && applicationID !== null && typeof applicationID !== "string") {
        throw new Error("auth.config.ts: `applicationID` must be a string");
      }
      return {
        type: "customJwt",
        issuer: issuerUrl(provider.issuer, "issuer"),
        jwks: provider.jwks,
        algorithm: provider.algorithm,
        applicationID: applicationID ?? null,
      };
    }
    if (typeof provider.applicationID !== "string") {
      throw new Error("auth.config.ts: an OIDC provider needs `applicationID`");
    }
    return {
      type: "oidc",
      domain: issuerUrl(provider.domain, "domain"),
      applicationID: provider.applicationID,
    };
  });
}

export function providerIssuer(provider: Provider): string {
  return provider.type === "oidc" ? provider.domain : provider.issuer;
}

/** Issuers compare without trailing slashes; an `iss` without a scheme gets `https://` (Convex does both). */
export function sameIssuer(a: string, b: string): boolean {
  const withScheme = (s: string) =>
    s.startsWith("https://") || s.startsWith("http://") ? s : `https://${s}`;
  return withScheme(a).replace(/\/+$/, "") === withScheme(b).replace(/\/+$/, "");
}

/** Convex's routing: the first provider with the token's issuer and, when it names one, its audience. */
export function providerForToken(
  providers: Provider[],
  issuer: string,
  audiences: string[],
): Provider | null {
  return (
    providers.find(
      (provider) =>
        (provider.applicationID === null || audiences.includes(provider.applicationID)) &&
        sameIssuer(providerIssuer(provider), issuer),
    ) ?? null
  );
}

/** How Convex names a provider in its "No auth provider found" message. */
export function describeProvider(provider: Provider): string {
  return provider.type === "oidc"
    ? `OIDC(domain=${provider.domain}, app_id=${provider.applicationID})`
    : `CustomJWT(issuer=${provider.issuer}, app_id=${provider.applicationID ?? "none"})`;
}

export function noAuthProvider(providers: Provider[]): AuthError {
  const message =
    providers.length === 0
      ? "No auth provider found matching the given token (no providers configured). Check convex/auth.config.ts."
      : `No auth provider found matching the given token. Check that your JWT's issuer and audience match one of your configured providers: [${providers.map(describeProvider).join(", ")}]`;
  return new AuthError(message, "NoAuthProvider");
}

/**
 * The registered claims a token is routed by, refused in Convex's words when the payload is not a JWT's
 * or they have the wrong types.
 */
export function routingClaims(payload: JWTPayload): { issuer: string; audiences: string[] } {
  const { iss, aud, sub, exp, nbf, iat, jti } = payload;
  const wrongType =
    (iss !== undefined && typeof iss !== "string") ||
    (sub !== undefined && typeof sub !== "string") ||
    (jti !== undefined && typeof jti !== "string") ||
    [exp, nbf, iat].some((time) => time !== undefined && typeof time !== "number") ||
    (aud !== undefined &&
      typeof aud !== "string" &&
      !(Array.isArray(aud) && aud.every((a) => typeof a === "string")));
  if (wrongType) throw new AuthError(PAYLOAD_UNPARSABLE, "InvalidAuthHeader");
  if (iss === undefined) throw new AuthError(MISSING_ISSUER, "InvalidAuthHeader");
  return { issuer: iss, audiences: aud === undefined ? [] : typeof aud === "string" ? [aud] : aud };
}

// -- Identities ------------------------------------------------------------------------------------

/** OIDC's standard claims and the identity fields Convex gives them. */
const STRING_CLAIMS: Record<string, string> = {
  name: "name",
  given_name: "givenName",
  family_name: "familyName",
  nickname: "nickname",
  preferred_username: "preferredUsername",
  profile: "profileUrl",
  picture: "pictureUrl",
  website: "websiteUrl",
  email: "email",
  gender: "gender",
  birthdate: "birthday",
  zoneinfo: "timezone",
  locale: "language",
  phone_number: "phoneNumber",
};
const BOOLEAN_CLAIMS: Record<string, string> = {
  email_verified: "emailVerified",
  phone_number_verified: "phoneNumberVerified",
};
/** Standard claims that may carry a language tag (`name#fr`): the tagged ones are not passed on. */
const LOCALIZED = new Set([
  "name",
  "given_name",
  "family_name",
  "middle_name",
  "nickname",
  "profile",
  "picture",
  "website",
]);
/**
 * Claims an OIDC identity never passes on as custom claims: the ID token's own (read by the verifier),
 * the standard ones (typed fields above, or dropped: `middle_name`, `birthday`), and those that change
 * at every refresh and would defeat the query cache (`jti`, `nbf`, Clerk's `fva`).
 */
const NOT_CUSTOM_OIDC = new Set([
  ...["iss", "aud", "exp", "iat", "auth_time", "nonce", "acr", "amr", "azp", "at_hash", "c_hash"],
  ...[
    "sub",
    "middle_name",
    "birthday",
    "address",
    "updated_at",
    ...Object.keys(STRING_CLAIMS),
    ...Object.keys(BOOLEAN_CLAIMS),
  ],
  ...["jti", "nbf", "fva"],
]);

export const NOT_AN_OIDC_TOKEN =
  "Could not parse as OIDC ID token. Token might not be an OIDC-compliant JWT.";

/** A time claim: seconds since the epoch, or an RFC 3339 text (Convex's OIDC parser accepts both). */
function timeClaim(value: unknown): number | null {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value === "string" && !Number.isNaN(Date.parse(value))) return Date.parse(value) / 1000;
  return null;
}

/** A time as Rust's chrono writes it (`to_rfc3339`): `2024-05-01T12:00:00+00:00`, fraction when any. */
function rfc3339(seconds: number): string {
  const iso = new Date(Math.round(seconds * 1000)).toISOString();
  return iso.replace(/\.000Z$/, "+00:00").replace(/Z$/, "+00:00");
}

/**
 * The identity of a verified OIDC ID token, as Convex builds it: standard claims renamed (`picture` →
 * `pictureUrl`, `updated_at` → `updatedAt` as RFC 3339, `address` → its `formatted` text), every other
 * claim passed through with its JSON value. Throws NOT_AN_OIDC_TOKEN when a claim has the wrong type
 * or `sub`, `exp` or `iat` is missing, as Convex's parser refuses such a token.
 */
export function oidcIdentity(claims: JWTPayload): Identity {
  const notOidc = () => new AuthError(NOT_AN_OIDC_TOKEN, "InvalidAuthHeader");
  const { iss, sub } = claims;
  if (typeof iss !== "string" || typeof sub !== "string") throw notOidc();
  if (timeClaim(claims.exp) === null || timeClaim(claims.iat) === null) throw notOidc();
  const identity: Record<string, unknown> = { tokenIdentifier: `${iss}|${sub}`, subject: sub, issuer: iss };
  for (const [claim, value] of Object.entries(claims)) {
    if (value === null || value === undefined) continue;
    const tag = claim.indexOf("#");
    if (tag !== -1 && LOCALIZED.has(claim.slice(0, tag))) {
      if (typeof value !== "string") throw notOidc();
      continue;
    }
    if (claim in STRING_CLAIMS) {
      if (typeof value !== "string") throw notOidc();
      identity[STRING_CLAIMS[claim]] = value;
    } else if (claim in BOOLEAN_CLAIMS) {
      if (typeof value !== "boolean") throw notOidc();
      identity[BOOLEAN_CLAIMS[claim]] = value;
    } else if (claim === "updated_at") {
      const seconds = timeClaim(value);
      if (seconds === null) throw notOidc();
      identity.updatedAt = rfc3339(seconds);
    } else if (claim === "address") {
      if (typeof value !== "object" || Array.isArray(value)) throw notOidc();
      const formatted = (value as { formatted?: unknown }).formatted;
      if (typeof formatted === "string") identity.address = formatted;
    } else if (!NOT_CUSTOM_OIDC.has(claim)) {
      identity[claim] = value;
    }
  }
  return identity as Identity;
}

const REGISTERED = new Set(["iss", "sub", "aud", "exp", "nbf", "iat", "jti"]);

/** Nested objects become dotted names (`org.id`), as Convex flattens a custom JWT's claims. */
function flattenInto(target: Record<string, unknown>, prefix: string, claims: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(claims)) {
    if (value !== null && typeof value === "object" && !Array.isArray(value)) {
      flattenInto(target, `${prefix}${key}.`, value as Record<string, unknown>);
    } else {
      target[`${prefix}${key}`] = value;
    }
  }
}

export const CLAIMS_UNUSABLE =
  "Could not verify token claim. Check that the JWT contains valid claims and matches your auth provider configuration.";

/**
 * The identity of a verified custom JWT, as Convex builds it: `subject`, `issuer`, and every claim but
 * the registered ones under its own name (no OIDC renaming: `picture` stays `picture`), nested objects
 * flattened to dotted names, Clerk's `fva` left out. `sub` and `exp` are required.
 */
export function customJwtIdentity(claims: JWTPayload): Identity {
  const { iss, sub, exp } = claims;
  if (typeof iss !== "string" || typeof sub !== "string" || typeof exp !== "number") {
    throw new AuthError(CLAIMS_UNUSABLE, "InvalidAuthHeader");
  }
  const custom: Record<string, unknown> = {};
  flattenInto(
    custom,
    "",
    Object.fromEntries(Object.entries(claims).filter(([claim]) => !REGISTERED.has(claim))),
  );
  delete custom.fva;
  return { ...custom, tokenIdentifier: `${iss}|${sub}`, subject: sub, issuer: iss };
}

/** Seconds allowed either side of `exp`, `nbf` and `iat` for a custom JWT (Convex's epsilon). */
export const CUSTOM_JWT_LEEWAY_SECONDS = 5;

/**
 * A custom JWT's times against `nowSeconds` (whole seconds), in Convex's words; null when they pass.
 * An OIDC token has no leeway: it is refused from its `exp` on, and its `iat` and `nbf` are not read.
 */
export function customJwtTimeProblem(claims: JWTPayload, nowSeconds: number): string | null {
  const { exp, nbf, iat } = claims;
  if (typeof exp === "number" && nowSeconds - exp > CUSTOM_JWT_LEEWAY_SECONDS) {
    return `Could not validate token: Token expired ${Math.trunc(nowSeconds - exp)} seconds ago`;
  }
  for (const start of [nbf, iat]) {
    if (typeof start === "number" && start - nowSeconds > CUSTOM_JWT_LEEWAY_SECONDS) {
      return `Could not validate token: Token will be valid in ${Math.trunc(start - nowSeconds)} seconds`;
    }
  }
  return null;
}
