/**
 * `npm run test:convex -- <checkout> [--commit <sha>] [--keep] [jest args…]`: Convex's own JS
 * integration tests (get-convex/convex-backend, npm-packages/tests/js-integration-tests) against the
 * embedded backend. Their code is Convex's and never enters this repo: they are copied into a scratch
 * folder under the OS temp dir, their harness pointed at a backend started here (no seed data, a
 * throwaway data folder, their `convex/` as its functions), and jest run on them as Convex runs it.
 * Prints each file's result and `N of M passed, K out of scope (listed)`; exits 1 when an in-scope
 * test fails. `--keep` keeps the scratch folder (with jest's `results.json` and `jest.log`).
 */
import { spawn } from "node:child_process";
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { startLocalBackend } from "../../local-backend/host/start.ts";
import { cacheRoot, copyTests, DEFAULT_COMMIT, installDependencies } from "./harness.ts";
import { summarize, type JestResults } from "./report.ts";
import { OUT_OF_SCOPE } from "./scope.ts";

function parseArgs(argv: string[]): { source: string; commit: string; keep: boolean; jestArgs: string[] } {
  const rest: string[] = [];
  let commit = DEFAULT_COMMIT;
  let keep = false;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--commit") commit = argv[++i];
    else if (argv[i] === "--keep") keep = true;
    else rest.push(argv[i]);
  }
  const [source, ...jestArgs] = rest;
  if (!source) {
    console.error(
      "Usage: npm run test:convex -- <checkout of get-convex/convex-backend, or its git directory> [--commit <sha>] [--keep] [jest args…]",
    );
    process.exit(2);
  }
  return { source: path.resolve(source), commit, keep, jestArgs };
}

function runJest(scratch: string, args: string[], env: NodeJS.ProcessEnv, log: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const out = createWriteStream(log, { flags: "a" });
    const child = spawn(process.execPath, [path.join("node_modules", "jest", "bin", "jest.js"), ...args], {
      cwd: scratch,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout.pipe(out, { end: false });
    child.stderr.pipe(out, { end: false });
    child.once("error", reject);
    child.once("close", (code) => {
      out.end();
      resolve(code ?? 1);
    });
  });
}

/** Jest's name filter that runs every test but those out of scope (they are not measured). */
function notOutOfScope(): string {
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return `^(?!(?:${OUT_OF_SCOPE.map((entry) => escape(entry.test)).join("|")})$)`;
}

async function main(): Promise<void> {
  const { source, commit, keep, jestArgs } = parseArgs(process.argv.slice(2));
  const started = performance.now();
  const root = cacheRoot();
  const scratch = mkdtempSync(path.join(root, "run-"));
  const dataDir = mkdtempSync(path.join(root, "data-"));
  let backend: Awaited<ReturnType<typeof startLocalBackend>> | null = null;
  let exitCode: number;
  try {
    copyTests(source, commit, scratch);
    installDependencies(scratch, root);
    // The scratch folder is the app: its components' packages resolve from its node_modules.
    process.chdir(scratch);
    // Convex's test deployment gives actions 20 s (`ACTIONS_USER_TIMEOUT_SECS` in the tests' Justfile):
    // the test of an action that never settles waits 25 s for its timeout.
    process.env.LIVELOCAL_ACTION_TIMEOUT_SECS ??= "20";
    backend = await startLocalBackend({
      functionsDir: path.join(scratch, "convex"),
      dataDir,
      port: 0,
      seed: false,
      watch: false,
      functionLogs: "none",
    });
    console.log(`Embedded backend at ${backend.url} (HTTP actions at ${backend.siteUrl}); running jest…`);
    const env = {
      ...process.env,
      DEPLOYMENT_URL: backend.url,
      SITE_URL: backend.siteUrl,
      ADMIN_KEY: backend.adminKey,
    };
    const log = path.join(scratch, "jest.log");
    const results = path.join(scratch, "results.json");
    // As Convex's package.json runs them: a warm-up for ts-jest's cache, then the suite.
    await runJest(scratch, ["warmup-jest-cache.test.ts"], env, log);
    await runJest(
      scratch,
      [
        "--silent",
        "--forceExit",
        "--json",
        `--outputFile=${results}`,
        `--testNamePattern=${notOutOfScope()}`,
        ...jestArgs,
      ],
      env,
      log,
    );
    const summary = summarize(JSON.parse(readFileSync(results, "utf8")) as JestResults, scratch);
    for (const line of summary.lines) console.log(line);
    console.log("");
    console.log("Out of scope:");
    for (const entry of OUT_OF_SCOPE) console.log(`  ${entry.file} › ${entry.test}: ${entry.reason}`);
    console.log(`Took ${((performance.now() - started) / 1000).toFixed(0)} s. Jest's output: ${log}`);
    console.log(
      `${summary.passed} of ${summary.inScope} passed, ${summary.outOfScope} out of scope (listed)`,
    );
    exitCode = summary.passed === summary.inScope && summary.filesFailedToRun === 0 ? 0 : 1;
  } finally {
    await backend?.stop();
    process.chdir(path.dirname(root));
    rmSync(dataDir, { recursive: true, force: true });
    if (keep) console.log(`Scratch folder kept: ${scratch}`);
    else rmSync(scratch, { recursive: true, force: true });
  }
  process.exit(exitCode);
}

await main();
