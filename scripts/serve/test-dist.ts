/** For the serve tests: a throwaway dist/ holding `index` as index.html and one build ("test"). */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fixtureDir } from "../../local-backend/conformance/test-helpers.ts";
import { startAppServer, type StartedAppServer } from "./server.ts";

export function writeTestDist(index: string, prefix: string): string {
  const dist = mkdtempSync(path.join(tmpdir(), prefix));
  mkdirSync(path.join(dist, "builds", "meta"), { recursive: true });
  writeFileSync(path.join(dist, "index.html"), index);
  writeFileSync(path.join(dist, "builds", "latest.json"), JSON.stringify({ id: "test" }));
  const meta = { id: "test", builtAt: new Date(0).toISOString(), convexUrl: null, clerkPublishableKey: null };
  writeFileSync(path.join(dist, "builds", "meta", "test.json"), JSON.stringify(meta));
  return dist;
}

/**
 * `npm start` in this process on the conformance fixture's functions, its store in memory, serving a
 * throwaway dist/ with a bare page (no server render); `stop` removes the dist too.
 */
export async function startTestApp(
  options: Partial<Parameters<typeof startAppServer>[0]> = {},
  prefix = "livelocal-app-",
): Promise<StartedAppServer> {
  const dist = writeTestDist("<!doctype html><title>LiveLocal</title>", prefix);
  const app = await startAppServer({
    distDir: dist,
    port: 0,
    sitePort: 0,
    dataDir: null,
    functionsDir: fixtureDir,
    quiet: true,
    serverEntry: null,
    ...options,
  });
  return {
    ...app,
    stop: async (stopOptions) => {
      const stopped = await app.stop(stopOptions);
      rmSync(dist, { recursive: true, force: true });
      return stopped;
    },
  };
}
