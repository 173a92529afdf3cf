/** Conformance: ConvexHttpClient, HTTP actions, local auth endpoints. */
import { ConvexError } from "convex/values";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningLocalBackend } from "../host/start.ts";
import { a, m, newClient, newHttpClient, q, startFixtureBackend, watch } from "./test-helpers.ts";

type Message = { author: string; body: string };

describe("HTTP API", () => {
  let backend: RunningLocalBackend;

  beforeAll(async () => {
    backend = await startFixtureBackend();
  });
  afterAll(async () => {
    await backend.stop();
  });

  it("runs queries, mutations and actions through ConvexHttpClient", async () => {
    const http = newHttpClient(backend.url);
    expect(await http.query(q("messages:list"), { channel: "http" })).toEqual([]);
    await http.mutation(m("messages:send"), { channel: "http", body: "via http" });
    expect(await http.query(q("messages:list"), { channel: "http" })).toEqual([
      { author: "anonymous", body: "via http" },
    ]);
    expect(await http.action(a("messages:sendViaAction"), { channel: "http", body: "again" })).toBe(2);
    const viaFunction = await fetch(`${backend.url}/api/function`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        path: "messages:count",
        format: "convex_encoded_json",
        args: { channel: "http" },
      }),
    });
    expect(await viaFunction.json()).toEqual({ status: "success", value: 2, logLines: [] });
  });

  it("takes Convex's documented HTTP API shapes: args as one object, and /api/run/<module>/<function>", async () => {
    const http = newHttpClient(backend.url);
    await http.mutation(m("messages:send"), { channel: "documented", body: "one" });
    const post = async (route: string, body: unknown) => {
      const response = await fetch(`${backend.url}${route}`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    expect(
      await post("/api/query", { path: "messages:count", args: { channel: "documented" }, format: "json" }),
    ).toEqual({
      status: 200,
      body: { status: "success", value: 1, logLines: [] },
    });
    expect(
      await post("/api/run/messages/count", { args: { channel: "documented" }, format: "json" }),
    ).toEqual({
      status: 200,
      body: { status: "success", value: 1, logLines: [] },
    });
    expect((await post("/api/run/messages/secret", { args: {} })).body).toMatchObject({
      errorMessage: expect.stringMatching(/Could not find public function for 'messages:secret'/) as string,
    });
    expect((await post("/api/run/messages/count", { path: "messages:list", args: {} })).status).toBe(400);
  });

  it("returns function errors with status 560 and ConvexError data", async () => {
    const http = newHttpClient(backend.url);
    const error = await http.mutation(m("messages:failWithConvexError"), {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConvexError);
    expect((error as ConvexError<{ code: string }>).data).toMatchObject({ code: "NOT_ALLOWED" });
    await expect(http.query(q("messages:queryThrows"), {})).rejects.toThrow(/query exploded/);
    await expect(http.query(q("messages:secret"), {})).rejects.toThrow(/Could not find public function/);
    const raw = await fetch(`${backend.url}/api/query`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ path: "messages:queryThrows", format: "convex_encoded_json", args: [{}] }),
    });
    expect(raw.status).toBe(560);
    expect(await raw.json()).toMatchObject({ status: "error", logLines: [] });
  });

  it("authenticates with a Bearer token and refuses a bad one", async () => {
    const http = newHttpClient(backend.url);
    const { token } = await backend.issueToken({ sub: "http-user", name: "Grace" });
    http.setAuth(token);
    expect(await http.query(q("messages:whoami"), {})).toMatchObject({ subject: "http-user", name: "Grace" });
    http.setAuth(token.slice(0, -3) + "abc");
    await expect(http.query(q("messages:whoami"), {})).rejects.toThrow(/verify/);
  });

  it("pushes HTTP writes to WebSocket subscribers", async () => {
    const client = newClient(backend.url);
    try {
      const list = watch<Message[]>(client, q("messages:list"), { channel: "mixed" });
      await list.next((v) => v.length === 0);
      await newHttpClient(backend.url).mutation(m("messages:send"), { channel: "mixed", body: "from http" });
      await list.next((v) => v.length === 1);
      const response = await fetch(`${backend.siteUrl}/messages`, {
        method: "POST",
        body: JSON.stringify({ channel: "mixed", body: "from an http action" }),
      });
      expect(response.status).toBe(201);
      await list.next((v) => v.length === 2 && v[1].author === "http");
    } finally {
      await client.close();
    }
  });

  it("serves HTTP actions on the site port, with identity from Authorization", async () => {
    const anonymous = await fetch(`${backend.siteUrl}/hello?name=ada`);
    expect(await anonymous.json()).toEqual({ hello: "ada", subject: null });
    const { token } = await backend.issueToken({ sub: "site-user" });
    const authed = await fetch(`${backend.siteUrl}/hello`, { headers: { Authorization: `Bearer ${token}` } });
    expect(await authed.json()).toEqual({ hello: "world", subject: "site-user" });
    expect((await fetch(`${backend.siteUrl}/nowhere`)).status).toBe(404);
  });

  it("gives an HTTP action's streamed body, status and headers; one past Convex's 20 MiB fails it", async () => {
    const streamed = await fetch(`${backend.siteUrl}/stream`);
    expect(streamed.status).toBe(203);
    expect(streamed.headers.getSetCookie()).toEqual(["a=1", "b=2"]);
    expect(await streamed.text()).toBe("one two three");
    const large = await fetch(`${backend.siteUrl}/stream?bytes=${21 * 1024 * 1024}`);
    expect(large.status).toBe(500);
    const { code } = (await large.json()) as { code: string };
    expect(code).toContain("HttpResponseTooLarge: HTTP actions support responses up to 20 MiB");
  });

  it("issues development tokens and publishes its keys", async () => {
    const response = await fetch(`${backend.url}/local-auth/token`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: "http://localhost:5173" },
      body: JSON.stringify({ sub: "dev-1", email: "dev@example.com", name: "Dev" }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe("http://localhost:5173");
    const { token, expiresAt } = (await response.json()) as { token: string; expiresAt: number };
    expect(expiresAt).toBeGreaterThan(Date.now() + 50 * 60_000);
    const claims = JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString()) as Record<
      string,
      unknown
    >;
    expect(claims).toMatchObject({
      iss: backend.core.auth.issuer,
      aud: "livelocal-local",
      sub: "dev-1",
      email: "dev@example.com",
      name: "Dev",
    });
    expect(typeof claims.iat).toBe("number");
    expect(typeof claims.exp).toBe("number");
    const http = newHttpClient(backend.url);
    http.setAuth(token);
    expect(await http.query(q("messages:whoami"), {})).toMatchObject({
      subject: "dev-1",
      email: "dev@example.com",
    });

    const bad = await fetch(`${backend.url}/local-auth/token`, { method: "POST", body: "{}" });
    expect(bad.status).toBe(400);

    const discovery = (await (await fetch(`${backend.url}/.well-known/openid-configuration`)).json()) as {
      issuer: string;
      jwks_uri: string;
    };
    expect(discovery.issuer).toBe(backend.core.auth.issuer);
    const jwks = (await (await fetch(discovery.jwks_uri)).json()) as { keys: { kty: string; d?: string }[] };
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0].kty).toBe("RSA");
    expect(jwks.keys[0].d).toBeUndefined();
  });
});
