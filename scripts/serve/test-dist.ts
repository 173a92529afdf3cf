/** For the serve tests: a throwaway dist/ holding `index` as index.html and one build ("test"). */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export function writeTestDist(index: string, prefix: string): string {
  const dist = mkdtempSync(path.join(tmpdir(), prefix));
  mkdirSync(path.join(dist, "builds", "meta"), { recursive: true });
  writeFileSync(path.join(dist, "index.html"), index);
  writeFileSync(path.join(dist, "builds", "latest.json"), JSON.stringify({ id: "test" }));
  const meta = { id: "test", builtAt: new Date(0).toISOString(), convexUrl: null, clerkPublishableKey: null };
  writeFileSync(path.join(dist, "builds", "meta", "test.json"), JSON.stringify(meta));
  return dist;
}
