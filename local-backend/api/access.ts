/**
 * Who the embedded backend answers. A server on loopback is still reachable from every web page open in
 * this machine's browser: a hostile page can send requests to it, and after DNS rebinding
 * (evil.example resolving to 127.0.0.1) those requests are even same-origin. The `Host` and `Origin`
 * headers are what such a page cannot fake, so every HTTP request and WebSocket upgrade is checked
 * against them before anything else, as Vite's `server.allowedHosts` does for its own requests.
 *
 * By default only loopback names are allowed (`localhost`, `*.localhost`, `127.0.0.1`, `[::1]`), in
 * `Host` with the port actually served. Listening on another interface (`--host`) also allows IP
 * addresses (an address cannot be rebound) with that port, and the listened name itself; names in
 * `allowedHosts` are allowed at any port (a proxy may front them), `.example.com` meaning the name and
 * its subdomains; `true` allows any Host (no protection against rebinding: for a network you trust).
 *
 * Development sign-in (`/local-auth/token`) is decided here too, once, when the server starts: only a
 * server for this machine alone offers it (loopback interface, loopback names, no public origin), and
 * even there only to a request whose socket is this machine and that carries no proxy header, since
 * behind a reverse proxy on the same machine every visitor's socket is loopback (decision 053).
 */
import type { IncomingMessage } from "node:http";
import { isIP } from "node:net";
import type { Duplex } from "node:stream";
import { clientAddress, type TrustedProxies } from "./client-address.ts";

export type AccessOptions = {
  /** Host names allowed besides the loopback ones: `name`, `.name` (and its subdomains), or `true` for any. */
  allowedHosts?: readonly string[] | true;
  /** The interface listened on (default loopback). */
  listenHost?: string;
  /** The address people reach this server by (`--public-origin`): a served deployment. */
  publicOrigin?: string;
  /** The real sign-in providers `convex/auth.config.ts` names (described), besides development tokens. */
  signInProviders?: readonly string[];
  /** The proxies whose header names the client (`--trust-proxy`; client-address.ts). */
  trustProxy?: TrustedProxies;
};

/**
 * Whether this server offers development sign-in, and why, in words for its start-up banner; with
 * `providers`, the real sign-in it offers instead.
 */
export type DevSignIn = { on: boolean; reason: string; providers?: readonly string[] };

export type AccessDecision = { ok: true } | { ok: false; message: string };

const OK: AccessDecision = { ok: true };

/** `localhost`, `*.localhost`, `127.0.0.1` and `[::1]` (or `::1`), lower-case, without a port. */
export function isLoopbackName(hostname: string): boolean {
  return (
    hostname === "localhost" ||
    hostname.endsWith(".localhost") ||
    hostname === "127.0.0.1" ||
    hostname === "[::1]" ||
    hostname === "::1"
  );
}

/** Whether an interface to listen on is this machine only. */
export function isLoopbackInterface(host: string | undefined): boolean {
  return host === undefined || host === "localhost" || host === "::1" || host.startsWith("127.");
}

/** A socket's peer address is this machine. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  return address === "::1" || address.startsWith("127.") || address.startsWith("::ffff:127.");
}

/**
 * Headers a reverse proxy adds (RFC 7239's `Forwarded`, the de facto `X-Forwarded-*`, and the client
 * address headers of nginx, Apache, Cloudflare, Akamai and Fastly): a request carrying one came
 * through a proxy, whatever its socket's address says.
 */
const PROXY_HEADERS = [
  "forwarded",
  "x-forwarded-for",
  "x-forwarded-host",
  "x-forwarded-proto",
  "x-forwarded-port",
  "x-forwarded-server",
  "x-forwarded-prefix",
  "x-real-ip",
  "x-client-ip",
  "x-cluster-client-ip",
  "client-ip",
  "true-client-ip",
  "cf-connecting-ip",
  "fastly-client-ip",
  "via",
];

/** The first proxy header a request carries, or null. */
export function proxyHeaderOf(req: Pick<IncomingMessage, "headers">): string | null {
  return PROXY_HEADERS.find((name) => req.headers[name] !== undefined) ?? null;
}

/** How people sign in to a served deployment (README, "Real sign-in on one machine"). */
const SIGN_IN_HERE =
  'To sign people in on a served deployment, use Clerk: start it with CLERK_JWT_ISSUER_DOMAIN set and build the app with VITE_CLERK_PUBLISHABLE_KEY (README, "Real sign-in on one machine"); without them, only the operator can sign in, in a browser on the server\'s own machine, with the server started for that machine alone (no --public-origin, --allowed-hosts or --host).';

/**
 * Whether development sign-in may be offered at all, decided from how the server was started and the
 * providers of `auth.config.ts`: with a real one, development sign-in is off entirely (decision 073).
 */
