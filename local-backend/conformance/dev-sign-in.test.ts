/**
 * Issue 38, item 1: development sign-in is never reachable in a served deployment. A reverse proxy on
 * the same machine (every visitor's socket is loopback) gets no token, no admin key path and no stats;
 * a server started for a public origin, other Host names or beyond loopback offers no development
 * sign-in at all, even to this machine, and says so on `/local-auth/config`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { startAppServer, StartedAppServer } from "../../scripts/serve/server.ts";
import { startTestApp } from "../../scripts/serve/test-dist.ts";
import { decideDevSignIn } from "../api/access.ts";
import {
  rawRequest as raw,
  type RawAnswer as Answer,
  startFixtureBackend,
  startFixtureVite,
  startForwardingProxy,
} from "./test-helpers.ts";

const DEMO_ADMIN = JSON.stringify({ sub: "demo_admin", name: "Avery Chen", email: "admin@livelocal.test" });

function requestToken(url: string, headers: Record<string, string> = {}): Promise<Answer> {
  return raw(url, { method: "POST", path: "/local-auth/token", headers, body: DEMO_ADMIN });
}

async function signInConfig(url: string, headers: Record<string, string> = {}) {
  const answer = await raw(url, { path: "/local-auth/config", headers });
  expect(answer.status).toBe(200);
  return JSON.parse(answer.body) as { devSignIn: boolean; message: string | null };
}

const startApp = (options: Partial<Parameters<typeof startAppServer>[0]> = {}) =>
  startTestApp(options, "livelocal-sign-in-");

describe("npm start behind a reverse proxy on the same machine", () => {
  let app: StartedAppServer;
  let proxy: { url: string; close: () => Promise<void> };

  beforeAll(async () => {
    app = await startApp();
    proxy = await startForwardingProxy(app.url);
  });
  afterAll(async () => {
    await proxy?.close();
    await app?.stop();
  });

  it("gives a visitor through the proxy no development token, in words", async () => {
    const through = await requestToken(proxy.url);
    expect(through.status).toBe(403);
    expect(through.body).not.toMatch(/"token"/);
    expect(JSON.parse(through.body)).toMatchObject({
      code: "Forbidden",
      message: expect.stringMatching(/came through a proxy \(it carries x-forwarded-for\)/) as string,
    });
    // The page is told, so it says so instead of offering accounts that fail.
    const config = await signInConfig(proxy.url);
    expect(config.devSignIn).toBe(false);
    expect(config.message).toMatch(/came through a proxy/);
    // The same server still signs in the operator at this machine, directly.
    expect((await requestToken(app.url)).status).toBe(200);
    expect((await signInConfig(app.url)).devSignIn).toBe(true);
  });

  it("accepts no admin key through the proxy, and answers no stats there", async () => {
    const call = (url: string) =>
      raw(url, {
        method: "POST",
        path: "/api/query",
        headers: { Authorization: `Convex ${app.adminKey}` },
        body: JSON.stringify({ path: "messages:list", args: [{ channel: "x" }] }),
      });
    const through = await call(proxy.url);
    expect(through.status).toBe(403);
    expect(JSON.parse(through.body)).toMatchObject({
      message: expect.stringMatching(/never through a proxy/) as string,
    });
    expect((await call(app.url)).status).toBe(200);
    expect((await raw(proxy.url, { path: "/local-backend/stats" })).status).toBe(403);
    expect((await raw(app.url, { path: "/local-backend/stats" })).status).toBe(200);
  });

  it.each([
    ["Forwarded", "for=203.0.113.9"],
    ["X-Forwarded-For", "203.0.113.9"],
    ["X-Forwarded-Host", "livelocal.example"],
    ["X-Forwarded-Proto", "https"],
    ["X-Real-IP", "203.0.113.9"],
    ["True-Client-IP", "203.0.113.9"],
    ["CF-Connecting-IP", "203.0.113.9"],
    ["Via", "1.1 proxy"],
  ])("refuses a token to a loopback request carrying %s", async (name, value) => {
    const answer = await requestToken(app.url, { [name]: value });
    expect(answer.status).toBe(403);
    expect(answer.body).toMatch(/came through a proxy/);
  });
});

describe("a server started to be served offers no development sign-in, even to this machine", () => {
  const servedEntries: Record<string, () => Promise<{ url: string; stop: () => Promise<unknown> }>> = {
    "npm start --public-origin": () => startApp({ publicOrigin: "https://livelocal.example" }),
    "npm start --allowed-hosts livelocal.example": () => startApp({ allowedHosts: ["livelocal.example"] }),
    "npm start --allowed-hosts all": () => startApp({ allowedHosts: true }),
    "npm run backend --allowed-hosts devbox.lan": async () => {
      const backend = await startFixtureBackend({ access: { allowedHosts: ["devbox.lan"] } });
      return { url: backend.url, stop: () => backend.stop() };
    },
    "npm run dev with LIVELOCAL_ALLOWED_HOSTS=devbox.lan": async () => {
      const { vite, origin } = await startFixtureVite(["devbox.lan"]);
      return { url: origin, stop: () => vite.close() };
    },
  };

  it.each(Object.keys(servedEntries))("%s", async (name) => {
    const entry = await servedEntries[name]();
    try {
      const token = await requestToken(entry.url);
      expect(token.status).toBe(403);
      expect(token.body).not.toMatch(/"token"/);
      expect(JSON.parse(token.body)).toMatchObject({
        message: expect.stringMatching(/^Development sign-in is off on this server: .+ Clerk/) as string,
      });
      const config = await signInConfig(entry.url);
      expect(config).toMatchObject({
        devSignIn: false,
        message: expect.stringMatching(/off on this server/) as string,
      });
    } finally {
      await entry.stop();
    }
  });

  it("is decided from how the server was started, with the reason in words", () => {
    expect(decideDevSignIn({})).toMatchObject({ on: true });
    expect(
      decideDevSignIn({ listenHost: "127.0.0.1", allowedHosts: ["localhost", "app.localhost"] }),
    ).toMatchObject({
      on: true,
    });
    expect(decideDevSignIn({ listenHost: "0.0.0.0" })).toEqual({
      on: false,
      reason: "it listens beyond loopback (0.0.0.0)",
    });
    expect(decideDevSignIn({ listenHost: "::" })).toMatchObject({ on: false });
    expect(decideDevSignIn({ allowedHosts: [".livelocal.example"] })).toEqual({
      on: false,
      reason: "it answers Host names beyond this machine (.livelocal.example)",
    });
    expect(decideDevSignIn({ publicOrigin: "https://livelocal.example" })).toEqual({
      on: false,
      reason: "it was started to serve https://livelocal.example (--public-origin)",
    });
  });
});
