/**
 * `npx convex env`: the deployment's environment variables, read by system queries and changed by one
 * endpoint.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { z } from "zod";
import { HttpError, readJson, sendOk } from "../api/http.ts";
import type { CliHandler } from "../api/services.ts";
import type { CliHost, SystemQueryEntry } from "./cli-host.ts";
import { ENVIRONMENT_VARIABLES } from "../database/store.ts";
import {
  ENV_VAR_LIMIT,
  ProcessEnv,
  checkEnvVarChange,
  envVarLimitMet,
  type EnvVarChange,
} from "./env-vars.ts";

const envChanges = z.object({
  changes: z.array(z.object({ name: z.string().max(1024), value: z.string().nullish() })).max(1000),
});

export class EnvApi {
  private readonly env = new ProcessEnv();

  constructor(private readonly host: CliHost) {}

  /** Puts the stored environment variables on `process.env` (before any function runs). */
  start(): void {
    this.env.apply(this.host.store.environmentVariables());
  }

  /** Gives `process.env` its values from before. */
  stop(): void {
    this.env.restore();
  }

  /** The handler of an `env` endpoint, or null. */
  route(method: string, pathname: string): CliHandler | null {
    if (pathname === "/api/update_environment_variables" && method === "POST") {
      return (req, res) => this.updateEnvironmentVariables(req, res);
    }
    return null;
  }

  private async updateEnvironmentVariables(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { changes } = await readJson(req, envChanges);
    const normalized: EnvVarChange[] = changes.map((c) => ({ name: c.name, value: c.value ?? null }));
    for (const change of normalized) {
      const error = checkEnvVarChange(change);
      if (error) throw new HttpError(400, error.code, error.message);
    }
    // A write transaction of the database layer, as a mutation's: committed, then published once, so
    // the subscriptions reading the variables (`env list`'s query) re-run.
    await this.host.engine().runner.exclusive(() => {
      const names = new Set(this.host.store.environmentVariables().map((v) => v.name));
      for (const { name, value } of normalized) {
        if (value === null) names.delete(name);
        else names.add(name);
      }
      if (names.size > ENV_VAR_LIMIT) {
        const { code, message } = envVarLimitMet();
        throw new HttpError(400, code, message);
      }
      this.host.store.updateEnvironmentVariables(normalized);
    }, true);
    this.env.apply(this.host.store.environmentVariables());
    sendOk(res);
  }

  /** `env list` and `env get`'s system queries (`udfPath` canonical), or null for another. */
  systemQuery(udfPath: string): SystemQueryEntry | null {
    switch (udfPath) {
      case "_system/cli/queryEnvironmentVariables:default":
        return { run: () => this.host.store.environmentVariables(), readTables: [ENVIRONMENT_VARIABLES] };
      case "_system/cli/queryEnvironmentVariables:get":
        return {
          run: ({ name }) => this.host.store.environmentVariables().find((v) => v.name === name) ?? null,
          readTables: [ENVIRONMENT_VARIABLES],
        };
      default:
        return null;
    }
  }
}
