/**
 * What an operator watches `npm start` by (decision 094): `GET /healthz` (the process answers),
 * `GET /readyz` (the store takes writes, the scheduler and crons run, not draining), `GET /metrics`
 * (Prometheus's text format: this file's HTTP figures and the e-mail queue, the backend's from
 * local-backend/host/metrics.ts, Node's own), and with `--log-format json` one JSON line per request
 * and per function error.
 *
 * Every request gets an id: the `X-Request-Id` a trusted proxy sent (`--trust-proxy`), else a new one
 * in Convex's form; it is sent back as `X-Request-Id`, named in the request's log line and in the
 * `[Request ID: …]` of a failed call's error (local-backend/core/request-context.ts).
 */
import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { Counter, Gauge, Histogram, Registry } from "prom-client";
import type { AccessPolicy } from "../../local-backend/api/access.ts";
import {
  currentRequest,
  isAcceptableRequestId,
  newRequestId,
  withRequestContext,
} from "../../local-backend/core/request-context.ts";
import type { LocalBackendCore } from "../../local-backend/host/backend.ts";
import { failureClass, processMetrics, registerBackendMetrics } from "../../local-backend/host/metrics.ts";

export type LogFormat = "text" | "json";

/** `--log-format`: text (default: what `npm start` always printed) or json. */
export function parseLogFormat(value: string | undefined): LogFormat {
  const format = (value ?? "text").trim().toLowerCase();
  if (format === "text" || format === "json") return format;
  throw new Error(`--log-format is text or json, not ${JSON.stringify(value)}.`);
}

/** The e-mails @convex-dev/resend has not handed to Resend yet (its `emails.status`). */
const EMAIL_QUEUE_STATES = ["waiting", "queued"] as const;
/** The most e-mails of one state a scrape counts (an index range, never the table). */
const EMAIL_QUEUE_COUNT_LIMIT = 100_000;

/** Requests take from a millisecond (a file) to seconds (a long action, a server render). */
const REQUEST_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** The kind of path a request asked for: a label of few values, whatever the path (no ids in it). */
export function routeClass(pathname: string): string {
  if (pathname === "/healthz" || pathname === "/readyz") return "health";
  if (pathname === "/metrics") return "metrics";
  if (pathname.startsWith("/api/storage/")) return "storage";
  if (/^\/api\/[^/]+\/sync\/?$/.test(pathname)) return "sync";
  if (pathname.startsWith("/api/")) return "api";
  if (pathname.startsWith("/local-backend/site")) return "http_action";
  if (pathname.startsWith("/local-backend/")) return "backend";
  if (pathname.startsWith("/local-auth/") || pathname.startsWith("/.well-known/")) return "auth";
  if (pathname.startsWith("/og/")) return "preview_image";
  if (pathname.startsWith("/assets/") || /\.[a-z0-9]{1,8}$/i.test(pathname)) return "file";
  return "page";
}

/**
 * A path as logged: without its query, and without the secrets some paths carry (a file URL's
 * signature, a calendar feed's token), so a log shared to debug gives nobody access.
 */
export function loggedPath(url: string | undefined): string {
  const pathname = (url ?? "/").split("?")[0] ?? "/";
  return pathname
    .replace(/^(\/api\/storage\/[^/]+\/)[^/]+/, "$1…")
    .replace(/\/calendar\/[^/]+$/, "/calendar/…")
    .slice(0, 512);
}

export type OperationsOptions = {
  access: AccessPolicy;
  /** The embedded backend (null with a Convex deployment built in). */
  core: LocalBackendCore | null;
  logFormat: LogFormat;
  /** With it, `/metrics` is also answered to `Authorization: Bearer <token>` from other machines. */
  metricsToken?: string;
  /** Where log lines go (default stdout). */
  write?: (line: string) => void;
};

export type Operations = {
  /** This server's figures; others may add theirs (a backup's last success, say). */
  registry: Registry;
  /** Answers the operations paths, else runs `next` as a request with an id, timed and logged. */
  handle(req: IncomingMessage, res: ServerResponse, next: () => void): void;
  /** Readiness goes to 503 from now on, and kept-alive connections close (a drain before a stop). */
  markDraining(): void;
  /** What is not ready, in words (empty when ready). */
  notReady(): string[];
  /** Stops listening to the backend. */
  stop(): void;
};

