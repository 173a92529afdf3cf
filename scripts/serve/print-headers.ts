/**
 * `npm run headers` (after `npm run build`): the security headers `npm start` sends with the app,
 * worked out for this build (its Convex deployment, Clerk's host, the hash of index.html's inline
 * script), so that a static host can send the same ones. `npm run headers -- --format netlify` prints
 * them as a `_headers` file (Netlify, Cloudflare Pages).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { readBuildMeta } from "../build/build-info.ts";
import { inlineScriptHashes, securityHeaders } from "./headers.ts";

/** The headers for every page of the build in `distDir`, as `npm start` sends them. */
export function headersForBuild(distDir: string): Record<string, string> {
  const meta = readBuildMeta(distDir);
  const html = readFileSync(path.join(distDir, "index.html"), "utf8");
  return securityHeaders({
    convexUrl: meta.convexUrl,
    clerkPublishableKey: meta.clerkPublishableKey,
    inlineScriptHashes: inlineScriptHashes(html),
  });
}

export function formatHeaders(headers: Record<string, string>, format: "plain" | "netlify"): string {
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
  return format === "netlify"
    ? `/*\n${lines.map((line) => `  ${line}`).join("\n")}\n`
    : `${lines.join("\n")}\n`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({
    options: { dist: { type: "string", default: "dist" }, format: { type: "string", default: "plain" } },
  });
  if (values.format !== "plain" && values.format !== "netlify") {
    console.error(`--format is plain or netlify, not "${values.format}"`);
    process.exit(2);
  }
  try {
    process.stdout.write(formatHeaders(headersForBuild(path.resolve(values.dist)), values.format));
  } catch (e) {
    console.error(e instanceof Error ? e.message : String(e));
    process.exit(1);
  }
}
