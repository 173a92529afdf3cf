/**
 * Issue 40: what an operator watches `npm start` by (decision 094). Health and readiness for any Host,
 * metrics for this machine only, a JSON line per request and per function error carrying the id the
 * client was sent, and client addresses from a trusted proxy only.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { parseTrustProxy } from "../../local-backend/api/client-address.ts";
import {
  eventually,
  m,
  newClient,
  q,
  rawRequest,
  type RawAnswer,
} from "../../local-backend/conformance/test-helpers.ts";
import { loggedPath, routeClass } from "./operations.ts";
import type { StartedAppServer } from "./server.ts";
import { startTestApp } from "./test-dist.ts";

/** One request with exactly these headers (fetch will not set Host). */
const send = (url: string, path: string, options: Omit<Parameters<typeof rawRequest>[1], "path"> = {}) =>
  rawRequest(url, { path, ...options });

/** A metric's value in Prometheus's text (the first sample whose name and labels start so). */
function sample(text: string, prefix: string): number | null {
  const line = text.split("\n").find((l) => l.startsWith(prefix));
  return line === undefined ? null : Number(line.slice(line.lastIndexOf(" ") + 1));
}

type LogLine = Record<string, unknown>;

let app: StartedAppServer;
const lines: LogLine[] = [];

beforeAll(async () => {
  app = await startTestApp(
    {
      trustProxy: parseTrustProxy("loopback"),
      logFormat: "json",
      writeLog: (line) => lines.push(JSON.parse(line) as LogLine),
      metricsToken: "scrape-secret-0123",
    },
    "livelocal-operations-",
  );
});

afterAll(async () => {
  await app?.stop();
});

describe("/healthz and /readyz", () => {
  test("are answered for any Host (a load balancer probes by address), never cached", async () => {
    for (const host of ["127.0.0.1", "10.1.2.3:8080", "probe.internal"]) {
      const health = await send(app.url, "/healthz", { headers: { Host: host } });
      expect(health.status).toBe(200);
      expect(JSON.parse(health.body)).toEqual({ status: "ok" });
      expect(health.headers["cache-control"]).toBe("no-store");
      const ready = await send(app.url, "/readyz", { headers: { Host: host } });
      expect(ready.status).toBe(200);
      expect(JSON.parse(ready.body)).toEqual({ status: "ready" });
    }
    // Only these paths: the app itself still refuses a Host it was not told.
    expect((await send(app.url, "/", { headers: { Host: "probe.internal" } })).status).toBe(403);
  });

  test("HEAD is answered without a body; other methods get 405", async () => {
    const head = await send(app.url, "/readyz", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.body).toBe("");
    expect((await send(app.url, "/healthz", { method: "POST" })).status).toBe(405);
  });
});

