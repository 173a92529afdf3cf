/**
 * A hostile page and a DNS-rebinding page against every entry point (`npm run backend`, `npm run dev`'s
 * Vite plugin, `npm start`): another Host or Origin gets 403 on HTTP and on the sync upgrade, and never
 * a development token; loopback callers and names allowed on purpose carry on.
 */
import { WebSocket } from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp } from "../../scripts/serve/test-dist.ts";
import { rawRequest as raw, startFixtureBackend, startFixtureVite } from "./test-helpers.ts";

type Entry = { url: string; siteUrl: string | null; stop: () => Promise<unknown> };

/** The status a sync upgrade gets: 101 when the socket opens, else the refusal's. */
function upgradeStatus(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${url.replace(/^http/, "ws")}/api/1.48.0/sync`, { headers });
    ws.once("open", () => {
      ws.close();
      resolve(101);
    });
    ws.once("unexpected-response", (_req, res) => {
      resolve(res.statusCode ?? 0);
      ws.terminate();
    });
    ws.once("error", reject);
  });
}

/** Asks for a development token for the demo admin, with these headers. */
function requestToken(url: string, headers: Record<string, string>) {
  const body = JSON.stringify({ sub: "demo_admin", name: "Admin", email: "admin@example.com" });
  return raw(url, { method: "POST", path: "/local-auth/token", headers, body });
}

function hostOf(url: string): string {
  return new URL(url).host;
}

/** A minimal build for `npm start` in local mode (no Convex URL built in). */

const entries: Record<string, () => Promise<Entry>> = {
  "npm run backend": async () => {
    const backend = await startFixtureBackend();
    return { url: backend.url, siteUrl: backend.siteUrl, stop: () => backend.stop() };
  },
  "npm run dev": async () => {
    const { vite, origin } = await startFixtureVite();
    return { url: origin, siteUrl: null, stop: () => vite.close() };
  },
  "npm start": async () => {
    const app = await startTestApp({}, "livelocal-hostile-");
    return { url: app.url, siteUrl: null, stop: () => app.stop() };
  },
};

describe.each(Object.keys(entries))("%s", (name) => {
  let entry: Entry;

  beforeAll(async () => {
    entry = await entries[name]();
  });
  afterAll(async () => {
    await entry.stop();
  });

  it("gives a rebound page (another Host) 403 and no token, on HTTP and on the sync socket", async () => {
    const port = new URL(entry.url).port;
    const evil = { Host: `evil.example:${port}`, Origin: `http://evil.example:${port}` };
    const token = await requestToken(entry.url, evil);
    expect(token.status).toBe(403);
    expect(token.body).not.toMatch(/"token"/);
    expect(token.body).toMatch(/not allowed/);
    const query = await raw(entry.url, {
      method: "POST",
      path: "/api/query",
      headers: evil,
      body: JSON.stringify({ path: "messages:list", args: [{ channel: "x" }] }),
    });
    expect(query.status).toBe(403);
    expect(await upgradeStatus(entry.url, evil)).toBe(403);
    // The Host alone is enough to refuse (a non-browser client sends no Origin).
    expect(await upgradeStatus(entry.url, { Host: `evil.example:${port}` })).toBe(403);
    // A loopback name on another port is another server's name.
    expect(await upgradeStatus(entry.url, { Host: `localhost:1` })).toBe(403);
  });

  it("gives another site's page (loopback Host, foreign Origin) 403 and no token", async () => {
    const headers = { Host: hostOf(entry.url), Origin: "https://evil.example" };
    const token = await requestToken(entry.url, headers);
    expect(token.status).toBe(403);
    expect(await upgradeStatus(entry.url, headers)).toBe(403);
    expect(await upgradeStatus(entry.url, { Host: hostOf(entry.url), Origin: "null" })).toBe(403);
  });

  it("serves this machine's pages, under any loopback name", async () => {
    const port = new URL(entry.url).port;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `app.localhost:${port}`]) {
      const headers = { Host: host, Origin: `http://${host}` };
      const token = await requestToken(entry.url, headers);
      expect(token.status, host).toBe(200);
      expect(JSON.parse(token.body)).toMatchObject({ token: expect.any(String) as string });
      expect(await upgradeStatus(entry.url, headers)).toBe(101);
    }
  });
});

describe("opening the backend on purpose", () => {
  it("answers names given with --allowed-hosts, and still refuses the rest", async () => {
    const backend = await startFixtureBackend({ access: { allowedHosts: ["shop.lan", ".town.example"] } });
    try {
      for (const host of ["shop.lan", "shop.lan:8080", "www.town.example"]) {
        const headers = { Host: host, Origin: `https://${host}` };
        expect(await upgradeStatus(backend.url, headers), host).toBe(101);
        // A server opened to other names is served to others: no development sign-in (dev-sign-in.test.ts).
        const token = await requestToken(backend.url, headers);
        expect(token.status, host).toBe(403);
        expect(token.body, host).toMatch(/Development sign-in is off on this server/);
      }
      expect(await upgradeStatus(backend.url, { Host: "evil.example" })).toBe(403);
    } finally {
      await backend.stop();
    }
  });

  it("checks the HTTP actions site's Host too", async () => {
    const backend = await startFixtureBackend();
    try {
      const site = new URL(backend.siteUrl);
      expect(
        (await raw(backend.siteUrl, { path: "/hello?name=x", headers: { Host: site.host } })).status,
      ).toBe(200);
      const refused = await raw(backend.siteUrl, {
        path: "/hello?name=x",
        headers: { Host: `evil.example:${site.port}` },
      });
      expect(refused.status).toBe(403);
    } finally {
      await backend.stop();
    }
  });
});
