/**
 * `npx convex logs`: each function execution with its log lines, kept by `function-logs.ts` and answered
 * as Convex's `stream_function_logs` long poll.
 */
import type { ServerResponse } from "node:http";
import { HttpError, sendJson } from "../api/http.ts";
import type { CliHandler } from "../api/services.ts";
import type { CliHost } from "./cli-host.ts";
import { FunctionLogs, type UdfType } from "./function-logs.ts";

export class LogsApi {
  private readonly logs = new FunctionLogs();
  private readonly kinds = new Map<string, UdfType>();
  private pendingBackground = new Map<string, string[]>();

  constructor(private readonly host: CliHost) {}

  /** Answers waiting log polls. */
  close(): void {
    this.logs.close();
  }

  /** A function call's execution, for `npx convex logs` (the CLI's own system queries are not kept). */
  async recordCall(
    udfPath: string,
    kind: "query" | "mutation" | "action" | undefined,
    outcome: { success: boolean; logLines: string[]; durationMs: number; errorMessage?: string },
  ): Promise<void> {
    if (udfPath.startsWith("_system/")) return;
    const udfType = kind ? KIND_TYPES[kind] : await this.kindOf(udfPath);
    if (!udfType) return;
    this.logs.record({
      udfType,
      identifier: udfPath,
      logLines: outcome.logLines,
      executionTimeMs: outcome.durationMs,
      error: outcome.success ? null : (outcome.errorMessage ?? "Error"),
    });
  }

  /**
   * A log line of work no client waits for (scheduled functions, HTTP actions): the lines of one run
   * arrive together, and are kept as one entry.
   */
  recordBackgroundLog(line: string, udfPath: string): void {
    const pending = this.pendingBackground.get(udfPath);
    if (pending) {
      pending.push(line);
      return;
    }
    this.pendingBackground.set(udfPath, [line]);
    queueMicrotask(() => {
      const lines = this.pendingBackground.get(udfPath) ?? [];
      this.pendingBackground.delete(udfPath);
      const http = /^http ([A-Z]+ .*)$/.exec(udfPath);
      const record = (udfType: UdfType | null, identifier: string) => {
        if (udfType) this.logs.record({ udfType, identifier, logLines: lines, executionTimeMs: 0 });
      };
      if (http) record("HttpAction", http[1]);
      else void this.kindOf(udfPath).then((udfType) => record(udfType ?? "Action", udfPath));
    });
  }

  /** Functions may have changed kind (a reload). */
  forgetKinds(): void {
    this.kinds.clear();
  }

  private async kindOf(udfPath: string): Promise<UdfType | null> {
    const known = this.kinds.get(udfPath);
    if (known) return known;
    const info = await this.host
      .engine()
      .describe(udfPath)
      .catch(() => null);
    if (!info) return null;
    const udfType = KIND_TYPES[info.kind];
    this.kinds.set(udfPath, udfType);
    return udfType;
  }

  /** The handler of a `logs` endpoint, or null. */
  route(method: string, pathname: string): CliHandler | null {
    switch (pathname) {
      case "/api/stream_function_logs":
      case "/api/stream_udf_execution":
        return method === "GET" ? (_req, res, url) => this.streamLogs(res, url) : null;
    }
    return null;
  }

  private async streamLogs(res: ServerResponse, url: URL): Promise<void> {
    const cursor = Number(url.searchParams.get("cursor") ?? "0");
    if (!Number.isFinite(cursor)) throw new HttpError(400, "BadRequest", "`cursor` must be a number");
    const aborted = new AbortController();
    res.on("close", () => aborted.abort());
    const answer = await this.logs.poll(cursor, aborted.signal);
    if (!res.writableEnded && !res.destroyed) sendJson(res, 200, answer);
  }
}

const KIND_TYPES: Record<"query" | "mutation" | "action", UdfType> = {
  query: "Query",
  mutation: "Mutation",
  action: "Action",
};
