/**
 * `--trust-proxy` (decision 094): a visitor's address is the socket's peer unless that peer is a proxy
 * the operator named; then it is the nearest hop of the proxy's header that is not trusted.
 */
import type { IncomingHttpHeaders } from "node:http";
import { describe, expect, test } from "vitest";
import { AccessPolicy, decideDevSignIn } from "./access.ts";
import {
  bareAddress,
  clientAddress,
  forwardedHops,
  parseClientAddressHeader,
  parseTrustProxy,
} from "./client-address.ts";

function request(peer: string | undefined, headers: IncomingHttpHeaders = {}) {
  return { socket: { remoteAddress: peer }, headers } as Parameters<typeof clientAddress>[0];
}

const loopback = parseTrustProxy("loopback");
const forwarded = parseTrustProxy("loopback", "forwarded");

describe("a peer that is not trusted", () => {
  test("is the client, whatever it says in X-Forwarded-For or Forwarded", () => {
    const spoofed = { "x-forwarded-for": "198.51.100.7", forwarded: "for=198.51.100.7" };
    expect(clientAddress(request("203.0.113.9", spoofed), loopback)).toBe("203.0.113.9");
    expect(clientAddress(request("203.0.113.9", spoofed), forwarded)).toBe("203.0.113.9");
  });

  test("is the client when no proxy is trusted at all, even on loopback", () => {
    expect(clientAddress(request("127.0.0.1", { "x-forwarded-for": "198.51.100.7" }), undefined)).toBe(
      "127.0.0.1",
    );
  });

  test("an IPv4 peer on a dual-stack socket is named as IPv4", () => {
    expect(clientAddress(request("::ffff:203.0.113.9"), undefined)).toBe("203.0.113.9");
  });
});

describe("behind a trusted proxy", () => {
  test("the visitor the proxy names is the client; without a header, the proxy itself", () => {
    expect(clientAddress(request("127.0.0.1", { "x-forwarded-for": "198.51.100.7" }), loopback)).toBe(
      "198.51.100.7",
    );
    expect(clientAddress(request("::ffff:127.0.0.1", { "x-forwarded-for": "198.51.100.7" }), loopback)).toBe(
      "198.51.100.7",
    );
    expect(clientAddress(request("127.0.0.1"), loopback)).toBe("127.0.0.1");
  });

  test("two visitors are two addresses, so what is keyed by address counts them apart", () => {
    const policy = new AccessPolicy({ trustProxy: loopback });
    const first = policy.clientAddress(request("127.0.0.1", { "x-forwarded-for": "198.51.100.7" }));
    const second = policy.clientAddress(request("127.0.0.1", { "x-forwarded-for": "203.0.113.20" }));
    expect(first).toBe("198.51.100.7");
    expect(second).toBe("203.0.113.20");
  });

  test("a chain is read from the right, trusted hops skipped: what the visitor wrote to the left is not read", () => {
    const trust = parseTrustProxy("loopback, 10.0.0.0/8");
    // visitor 198.51.100.7 sent a made-up hop; the edge proxy 10.0.0.5 and nginx on loopback added theirs.
    const chain = { "x-forwarded-for": "1.2.3.4, 198.51.100.7, 10.0.0.5" };
    expect(clientAddress(request("127.0.0.1", chain), trust)).toBe("198.51.100.7");
    // Only loopback trusted: 10.0.0.5 is the nearest untrusted hop.
    expect(clientAddress(request("127.0.0.1", chain), loopback)).toBe("10.0.0.5");
    // Every hop trusted: the leftmost is the client.
    expect(clientAddress(request("127.0.0.1", { "x-forwarded-for": "10.0.0.9, 10.0.0.5" }), trust)).toBe(
      "10.0.0.9",
    );
  });

  test("header lines given twice are one list, in order", () => {
    const twice = { "x-forwarded-for": ["198.51.100.7", "10.0.0.5"] };
    expect(clientAddress(request("127.0.0.1", twice), parseTrustProxy("loopback,10.0.0.0/8"))).toBe(
      "198.51.100.7",
    );
  });

  test("IPv6: bare, bracketed with a port, a zone; trusted by CIDR", () => {
    const trust = parseTrustProxy("::1, 2001:db8:ffff::/48");
    expect(clientAddress(request("::1", { "x-forwarded-for": "2001:DB8::17" }), trust)).toBe("2001:db8::17");
    expect(clientAddress(request("::1", { "x-forwarded-for": "[2001:db8::17]:4711" }), trust)).toBe(
      "2001:db8::17",
    );
    expect(
      clientAddress(request("::1", { "x-forwarded-for": "2001:db8::17, 2001:db8:ffff::1" }), trust),
    ).toBe("2001:db8::17");
    expect(bareAddress("fe80::1%eth0")).toBe("fe80::1");
    expect(bareAddress("192.0.2.1:8080")).toBe("192.0.2.1");
  });

  test("RFC 7239 Forwarded: quoted, bracketed, with other parameters, several elements", () => {
    const header = {
      forwarded: 'for=198.51.100.7;proto=https;by=203.0.113.43, For="[2001:db8:cafe::17]:4711"',
    };
    expect(forwardedHops(header.forwarded)).toEqual(["198.51.100.7", "[2001:db8:cafe::17]:4711"]);
    expect(clientAddress(request("127.0.0.1", header), forwarded)).toBe("2001:db8:cafe::17");
    expect(forwardedHops('for="a,b";by=x, proto=http, for=1.2.3.4')).toEqual(["a,b", "", "1.2.3.4"]);
  });

  test("the header not chosen is not read: a Forwarded the visitor made up passes an X-Forwarded-For proxy", () => {
    const headers = { forwarded: "for=1.2.3.4", "x-forwarded-for": "198.51.100.7" };
    expect(clientAddress(request("127.0.0.1", headers), loopback)).toBe("198.51.100.7");
    expect(clientAddress(request("127.0.0.1", headers), forwarded)).toBe("1.2.3.4");
  });

  test.each([
    ["garbage", "not-an-address"],
    ["empty", ""],
    ["unknown", "unknown"],
    ["an obfuscated name", "_hidden"],
    ["a trailing comma", "198.51.100.7,"],
    ["an address with a path", "198.51.100.7/32"],
  ])("a hop that is not an address (%s) ends the walk at the proxy that wrote it", (_, value) => {
    expect(clientAddress(request("127.0.0.1", { "x-forwarded-for": value }), loopback)).toBe("127.0.0.1");
  });

  test("malformed Forwarded elements name nobody; the trusted proxy is then the client", () => {
    for (const value of ['for="198.51.100.7', "for", ";;;", "by=1.2.3.4", 'for="[::1"']) {
      expect(clientAddress(request("127.0.0.1", { forwarded: value }), forwarded)).toBe("127.0.0.1");
    }
  });
});

