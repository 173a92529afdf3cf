/**
 * Convex's JS integration tests in a scratch folder, with only their harness adapted: copied from a
 * checkout (or a git directory at a commit), their dependencies installed from the npm registry with
 * `convex` pinned to this project's version, and kept between runs by the dependencies' hash.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** Where the tests live in get-convex/convex-backend. */
export const TESTS_PATH = "npm-packages/tests/js-integration-tests";
/** The last public commit holding them. */
export const DEFAULT_COMMIT = "57a69075";

const projectRoot = path.resolve(import.meta.dirname, "..", "..");

/** The exact `convex` version this project runs (its lock decides, so its installed copy says). */
export function projectConvexVersion(): string {
  const pkg = JSON.parse(
    readFileSync(path.join(projectRoot, "node_modules", "convex", "package.json"), "utf8"),
  ) as { version: string };
  return pkg.version;
}

function isGitDir(dir: string): boolean {
  return existsSync(path.join(dir, "HEAD")) && existsSync(path.join(dir, "objects"));
}

/**
 * Copies the tests into `scratch`: from `<source>/npm-packages/tests/js-integration-tests`, from
 * `source` itself when it is that folder, or from a git directory (bare, or `fetch`'s mirror) at `commit`.
 */
export function copyTests(source: string, commit: string, scratch: string): void {
  const from = [path.join(source, TESTS_PATH), source].find((dir) =>
    existsSync(path.join(dir, "convex", "convex.config.ts")),
  );
  if (from) {
    cpSync(from, scratch, {
      recursive: true,
      filter: (file) => !file.split(path.sep).includes("node_modules"),
    });
    return;
  }
  const gitDir = [source, path.join(source, ".git")].find(isGitDir);
  if (!gitDir) {
    throw new Error(`${source} holds neither ${TESTS_PATH}/ nor Convex's tests, and is not a git directory`);
  }
  const archive = spawnSync("git", ["-C", gitDir, "archive", commit, TESTS_PATH], {
    maxBuffer: 256 * 1024 * 1024,
  });
  if (archive.status !== 0) throw new Error(`git archive ${commit} failed: ${archive.stderr.toString()}`);
  const unpack = spawnSync("tar", ["-x", "--strip-components=3", "-C", scratch], { input: archive.stdout });
  if (unpack.status !== 0) throw new Error(`tar failed: ${unpack.stderr.toString()}`);
}

/**
 * The tests' package.json made installable outside Convex's monorepo: `convex` (a workspace link
 * there) becomes this project's exact version.
 */
function harnessPackage(scratch: string): Record<string, unknown> {
  const original = JSON.parse(readFileSync(path.join(scratch, "package.json"), "utf8")) as {
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
  };
  const dependencies = { ...original.dependencies, ...original.devDependencies };
  dependencies.convex = projectConvexVersion();
  // query.test.tsx asks for jsdom (`@jest-environment jsdom`), which Convex's monorepo hoists and
  // jest no longer ships.
  dependencies["jest-environment-jsdom"] = dependencies.jest;
  return { name: "convex-js-integration-tests", private: true, dependencies };
}

/**
 * Installs the tests' dependencies once per set of versions, in a folder beside the scratch folders,
 * and links `scratch/node_modules` to it. Returns whether it was installed now.
 */
export function installDependencies(scratch: string, cacheRoot: string): boolean {
  const pkg = harnessPackage(scratch);
  const key = createHash("sha256").update(JSON.stringify(pkg)).digest("hex").slice(0, 16);
  const depsDir = path.join(cacheRoot, `deps-${key}`);
  const done = path.join(depsDir, "installed");
  let installedNow = false;
  if (!existsSync(done)) {
    mkdirSync(depsDir, { recursive: true });
    writeFileSync(path.join(depsDir, "package.json"), JSON.stringify(pkg, null, 2));
    console.log(`Installing the tests' dependencies into ${depsDir} (convex ${projectConvexVersion()})…`);
    const npm = spawnSync(
      "npm",
      ["install", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"],
      { cwd: depsDir, stdio: "inherit" },
    );
    if (npm.status !== 0) throw new Error(`npm install failed in ${depsDir}`);
    writeFileSync(done, new Date().toISOString());
    installedNow = true;
  }
  writeFileSync(path.join(scratch, "package.json"), JSON.stringify(pkg, null, 2));
  symlinkSync(path.join(depsDir, "node_modules"), path.join(scratch, "node_modules"), "dir");
  return installedNow;
}

/** The folder kept between runs (installed dependencies) and the parent of the scratch folders. */
export function cacheRoot(): string {
  const dir = path.join(tmpdir(), "livelocal-convex-tests");
  mkdirSync(dir, { recursive: true });
  return dir;
}
