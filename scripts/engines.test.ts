/**
 * The Node floor the README and `engines` promise is one every installed package accepts, so
 * `npm install` on it prints no engine warning (issue 18: svix 2.x wanted Node 22).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import semver from "semver";
import { expect, test } from "vitest";

const root = path.resolve(import.meta.dirname, "..");
const readJson = (file: string) => JSON.parse(readFileSync(path.join(root, file), "utf8")) as unknown;

test("every locked package's engines admit the Node floor in package.json", () => {
  const pkg = readJson("package.json") as { engines: { node: string } };
  const floor = semver.minVersion(pkg.engines.node);
  expect(floor, "package.json engines.node").not.toBeNull();
  const lock = readJson("package-lock.json") as {
    packages: Record<string, { engines?: { node?: string } | string[] }>;
  };
  const refusing = Object.entries(lock.packages)
    .map(([name, entry]) => ({ name, node: Array.isArray(entry.engines) ? undefined : entry.engines?.node }))
    .filter(({ node }) => node !== undefined && !semver.satisfies(floor!, node))
    .map(({ name, node }) => `${name} wants node ${node}`);
  expect(refusing).toEqual([]);
});