describe("/metrics", () => {
  test("is answered to this machine in Prometheus's text format, with Node's own figures", async () => {
    const answer = await send(app.url, "/metrics");
    expect(answer.status).toBe(200);
    expect(answer.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(answer.body).toContain("# TYPE livelocal_http_requests_total counter");
    expect(answer.body).toContain("# TYPE livelocal_commit_duration_seconds histogram");
    expect(answer.body).toContain("process_cpu_user_seconds_total");
    expect(answer.body).toContain("nodejs_eventloop_lag_seconds");
    expect(sample(answer.body, 'livelocal_email_queue{status="waiting"}')).toBe(0);
  });

  test("is refused through a proxy and to a Host not allowed, unless the token is given", async () => {
    const proxied = await send(app.url, "/metrics", { headers: { "X-Forwarded-For": "203.0.113.9" } });
    expect(proxied.status).toBe(403);
    expect(proxied.body).toMatch(/--metrics-token/);
    expect((await send(app.url, "/metrics", { headers: { Host: "evil.example" } })).status).toBe(403);
    const wrongToken = { "X-Forwarded-For": "203.0.113.9", Authorization: "Bearer scrape-secret-0124" };
    expect((await send(app.url, "/metrics", { headers: wrongToken })).status).toBe(403);
    const token = { "X-Forwarded-For": "203.0.113.9", Authorization: "Bearer scrape-secret-0123" };
    expect((await send(app.url, "/metrics", { headers: token })).status).toBe(200);
  });

  test("counts requests, sockets, subscriptions, commits, errors and the scheduler's backlog", async () => {
    const before = (await send(app.url, "/metrics")).body;
    const pagesBefore =
      sample(before, 'livelocal_http_requests_total{method="GET",route="page",status="200"}') ?? 0;
    const commitsBefore = sample(before, "livelocal_commit_duration_seconds_count") ?? 0;
    expect((await send(app.url, "/")).status).toBe(200);
    expect((await send(app.url, "/nope")).status).toBe(404);

    const client = newClient(app.url);
    try {
      const seen: unknown[] = [];
      const unsubscribe = client.onUpdate(q("messages:list"), { channel: "ops" }, (value) =>
        seen.push(value),
      );
      await eventually(() => seen.length > 0);
      await client.mutation(m("messages:send"), { channel: "ops", body: "hello" });
      await client.mutation(m("messages:sendLater"), { channel: "ops", body: "later", delayMs: 3_600_000 });
      await expect(client.mutation(m("messages:failWithConvexError"), {})).rejects.toThrow();

      const after = (await send(app.url, "/metrics")).body;
      expect(sample(after, "livelocal_websocket_connections")).toBe(1);
      expect(sample(after, "livelocal_subscriptions")).toBe(1);
      expect(sample(after, "livelocal_subscription_computations")).toBe(1);
      expect(sample(after, 'livelocal_scheduled_functions{state="pending"}')).toBe(1);
      expect(sample(after, 'livelocal_scheduled_functions{state="due"}')).toBe(0);
      expect(sample(after, "livelocal_commit_duration_seconds_count")).toBeGreaterThanOrEqual(
        commitsBefore + 2,
      );
      expect(
        sample(after, 'livelocal_function_errors_total{kind="mutation",class="convex_error"}'),
      ).toBeGreaterThanOrEqual(1);
      expect(sample(after, 'livelocal_http_requests_total{method="GET",route="page",status="200"}')).toBe(
        pagesBefore + 1,
      );
      expect(sample(after, 'livelocal_http_requests_total{method="GET",route="page",status="404"}')).toBe(1);
      unsubscribe();
    } finally {
      await client.close();
    }
    await eventually(
      async () => sample((await send(app.url, "/metrics")).body, "livelocal_websocket_connections") === 0,
    );
  });

  test("takes other figures on the server's registry (a backup's last success, say)", async () => {
    const { Gauge } = await import("prom-client");
    const gauge = new Gauge({
      name: "livelocal_test_extra_figure",
      help: "A figure another part of the server adds.",
      registers: [app.operations.registry],
    });
    gauge.set(42);
    expect(sample((await send(app.url, "/metrics")).body, "livelocal_test_extra_figure")).toBe(42);
    app.operations.registry.removeSingleMetric("livelocal_test_extra_figure");
  });
});

describe("request ids and JSON log lines", () => {
  test("a request's line carries the id its answer was sent with", async () => {
    const answer = await send(app.url, "/explore/streams?q=secret");
    const id = answer.headers["x-request-id"] as string;
    expect(id).toMatch(/^[0-9a-f]{16}$/);
    await eventually(() => lines.some((line) => line.request_id === id));
    expect(lines.find((line) => line.request_id === id)).toMatchObject({
      level: "info",
      msg: "request",
      method: "GET",
      path: "/explore/streams",
      route: "page",
      status: 200,
      client: "127.0.0.1",
      duration_ms: expect.any(Number) as number,
      bytes: expect.any(Number) as number,
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as string,
    });
  });

  test("a failed call's error names the request id the client got, as does its log line", async () => {
    const answer = await send(app.url, "/api/query", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ path: "messages:queryThrows", args: [{}], format: "json" }),
    });
    const id = answer.headers["x-request-id"] as string;
    expect(answer.status).toBe(560);
    expect((JSON.parse(answer.body) as { errorMessage: string }).errorMessage).toContain(
      `[Request ID: ${id}]`,
    );
    await eventually(() => lines.some((line) => line.msg === "function error" && line.request_id === id));
    expect(lines.find((line) => line.msg === "function error" && line.request_id === id)).toMatchObject({
      level: "error",
      function: "messages:queryThrows",
      kind: "query",
      class: "uncaught",
      error: expect.stringContaining("query exploded") as string,
    });
    await eventually(() => lines.some((line) => line.msg === "request" && line.request_id === id));
  });

  test("a sync call's failure is logged with the id in the client's error and the connection's number", async () => {
    const client = newClient(app.url);
    try {
      const error = await client.mutation(m("messages:failWithConvexError"), {}).catch((e: Error) => e);
      const id = /\[Request ID: ([0-9a-f]{16})\]/.exec(String((error as Error).message))?.[1];
      expect(id).toBeDefined();
      await eventually(() => lines.some((line) => line.msg === "function error" && line.request_id === id));
      expect(lines.find((line) => line.request_id === id)).toMatchObject({
        level: "warn",
        function: "messages:failWithConvexError",
        class: "convex_error",
        connection: expect.any(Number) as number,
      });
    } finally {
      await client.close();
    }
  });

  test("an X-Request-Id from the trusted proxy is kept when short and safe", async () => {
    // The test's own requests come from loopback, the trusted proxy.
    const kept = await send(app.url, "/healthz", { headers: { "X-Request-Id": "edge-abc_123.4" } });
    expect(kept.headers["x-request-id"]).toBe("edge-abc_123.4");
    for (const refused of ["bad id;<script>", "x".repeat(65), ""]) {
      const answer = await send(app.url, "/healthz", { headers: { "X-Request-Id": refused } });
      expect(answer.headers["x-request-id"]).toMatch(/^[0-9a-f]{16}$/);
    }
  });
});

