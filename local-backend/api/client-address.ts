/**
 * Whose request this is (`--trust-proxy`, decision 094): the socket's peer, unless that peer is a proxy
 * the operator named, in which case the address that proxy reports in the header it sets
 * (`X-Forwarded-For` by default, or RFC 7239's `Forwarded`). The hops are read from the right, each
 * trusted one skipped, as Express's `trust proxy` (jshttp/proxy-addr) does: the first address not
 * trusted is the client. A peer not trusted is the client whatever its headers say, so a visitor who
 * sends `X-Forwarded-For` himself changes nothing.
 *
 * Only one header is read: a proxy that sets `X-Forwarded-For` passes a `Forwarded` its visitor made up
 * untouched, and reading that one would let the visitor choose his own address.
 */
import type { IncomingMessage } from "node:http";
import { BlockList, isIP } from "node:net";

/** The header a trusted proxy names its visitor in. */
export type ClientAddressHeader = "x-forwarded-for" | "forwarded";

/** The proxies trusted to name their visitor (`--trust-proxy`), and the header they set. */
export type TrustedProxies = {
  /** What was asked for, as given (`loopback, 10.0.0.0/8`): for the start-up banner. */
  description: string;
  /** Whether an address (of a socket or a hop) is one of the trusted proxies. */
  trusts(address: string): boolean;
  header: ClientAddressHeader;
};

/** Names for the usual proxy addresses, as Express's `trust proxy` has them. */
const PRESETS: Record<string, readonly string[]> = {
  loopback: ["127.0.0.0/8", "::1/128"],
  linklocal: ["169.254.0.0/16", "fe80::/10"],
  uniquelocal: ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"],
};

/**
 * `--trust-proxy loopback,10.0.0.5,192.168.0.0/16,2001:db8::/32`: addresses, CIDR ranges and the names
 * `loopback`, `linklocal`, `uniquelocal`. Anything else (a host name, `true`, a hop count) is refused:
 * trusting every peer would let anyone choose his address.
 */
export function parseTrustProxy(
  value: string | undefined,
  header: ClientAddressHeader = "x-forwarded-for",
): TrustedProxies | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  const list = new BlockList();
  const entries = value
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
  for (const entry of entries) {
    for (const range of PRESETS[entry.toLowerCase()] ?? [entry]) addRange(list, range, entry);
  }
  return {
    description: entries.join(", "),
    trusts: (address) => {
      const bare = bareAddress(address);
      const family = isIP(bare);
      return family !== 0 && list.check(bare, family === 4 ? "ipv4" : "ipv6");
    },
    header,
  };
}

function addRange(list: BlockList, range: string, given: string): void {
  const [address, prefix, ...rest] = range.split("/");
  const family = isIP(address);
  const bits = prefix === undefined ? (family === 4 ? 32 : 128) : Number(prefix);
  if (
    family === 0 ||
    rest.length > 0 ||
    (prefix !== undefined && !/^\d{1,3}$/.test(prefix)) ||
    bits > (family === 4 ? 32 : 128)
  ) {
    throw new Error(
      `--trust-proxy takes addresses, CIDR ranges (10.0.0.0/8) and loopback, linklocal or uniquelocal, not ${JSON.stringify(given)}.`,
    );
  }
  list.addSubnet(address, bits, family === 4 ? "ipv4" : "ipv6");
}

/** For start-up banners: where a client's address comes from. */
export function describeTrustProxy(trusted: TrustedProxies | undefined): string {
  if (!trusted) return "the socket's peer (no proxy trusted; --trust-proxy names one)";
  return `${trusted.header === "forwarded" ? "Forwarded" : "X-Forwarded-For"} from ${trusted.description} (--trust-proxy), else the socket's peer`;
}

