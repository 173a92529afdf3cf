/**
 * What the Convex CLI asks a self-hosted deployment, beyond running functions: the HTTP endpoints of
 * `npx convex logs`, `env`, `export` and `import`, and the system queries (`_system/cli/…`) of `env`,
 * `function-spec`, `export` and `import`. `api/router.ts` lets only an admin (the admin key, from this
 * machine) reach the endpoints, and `LocalBackendCore.call` answers the system queries for admins.
 */
import type { CliHandler } from "../api/services.ts";
import { canonicalizeUdfPath } from "../core/paths.ts";
import type { CliHost, SystemQueryEntry } from "./cli-host.ts";
import { EnvApi } from "./env-api.ts";
import { FunctionSpecApi } from "./function-spec-api.ts";
import { LogsApi } from "./logs-api.ts";
import { SnapshotApi } from "./snapshot-api.ts";

/** The CLI's surfaces, each in its own file; this routes requests and system queries to them. */
export class CliApi {
  private readonly logs: LogsApi;
  private readonly env: EnvApi;
  private readonly snapshots: SnapshotApi;
  private readonly functionSpec: FunctionSpecApi;

  constructor(host: CliHost) {
    this.logs = new LogsApi(host);
    this.env = new EnvApi(host);
    this.snapshots = new SnapshotApi(host);
    this.functionSpec = new FunctionSpecApi(host);
  }

  /** Puts the stored environment variables on `process.env` (before any function runs). */
  start(): void {
    this.env.start();
  }

  /** Answers waiting log polls and gives `process.env` its values from before. */
  stop(): void {
    this.logs.close();
    this.env.stop();
  }

  /** A function call's execution, for `npx convex logs` (the CLI's own system queries are not kept). */
  recordCall(...args: Parameters<LogsApi["recordCall"]>): Promise<void> {
    return this.logs.recordCall(...args);
  }

  /** A log line of work no client waits for (scheduled functions, HTTP actions). */
  recordBackgroundLog(line: string, udfPath: string): void {
    this.logs.recordBackgroundLog(line, udfPath);
  }

  /** Functions may have changed kind (a reload). */
  forgetKinds(): void {
    this.logs.forgetKinds();
  }

  /** The handler of a CLI endpoint (admin only; `api/router.ts` checks), or null for other requests. */
  route(method: string, pathname: string): CliHandler | null {
    return (
      this.logs.route(method, pathname) ??
      this.env.route(method, pathname) ??
      this.snapshots.route(method, pathname)
    );
  }

  /**
   * The value of one of the CLI's system queries and the (pseudo) tables it reads, so a subscription
   * to it re-runs when they change; null when `udfPath` is not one of them.
   */
  systemQuery(udfPath: string): SystemQueryEntry | null {
    const canonical = canonicalizeUdfPath(udfPath);
    return (
      this.env.systemQuery(canonical) ??
      this.functionSpec.systemQuery(canonical) ??
      this.snapshots.systemQuery(canonical)
    );
  }
}