export function decideDevSignIn(options: AccessOptions): DevSignIn {
  const providers = options.signInProviders ?? [];
  if (providers.length > 0) {
    return { on: false, reason: "convex/auth.config.ts names a sign-in provider", providers };
  }
  if (options.publicOrigin) {
    return { on: false, reason: `it was started to serve ${options.publicOrigin} (--public-origin)` };
  }
  // A server told to trust a proxy is served through one: its visitors are not this machine's.
  if (options.trustProxy) {
    return { on: false, reason: `it trusts a proxy to name its visitors (--trust-proxy)` };
  }
  if (options.allowedHosts === true) {
    return { on: false, reason: "it answers any Host name (--allowed-hosts all)" };
  }
  const named = (options.allowedHosts ?? []).filter((name) => !isLoopbackName(name.trim().toLowerCase()));
  if (named.length > 0) {
    return { on: false, reason: `it answers Host names beyond this machine (${named.join(", ")})` };
  }
  if (!isLoopbackInterface(options.listenHost)) {
    return { on: false, reason: `it listens beyond loopback (${options.listenHost})` };
  }
  return { on: true, reason: "this machine only: loopback, and never through a proxy" };
}

/** The decision in a sentence: the start-up banner's line, and what the sign-in page says when it is off. */
export function describeDevSignIn(devSignIn: DevSignIn): string {
  if (devSignIn.on) return `Development sign-in is on for ${devSignIn.reason}.`;
  if (devSignIn.providers?.length) {
    return `Sign-in is through ${devSignIn.providers.join(", ")} (convex/auth.config.ts); development sign-in is off.`;
  }
  return `Development sign-in is off on this server: ${devSignIn.reason}. ${SIGN_IN_HERE}`;
}

/**
 * What is wrong when the app's sign-in and the backend's providers do not go together, in a sentence
 * for the start-up banner (null when they do): an app built with Clerk's key whose backend verifies
 * no real provider's token, or a backend with a real provider and an app without Clerk.
 */
export function signInMismatch(appUsesClerk: boolean, devSignIn: DevSignIn): string | null {
  const realSignIn = (devSignIn.providers?.length ?? 0) > 0;
  if (appUsesClerk && !realSignIn) {
    return "WARNING: the app signs in with Clerk (VITE_CLERK_PUBLISHABLE_KEY), but convex/auth.config.ts names no provider besides development sign-in, so every Clerk token is refused: start with CLERK_JWT_ISSUER_DOMAIN set to your Clerk issuer.";
  }
  if (!appUsesClerk && realSignIn) {
    return "WARNING: convex/auth.config.ts names a sign-in provider, so development sign-in is off, but the app has no VITE_CLERK_PUBLISHABLE_KEY: nobody can sign in. Set it (for npm start, build again with it).";
  }
  return null;
}

type HostAndPort = { hostname: string; port: number | null };

/** `Host` header → lower-case hostname (IPv6 in brackets) and port; null when it is not a host. */
export function parseHostHeader(value: string): HostAndPort | null {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^\s:/?#@[\]]+)(?::(\d{1,5}))?$/.exec(value);
  if (!match) return null;
  const port = match[2] === undefined ? null : Number(match[2]);
  if (port !== null && port > 65535) return null;
  return { hostname: match[1].toLowerCase(), port };
}

function bareIp(hostname: string): string {
  return hostname.startsWith("[") ? hostname.slice(1, -1) : hostname;
}

function defaultPort(protocol: string): number {
  return protocol === "https:" ? 443 : 80;
}

export class AccessPolicy {
  private readonly names: readonly string[];
  private readonly anyHost: boolean;
  private readonly openInterface: boolean;
  /** Decided at start, and again when `auth.config.ts` names other providers (`setSignInProviders`). */
  private decision: DevSignIn;

  constructor(private readonly options: AccessOptions = {}) {
    this.decision = decideDevSignIn(options);
    this.anyHost = options.allowedHosts === true;
    const names = options.allowedHosts === true ? [] : [...(options.allowedHosts ?? [])];
    this.openInterface = !isLoopbackInterface(options.listenHost);
    const listen = options.listenHost?.toLowerCase();
    if (listen && this.openInterface && isIP(listen) === 0) names.push(listen);
    this.names = names.map((name) => name.trim().toLowerCase()).filter((name) => name !== "");
  }

  get devSignIn(): DevSignIn {
    return this.decision;
  }

  /** The real providers of `auth.config.ts` (described), read at start and at each reload of the functions. */
  setSignInProviders(providers: readonly string[]): void {
    this.decision = decideDevSignIn({ ...this.options, signInProviders: providers });
  }

  /** Named in `allowedHosts` (or, listening on a named interface, that name). */
  private isNamed(hostname: string): boolean {
    return this.names.some((name) =>
      name.startsWith(".") ? hostname === name.slice(1) || hostname.endsWith(name) : hostname === name,
    );
  }

