/** Function paths as Convex canonicalises them: `dir/file:fn`, no `.js`, `:default` when no colon. */
export function canonicalizeUdfPath(udfPath: string): string {
  const pieces = udfPath.split(":");
  let moduleName: string;
  let functionName: string;
  if (pieces.length === 1) {
    moduleName = pieces[0];
    functionName = "default";
  } else {
    moduleName = pieces.slice(0, -1).join(":");
    functionName = pieces[pieces.length - 1];
  }
  if (moduleName.endsWith(".js")) moduleName = moduleName.slice(0, -3);
  if (moduleName.startsWith("/")) moduleName = moduleName.slice(1);
  return `${moduleName}:${functionName}`;
}

/** A path as Convex shows it in errors (its `strip()`): canonical, without `:default`. */
export function displayUdfPath(udfPath: string): string {
  return canonicalizeUdfPath(udfPath).replace(/:default$/, "");
}

export function splitUdfPath(udfPath: string): { modulePath: string; exportName: string } {
  const canonical = canonicalizeUdfPath(udfPath);
  const i = canonical.lastIndexOf(":");
  return { modulePath: canonical.slice(0, i), exportName: canonical.slice(i + 1) };
}

/** convex-test ids are digits followed by the table name. */
export function tableFromId(id: unknown): string | null {
  if (typeof id !== "string") return null;
  const table = id.replace(/^[0-9]+/, "");
  return table.length > 0 && table.length < id.length ? table : null;
}

/**
 * The path of a request's target (`req.url`), or null when it does not parse: a request line may carry
 * any bytes, and `new URL` throws on some (`GET http://[ HTTP/1.1`).
 */
export function requestPathname(url: string | undefined): string | null {
  try {
    return new URL(url ?? "/", "http://localhost").pathname;
  } catch {
    return null;
  }
}
