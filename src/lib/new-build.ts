/**
 * The new-build check (docs/product.md#build-files): the app polls `/builds/latest.json` (by the build,
 * scripts/build/build-info.ts) and compares its id with the one it was built with.
 */

export const LATEST_BUILD_URL = "/builds/latest.json";
/** How often an open tab asks; it also asks whenever the tab becomes visible again. */
export const BUILD_POLL_INTERVAL_MS = 5 * 60_000;

/** The build this code belongs to; undefined in dev and tests, where there is nothing to compare. */
export const CURRENT_BUILD_ID: string | undefined = import.meta.env.VITE_BUILD_ID as string | undefined;

/** The id in a `latest.json` body, or null when the body is not one. */
export function latestBuildId(body: unknown): string | null {
  if (typeof body !== "object" || body === null) return null;
  const { id } = body as { id?: unknown };
  return typeof id === "string" && id !== "" ? id : null;
}

/** Whether `latest` names a different build than the running one (unknown ids never count). */
export function isNewBuild(current: string | undefined, latest: string | null): boolean {
  return Boolean(current && latest && latest !== current);
}

/** Asks the server for the latest build id; null when it cannot tell (offline, old server, dev). */
export async function fetchLatestBuildId(fetcher: typeof fetch = fetch): Promise<string | null> {
  try {
    const response = await fetcher(LATEST_BUILD_URL, { cache: "no-store" });
    if (!response.ok) return null;
    return latestBuildId(await response.json());
  } catch {
    return null;
  }
}
