/** The Vite plugin: backend on the app's origin, Vite's HMR socket untouched. */
import type { ViteDevServer } from "vite";
import type { Value } from "convex/values";
import { WebSocket } from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SITE_PREFIX } from "../api/http-actions.ts";
import { BACKEND_PATHS } from "./vite-plugin.ts";
import { m, newClient, newHttpClient, q, startFixtureVite, watch } from "../conformance/test-helpers.ts";

describe("vite plugin", () => {
  let vite: ViteDevServer;
  let origin: string;

  beforeAll(async () => {
    ({ vite, origin } = await startFixtureVite());
  });
  afterAll(async () => {
    await vite.close();
  });

  it("serves the sync protocol and the HTTP API on the app's origin", async () => {
    const client = newClient(origin);
    try {
      const list = watch<Value[]>(client, q("messages:list"), { channel: "vite" });
      await list.next((v) => v.length === 0);
      await newHttpClient(origin).mutation(m("messages:send"), { channel: "vite", body: "hi" });
      await list.next((v) => v.length === 1);
    } finally {
      await client.close();
    }
  });

  it("leaves Vite's own HMR socket working", async () => {
    const ws = new WebSocket(origin.replace("http", "ws") + "/", "vite-hmr");
    const first = await new Promise<string>((resolve, reject) => {
      ws.once("message", (data: Buffer) => resolve(data.toString()));
      ws.once("error", reject);
    });
    ws.close();
    expect(JSON.parse(first)).toMatchObject({ type: "connected" });
  });

  it("serves the HTTP actions on the app's origin under /local-backend/site (as npm start does)", async () => {
    expect(BACKEND_PATHS.test(`${SITE_PREFIX}/privacy/export`)).toBe(true);
    const response = await fetch(`${origin}${SITE_PREFIX}/hello?name=vite`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ hello: "vite", subject: null });
  });

  it("still serves other paths through Vite", async () => {
    const response = await fetch(`${origin}/@vite/client`);
    expect(response.status).toBe(200);
  });
});
