/** `npx convex function-spec`, and the deployment's URL the CLI asks for. */
import type { Value } from "convex/values";
import type { CliHost, SystemQueryEntry } from "./cli-host.ts";

export class FunctionSpecApi {
  constructor(private readonly host: CliHost) {}

  /** `_system/cli/modules:apiSpec` and `_system/cli/convexUrl:cloudUrl` (`udfPath` canonical), or null. */
  systemQuery(udfPath: string): SystemQueryEntry | null {
    switch (udfPath) {
      case "_system/cli/modules:apiSpec":
        return { run: () => this.apiSpec(), readTables: [] };
      case "_system/cli/convexUrl:cloudUrl":
        return { run: () => this.host.origin(), readTables: [] };
      default:
        return null;
    }
  }

  /** Every function (and HTTP route) the functions folder exports, as Convex's `apiSpec` lists them. */
  private async apiSpec(): Promise<Value> {
    const engine = this.host.engine();
    const specs: Value[] = [];
    for (const modulePath of this.host.modulePaths().sort()) {
      let module: Record<string, unknown> | null;
      try {
        module = await engine.loadModule(modulePath);
      } catch {
        continue;
      }
      for (const [name, fn] of Object.entries(module ?? {})) {
        const spec = functionSpec(`${modulePath}.js:${name}`, fn);
        if (spec) specs.push(spec);
      }
      if (modulePath === "http") specs.push(...httpRoutes(module?.default));
    }
    return specs;
  }
}

type RegisteredFunction = {
  isQuery?: boolean;
  isMutation?: boolean;
  isAction?: boolean;
  isPublic?: boolean;
  isInternal?: boolean;
  exportArgs?: () => string;
  exportReturns?: () => string;
};

function parseValidator(text: string | undefined): Value {
  const parsed = text === undefined ? null : (JSON.parse(text) as Value);
  return parsed ?? { type: "any" };
}

function functionSpec(identifier: string, value: unknown): Value | null {
  if ((typeof value !== "function" && typeof value !== "object") || value === null) return null;
  const fn = value as RegisteredFunction;
  const functionType = fn.isQuery ? "Query" : fn.isMutation ? "Mutation" : fn.isAction ? "Action" : null;
  if (!functionType || typeof fn.exportArgs !== "function") return null;
  return {
    identifier,
    functionType,
    visibility: { kind: fn.isInternal ? "internal" : "public" },
    args: parseValidator(fn.exportArgs()),
    returns: parseValidator(typeof fn.exportReturns === "function" ? fn.exportReturns() : undefined),
  };
}

function httpRoutes(router: unknown): Value[] {
  const routes = (
    router as { getRoutes?: () => readonly (readonly [string, string, unknown])[] } | undefined
  )?.getRoutes?.();
  return (routes ?? []).map(([path, method]) => ({ functionType: "HttpAction", method, path }));
}
