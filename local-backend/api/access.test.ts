/** Whom the embedded backend answers: the Host and Origin rules (access.ts). */
import { describe, expect, it } from "vitest";
import {
  AccessPolicy,
  decideDevSignIn,
  describeDevSignIn,
  parseAllowedHosts,
  parseHostHeader,
  signInMismatch,
} from "./access.ts";

describe("Host header", () => {
  const policy = new AccessPolicy();

  it("allows loopback names with the port served", () => {
    for (const host of [
      "localhost:5173",
      "127.0.0.1:5173",
      "[::1]:5173",
      "app.localhost:5173",
      "LOCALHOST:5173",
    ]) {
      expect(policy.checkHost(host, 5173), host).toEqual({ ok: true });
    }
    expect(new AccessPolicy().checkHost("localhost", 80)).toEqual({ ok: true });
  });

  it("refuses other names, other ports, and headers that are not a host", () => {
    for (const host of [
      "evil.example:5173",
      "evil.example",
      "localhost.evil.example:5173",
      "127.0.0.1.nip.io:5173",
      "192.168.1.5:5173",
      "localhost:4173",
      "localhost",
      "",
      "localhost:5173/path",
      "user@localhost:5173",
      "localhost:99999",
      "[::1",
    ]) {
      const decision = policy.checkHost(host, 5173);
      expect(decision.ok, host).toBe(false);
    }
    expect(policy.checkHost(undefined, 5173)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/Host/) as string,
    });
    expect(policy.checkHost("evil.example:5173", 5173)).toMatchObject({
      message: expect.stringContaining("--allowed-hosts") as string,
    });
  });

  it("adds named hosts at any port, subdomains with a leading dot", () => {
    const named = new AccessPolicy({ allowedHosts: ["shop.lan", ".livelocal.example"] });
    expect(named.checkHost("shop.lan:8080", 5173).ok).toBe(true);
    expect(named.checkHost("livelocal.example", 5173).ok).toBe(true);
    expect(named.checkHost("www.livelocal.example:443", 5173).ok).toBe(true);
    expect(named.checkHost("evil-livelocal.example", 5173).ok).toBe(false);
    expect(named.checkHost("other.lan:8080", 5173).ok).toBe(false);
  });

  it("listening beyond loopback also allows IP addresses (with the port) and the listened name", () => {
    const open = new AccessPolicy({ listenHost: "0.0.0.0" });
    expect(open.checkHost("192.168.1.5:5173", 5173).ok).toBe(true);
    expect(open.checkHost("[fe80::1]:5173", 5173).ok).toBe(true);
    expect(open.checkHost("192.168.1.5:80", 5173).ok).toBe(false);
    expect(open.checkHost("evil.example:5173", 5173).ok).toBe(false);
    expect(new AccessPolicy({ listenHost: "devbox.lan" }).checkHost("devbox.lan:5173", 5173).ok).toBe(true);
    expect(new AccessPolicy({ listenHost: "127.0.0.1" }).checkHost("192.168.1.5:5173", 5173).ok).toBe(false);
  });

  it("allows any Host only when told to (`true`)", () => {
    expect(new AccessPolicy({ allowedHosts: true }).checkHost("evil.example", 5173).ok).toBe(true);
  });
});

describe("Origin header", () => {
  const policy = new AccessPolicy();

  it("allows no Origin (not a browser) and loopback origins on any port", () => {
    expect(policy.checkOrigin(undefined).ok).toBe(true);
    for (const origin of [
      "http://localhost:5173",
      "http://127.0.0.1:3000",
      "https://app.localhost",
      "http://[::1]:8080",
    ]) {
      expect(policy.checkOrigin(origin).ok, origin).toBe(true);
    }
  });

  it("refuses other pages, opaque origins and other schemes", () => {
    for (const origin of [
      "http://evil.example:5173",
      "null",
      "file://",
      "chrome-extension://abc",
      "ws://localhost:5173",
      "javascript:alert(1)",
      "",
      "http://localhost.evil.example",
    ]) {
      expect(policy.checkOrigin(origin).ok, origin).toBe(false);
    }
  });

  it("allows named hosts' origins", () => {
    expect(
      new AccessPolicy({ allowedHosts: [".livelocal.example"] }).checkOrigin("https://www.livelocal.example")
        .ok,
    ).toBe(true);
  });
});

describe("option parsing", () => {
  it("reads --allowed-hosts as Vite's allowedHosts", () => {
    expect(parseAllowedHosts(undefined)).toBeUndefined();
    expect(parseAllowedHosts("a.lan, .b.example ,")).toEqual(["a.lan", ".b.example"]);
    expect(parseAllowedHosts("all")).toBe(true);
  });

  it("parses Host headers", () => {
    expect(parseHostHeader("LocalHost:5173")).toEqual({ hostname: "localhost", port: 5173 });
    expect(parseHostHeader("[::1]")).toEqual({ hostname: "[::1]", port: null });
    expect(parseHostHeader("a b")).toBeNull();
  });
});

describe("sign-in offered", () => {
  it("turns development sign-in off when auth.config.ts names a real provider, and says which", () => {
    const policy = new AccessPolicy();
    expect(policy.devSignIn.on).toBe(true);
    policy.setSignInProviders(["OIDC(domain=https://x.clerk.accounts.dev, app_id=convex)"]);
    expect(policy.devSignIn.on).toBe(false);
    expect(describeDevSignIn(policy.devSignIn)).toBe(
      "Sign-in is through OIDC(domain=https://x.clerk.accounts.dev, app_id=convex) (convex/auth.config.ts); development sign-in is off.",
    );
    policy.setSignInProviders([]);
    expect(policy.devSignIn.on).toBe(true);
    expect(new AccessPolicy({ publicOrigin: "https://a.example" }).devSignIn.on).toBe(false);
  });

  it("warns when the app's sign-in and the backend's providers do not go together", () => {
    const development = decideDevSignIn({});
    const clerk = decideDevSignIn({ signInProviders: ["OIDC(domain=https://x, app_id=convex)"] });
    expect(signInMismatch(false, development)).toBeNull();
    expect(signInMismatch(true, clerk)).toBeNull();
    expect(signInMismatch(true, development)).toMatch(
      /every Clerk token is refused: start with CLERK_JWT_ISSUER_DOMAIN/,
    );
    expect(signInMismatch(false, clerk)).toMatch(/no VITE_CLERK_PUBLISHABLE_KEY: nobody can sign in/);
  });
});