export function createOperations(options: OperationsOptions): Operations {
  const { access, core } = options;
  const write = options.write ?? ((line: string) => process.stdout.write(`${line}\n`));
  const json = options.logFormat === "json";
  const registry = new Registry();
  let draining = false;

  const requests = new Counter({
    name: "livelocal_http_requests_total",
    help: "HTTP requests answered, by method, kind of path and status (5xx: the server's errors).",
    labelNames: ["method", "route", "status"],
    registers: [registry],
  });
  const durations = new Histogram({
    name: "livelocal_http_request_duration_seconds",
    help: "Time from a request's arrival to its answer's last byte handed to the socket.",
    labelNames: ["method", "route"],
    buckets: REQUEST_BUCKETS,
    registers: [registry],
  });
  let stopBackend = () => {};
  if (core) {
    stopBackend = registerBackendMetrics(registry, core);
    new Gauge({
      name: "livelocal_email_queue",
      help: "E-mails @convex-dev/resend holds and has not yet handed to Resend, by status (waiting, queued).",
      labelNames: ["status"],
      registers: [registry],
      collect() {
        for (const status of EMAIL_QUEUE_STATES) {
          const count = core.countIndexPrefix(
            "resend",
            "emails",
            "by_status_segment",
            [status],
            EMAIL_QUEUE_COUNT_LIMIT,
          );
          this.set({ status }, count ?? 0);
        }
      },
    });
    if (json) {
      const stopLogging = core.onFunctionFailure((failure) => {
        const request = currentRequest();
        const kind = failureClass(failure);
        write(
          JSON.stringify({
            time: new Date().toISOString(),
            level: kind === "uncaught" || kind === "system" ? "error" : "warn",
            msg: "function error",
            function: failure.udfPath,
            kind: failure.kind ?? null,
            class: kind,
            error: failure.errorMessage.slice(0, 4096),
            request_id: request?.requestId ?? null,
            ...(request?.connection !== undefined && { connection: request.connection }),
          }),
        );
      });
      const stopMetrics = stopBackend;
      stopBackend = () => {
        stopMetrics();
        stopLogging();
      };
    }
  }

  const notReady = (): string[] => {
    if (draining) return ["the server is draining before a stop"];
    return core?.readiness() ?? [];
  };

  const answer = (res: ServerResponse, req: IncomingMessage, status: number, type: string, body: string) => {
    res.statusCode = status;
    res.setHeader("Content-Type", type);
    // A probe's answer is now's: never from a cache between the prober and this server.
    res.setHeader("Cache-Control", "no-store");
    res.setHeader("Content-Length", Buffer.byteLength(body));
    res.end(req.method === "HEAD" ? undefined : body);
  };

  const mayScrape = (req: IncomingMessage): boolean => {
    const token = options.metricsToken;
    const header = req.headers.authorization;
    if (token && header?.startsWith("Bearer ")) {
      const given = Buffer.from(header.slice("Bearer ".length));
      const expected = Buffer.from(token);
      if (given.length === expected.length && timingSafeEqual(given, expected)) return true;
    }
    return access.isOperator(req);
  };

  const serveOperations = (req: IncomingMessage, res: ServerResponse, pathname: string): boolean => {
    const method = req.method ?? "GET";
    if (pathname !== "/healthz" && pathname !== "/readyz" && pathname !== "/metrics") return false;
    if (method !== "GET" && method !== "HEAD") {
      res.setHeader("Allow", "GET, HEAD");
      answer(res, req, 405, "text/plain; charset=utf-8", "Method not allowed\n");
      return true;
    }
    if (pathname === "/healthz") {
      answer(res, req, 200, "application/json", `${JSON.stringify({ status: "ok" })}\n`);
      return true;
    }
    if (pathname === "/readyz") {
      const problems = notReady();
      const body = problems.length === 0 ? { status: "ready" } : { status: "not ready", notReady: problems };
      answer(res, req, problems.length === 0 ? 200 : 503, "application/json", `${JSON.stringify(body)}\n`);
      return true;
    }
    // The figures are the operator's: the Host and Origin checks first (a rebound page must not read
    // them), then this machine without a proxy, or the token.
    const allowed = access.check(req);
    if (!allowed.ok || !mayScrape(req)) {
      const reason = allowed.ok
        ? "The metrics are answered to this machine (not through a proxy), or with --metrics-token's Bearer token."
        : allowed.message;
      answer(res, req, 403, "text/plain; charset=utf-8", `${reason}\n`);
      return true;
    }
    void Promise.all([processMetrics().metrics(), registry.metrics()]).then(
      ([node, server]) => answer(res, req, 200, registry.contentType, `${node}\n${server}`),
      (e: unknown) => answer(res, req, 500, "text/plain; charset=utf-8", `${String(e)}\n`),
    );
    return true;
  };

  const handle = (req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    const started = performance.now();
    const sentBefore = req.socket.bytesWritten;
    const given = req.headers["x-request-id"];
    const requestId =
      typeof given === "string" && isAcceptableRequestId(given) && access.fromTrustedProxy(req)
        ? given
        : newRequestId();
    res.setHeader("X-Request-Id", requestId);
    // A request on a kept-alive connection while draining: answered, and the connection not kept.
    if (draining) res.setHeader("Connection", "close");
    const pathname = (req.url ?? "/").split("?")[0] ?? "/";
    res.once("close", () => {
      const method = METHODS.has(req.method ?? "") ? req.method! : "other";
      const route = routeClass(pathname);
      const seconds = (performance.now() - started) / 1000;
      const status = res.writableFinished ? res.statusCode : 499;
      requests.inc({ method, route, status: String(status) });
      durations.observe({ method, route }, seconds);
      if (!json) return;
      write(
        JSON.stringify({
          time: new Date().toISOString(),
          level: status >= 500 ? "error" : status >= 400 ? "warn" : "info",
          msg: "request",
          request_id: requestId,
          method: req.method,
          path: loggedPath(req.url),
          route,
          status,
          duration_ms: Math.round(seconds * 10_000) / 10,
          bytes: req.socket.bytesWritten - sentBefore,
          client: access.clientAddress(req),
        }),
      );
    });
    withRequestContext({ requestId }, () => {
      if (!serveOperations(req, res, pathname)) next();
    });
  };

  return {
    registry,
    handle,
    markDraining: () => {
      draining = true;
    },
    notReady,
    stop: () => stopBackend(),
  };
}