describe("a server that trusts no proxy", () => {
  let plain: StartedAppServer;
  const plainLines: LogLine[] = [];

  beforeAll(async () => {
    plain = await startTestApp({
      logFormat: "json",
      writeLog: (line) => plainLines.push(JSON.parse(line) as LogLine),
    });
  });
  afterAll(async () => {
    await plain?.stop();
  });

  test("ignores a visitor's X-Forwarded-For, Forwarded and X-Request-Id", async () => {
    const answer = await send(plain.url, "/", {
      headers: {
        "X-Forwarded-For": "198.51.100.7",
        Forwarded: "for=198.51.100.7",
        "X-Request-Id": "chosen-id",
      },
    });
    const id = answer.headers["x-request-id"] as string;
    expect(id).toMatch(/^[0-9a-f]{16}$/);
    await eventually(() => plainLines.some((line) => line.request_id === id));
    expect(plainLines.find((line) => line.request_id === id)?.client).toBe("127.0.0.1");
  });
});

describe("client addresses behind a trusted proxy", () => {
  test("two visitors through the proxy are logged as themselves, not as the proxy", async () => {
    const first = await send(app.url, "/", { headers: { "X-Forwarded-For": "198.51.100.7" } });
    const second = await send(app.url, "/", { headers: { "X-Forwarded-For": "1.2.3.4, 203.0.113.20" } });
    const clientOf = (answer: RawAnswer) =>
      lines.find((line) => line.request_id === answer.headers["x-request-id"])?.client;
    await eventually(() => clientOf(first) !== undefined && clientOf(second) !== undefined);
    expect(clientOf(first)).toBe("198.51.100.7");
    expect(clientOf(second)).toBe("203.0.113.20");
  });

  test("trusting the proxy offers no development sign-in, to anyone", async () => {
    const direct = await send(app.url, "/local-auth/config");
    expect(JSON.parse(direct.body)).toMatchObject({ devSignIn: false });
    const token = await send(app.url, "/local-auth/token", {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Forwarded-For": "127.0.0.1" },
      body: JSON.stringify({ sub: "demo_admin" }),
    });
    expect(token.status).toBe(403);
  });
});

describe("readiness while draining", () => {
  test("answers 503 saying why once the server drains", async () => {
    app.operations.markDraining();
    const ready = await send(app.url, "/readyz");
    expect(ready.status).toBe(503);
    expect(JSON.parse(ready.body)).toEqual({
      status: "not ready",
      notReady: ["the server is draining before a stop"],
    });
    expect((await send(app.url, "/healthz")).status).toBe(200);
  });
});

describe("labels and logged paths", () => {
  test("paths become a few kinds, and secrets in paths are not logged", () => {
    expect(routeClass("/api/1.48.0/sync")).toBe("sync");
    expect(routeClass("/api/query")).toBe("api");
    expect(routeClass("/api/storage/abc/def")).toBe("storage");
    expect(routeClass("/local-backend/site/privacy/export")).toBe("http_action");
    expect(routeClass("/assets/index-abc.js")).toBe("file");
    expect(routeClass("/stream/k17")).toBe("page");
    expect(loggedPath("/api/storage/kg2abc/3f9e0c?component=x")).toBe("/api/storage/kg2abc/…");
    expect(loggedPath("/local-backend/site/calendar/tok123.ics")).toBe("/local-backend/site/calendar/…");
    expect(loggedPath("/notifications/unsubscribe?token=x")).toBe("/notifications/unsubscribe");
  });
});