/** `--client-ip-header`: which header the trusted proxies set. */
export function parseClientAddressHeader(value: string | undefined): ClientAddressHeader {
  const name = (value ?? "x-forwarded-for").trim().toLowerCase();
  if (name === "x-forwarded-for" || name === "forwarded") return name;
  throw new Error(`--client-ip-header is x-forwarded-for or forwarded, not ${JSON.stringify(value)}.`);
}

/**
 * An address as a hop may write it, bare: `[2001:db8::1]:4711` → `2001:db8::1`, `192.0.2.1:80` →
 * `192.0.2.1`, `::ffff:192.0.2.1` → `192.0.2.1` (Node's IPv4 on a dual-stack socket). Unchanged when
 * it is not an address (`unknown`, `_hidden`, garbage): the caller checks with `isIP`.
 */
export function bareAddress(value: string): string {
  let address = value.trim();
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(address);
  if (bracketed) address = bracketed[1];
  else if (/^\d{1,3}(?:\.\d{1,3}){3}:\d{1,5}$/.test(address))
    address = address.slice(0, address.lastIndexOf(":"));
  const zone = address.indexOf("%");
  if (zone > 0 && isIP(address.slice(0, zone)) === 6) address = address.slice(0, zone);
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped && isIP(mapped[1]) === 4) address = mapped[1];
  return address.toLowerCase();
}

/** `X-Forwarded-For: client, proxy1, proxy2`: the hops, leftmost (farthest) first. */
export function xForwardedForHops(header: string): string[] {
  return header.split(",").map((hop) => hop.trim());
}

/**
 * RFC 7239 `Forwarded: for=192.0.2.60;proto=http;by=203.0.113.43, for="[2001:db8:cafe::17]:4711"`: each
 * element's `for` (unquoted), leftmost first; an element with no `for`, or one that does not parse,
 * is an empty string (a hop nobody named).
 */
export function forwardedHops(header: string): string[] {
  return splitOutsideQuotes(header, ",").map((element) => {
    for (const pair of splitOutsideQuotes(element, ";")) {
      const equals = pair.indexOf("=");
      if (equals < 0 || pair.slice(0, equals).trim().toLowerCase() !== "for") continue;
      const value = pair.slice(equals + 1).trim();
      if (value.startsWith('"')) {
        return value.length >= 2 && value.endsWith('"') ? value.slice(1, -1).replace(/\\(.)/g, "$1") : "";
      }
      return value;
    }
    return "";
  });
}

/** `text` split on `separator` where it is not inside a quoted string; an unclosed quote runs to the end. */
function splitOutsideQuotes(text: string, separator: string): string[] {
  const parts: string[] = [];
  let current = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted && char === "\\" && i + 1 < text.length) {
      current += char + text[++i];
      continue;
    }
    if (char === '"') quoted = !quoted;
    if (char === separator && !quoted) {
      parts.push(current.trim());
      current = "";
    } else {
      current += char;
    }
  }
  parts.push(current.trim());
  return parts;
}

type Request = Pick<IncomingMessage, "headers" | "socket">;

function headerText(req: Request, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
}

/**
 * The client's address: the socket's peer, or, when the peer is a trusted proxy, the nearest hop of
 * its header that is not one, read from the right. A hop that is not an address (`unknown`, an
 * obfuscated name, garbage) ends the walk at the proxy that wrote it, whose address is then the
 * client's: always an address, never text a visitor chose. `"unknown"` only for a socket already gone.
 */
export function clientAddress(req: Request, trusted: TrustedProxies | undefined): string {
  const peer = req.socket.remoteAddress;
  if (!peer) return "unknown";
  let address = bareAddress(peer);
  if (!trusted || !trusted.trusts(address)) return address;
  const header = headerText(req, trusted.header);
  if (header === undefined) return address;
  const hops = trusted.header === "forwarded" ? forwardedHops(header) : xForwardedForHops(header);
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = bareAddress(hops[i]);
    if (isIP(hop) === 0) return address;
    address = hop;
    if (!trusted.trusts(hop)) return address;
  }
  return address;
}