describe("--trust-proxy's value", () => {
  test("takes addresses, ranges and the names loopback, linklocal, uniquelocal", () => {
    const trust = parseTrustProxy("loopback, uniquelocal, 203.0.113.5, 2001:db8::/32")!;
    for (const trusted of [
      "127.0.0.1",
      "::1",
      "10.1.2.3",
      "172.31.0.1",
      "192.168.1.1",
      "fd00::1",
      "203.0.113.5",
    ]) {
      expect(trust.trusts(trusted)).toBe(true);
    }
    expect(trust.trusts("2001:db8:1::1")).toBe(true);
    for (const other of ["203.0.113.6", "8.8.8.8", "2001:db9::1", "fe80::1", "garbage"]) {
      expect(trust.trusts(other)).toBe(false);
    }
    expect(parseTrustProxy("linklocal")!.trusts("169.254.1.1")).toBe(true);
    expect(parseTrustProxy(undefined)).toBeUndefined();
  });

  test.each(["true", "all", "1", "proxy.lan", "10.0.0.0/33", "::/129", "10.0.0.0/8/1", "10.0.0.0/x"])(
    "refuses %s, saying what it takes",
    (value) => {
      expect(() => parseTrustProxy(value)).toThrow(/--trust-proxy takes addresses, CIDR ranges/);
    },
  );

  test("--client-ip-header is x-forwarded-for (default) or forwarded", () => {
    expect(parseClientAddressHeader(undefined)).toBe("x-forwarded-for");
    expect(parseClientAddressHeader("Forwarded")).toBe("forwarded");
    expect(() => parseClientAddressHeader("x-real-ip")).toThrow(/x-forwarded-for or forwarded/);
  });
});

describe("trusting a proxy and the operator's privileges", () => {
  test("a server that trusts a proxy offers no development sign-in, even on loopback", () => {
    expect(decideDevSignIn({ trustProxy: loopback })).toMatchObject({ on: false });
  });

  test("a trusted proxy naming a loopback visitor makes nobody the operator", () => {
    const policy = new AccessPolicy({ trustProxy: loopback });
    const req = request("127.0.0.1", { "x-forwarded-for": "127.0.0.1" });
    expect(policy.clientAddress(req)).toBe("127.0.0.1");
    expect(policy.isOperator(req)).toBe(false);
    expect(policy.devSignInRefusal(req)).not.toBeNull();
  });
});