  /** Loopback names, and IP addresses when listening beyond loopback: these must name the served port. */
  private isPortBound(hostname: string): boolean {
    return isLoopbackName(hostname) || (this.openInterface && isIP(bareIp(hostname)) !== 0);
  }

  /** The `Host` header of a request that arrived on `servedPort`. */
  checkHost(header: string | undefined, servedPort: number | undefined, protocol = "http:"): AccessDecision {
    if (this.anyHost) return OK;
    const parsed = header === undefined ? null : parseHostHeader(header);
    if (!parsed) return { ok: false, message: "The request has no valid Host header." };
    if (this.isNamed(parsed.hostname)) return OK;
    const port = parsed.port ?? defaultPort(protocol);
    if (this.isPortBound(parsed.hostname) && (servedPort === undefined || port === servedPort)) return OK;
    return {
      ok: false,
      message: `Host ${JSON.stringify(header)} is not allowed. This server answers only loopback names (localhost, 127.0.0.1, [::1], *.localhost) unless started with --allowed-hosts.`,
    };
  }

  /** The `Origin` header of a browser's request (absent for other clients, which is allowed). */
  checkOrigin(header: string | undefined): AccessDecision {
    if (header === undefined || this.anyHost) return OK;
    const url = URL.canParse(header) ? new URL(header) : null;
    if (url && (url.protocol === "http:" || url.protocol === "https:")) {
      const hostname = url.hostname.toLowerCase();
      if (
        isLoopbackName(hostname) ||
        this.isNamed(hostname) ||
        (this.openInterface && isIP(bareIp(hostname)) !== 0)
      ) {
        return OK;
      }
    }
    return { ok: false, message: `Origin ${JSON.stringify(header)} is not allowed.` };
  }

  /** Both headers of a request (or upgrade), against the port it arrived on. */
  check(req: IncomingMessage): AccessDecision {
    const host = this.checkHost(req.headers.host, req.socket.localPort);
    if (!host.ok) return host;
    const origin: string | string[] | undefined = req.headers.origin;
    return this.checkOrigin(typeof origin === "string" || origin === undefined ? origin : origin[0]);
  }

  /**
   * The client's address (client-address.ts): the socket's peer, or the visitor a trusted proxy names.
   * What is keyed by address (the sign-in limit, logs) asks this; what only the operator may do does
   * not (`isOperator`): a proxy's header never makes anyone the operator.
   */
  clientAddress(req: Pick<IncomingMessage, "headers" | "socket">): string {
    return clientAddress(req, this.options.trustProxy);
  }

  /** Whether the socket's peer is a proxy named by `--trust-proxy` (its `X-Request-Id` is taken too). */
  fromTrustedProxy(req: Pick<IncomingMessage, "socket">): boolean {
    const peer = req.socket.remoteAddress;
    return peer !== undefined && (this.options.trustProxy?.trusts(peer) ?? false);
  }

  /**
   * The person at this machine (the operator): a loopback socket and no proxy header. What only they
   * may do (the admin key, stats) asks this.
   */
  isOperator(req: Pick<IncomingMessage, "headers" | "socket">): boolean {
    return isLoopbackAddress(req.socket.remoteAddress) && proxyHeaderOf(req) === null;
  }

  /** Why `req` gets no development token, in a sentence, or null when it may have one. */
  devSignInRefusal(req: Pick<IncomingMessage, "headers" | "socket">): string | null {
    if (!this.devSignIn.on) return describeDevSignIn(this.devSignIn);
    const proxied = proxyHeaderOf(req);
    if (proxied !== null) {
      return `Development sign-in is only for this machine's own browser, and this request came through a proxy (it carries ${proxied}). ${SIGN_IN_HERE}`;
    }
    if (!isLoopbackAddress(req.socket.remoteAddress)) {
      return "Development sign-in is only available from this machine.";
    }
    return null;
  }
}

/** Answers a refused WebSocket upgrade with 403 and the reason, then drops the socket. */
export function refuseUpgrade(socket: Duplex, message: string): void {
  const body = `${message}\n`;
  socket.end(
    `HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    () => socket.destroy(),
  );
}

/** `--allowed-hosts a,b,.c` (or `all` / `true`) as an option value. */
export function parseAllowedHosts(value: string | undefined): string[] | true | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (trimmed === "all" || trimmed === "true") return true;
  return trimmed
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "");
}

/** For start-up banners: which Host names a server answers. */
export function describeAllowedHosts(
  allowedHosts: readonly string[] | true | undefined,
  loopback: boolean,
): string {
  if (allowedHosts === true) return "any (--allowed-hosts all: no protection against DNS rebinding)";
  const names = ["localhost", "127.0.0.1", "[::1]", "*.localhost", ...(allowedHosts ?? [])];
  return `${names.join(", ")}${loopback ? "" : ", and IP addresses"}`;
}
