/**
 * The Node versions the README and `engines` promise are ones every installed package accepts, so
 * `npm install` on them prints no engine warning (issue 18: svix 2.x wanted Node 22), and they include
 * the newest LTS line CI runs besides the machine's Node (`.ci/run`, decision 095).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import semver from "semver";
import { expect, test } from "vitest";

const root = path.resolve(import.meta.dirname, "..");
const read = (file: string) => readFileSync(path.join(root, file), "utf8");
const engines = (JSON.parse(read("package.json")) as { engines: { node: string } }).engines.node;
type Locked = { engines?: { node?: string } | string[]; os?: string[]; cpu?: string[] };
const locked = Object.entries(
  (JSON.parse(read("package-lock.json")) as { packages: Record<string, Locked> }).packages,
);

/** The newest LTS line CI runs besides the machine's Node. */
const newestLts = /^newest_lts=(\d+)$/m.exec(read(".ci/run"))?.[1];

/** The lowest version of each line `engines` admits: 20.19.0 for `^20.19.0 || ^22.13.0`, then 22.13.0. */
const lowest = new semver.Range(engines).set.map((comparators) =>
  semver.minVersion(comparators.map(({ value }) => value).join(" ")),
);

/** The locked packages whose `engines` refuse `version`. */
function refusing(version: string, packages: Array<[string, Locked]>) {
  return packages
    .map(([name, entry]) => ({ name, node: Array.isArray(entry.engines) ? undefined : entry.engines?.node }))
    .filter(({ node }) => node !== undefined && !semver.satisfies(version, node))
    .map(({ name, node }) => `${name} wants node ${node}`);
}

test("every locked package's engines admit the Node floor in package.json", () => {
  expect(lowest[0], `package.json engines.node ${engines}`).not.toBeNull();
  expect(refusing(lowest[0]!.version, locked)).toEqual([]);
});

test("every package installed on Linux x64 admits each Node line in engines and the one CI adds", () => {
  // The machines and CI are Linux x64; another platform's binary packages follow their own Node support.
  const installed = locked.filter(
    ([, entry]) => (entry.os?.includes("linux") ?? true) && (entry.cpu?.includes("x64") ?? true),
  );
  for (const version of [...lowest.map((v) => v?.version), `${newestLts}.0.0`]) {
    expect(version).toBeDefined();
    expect(refusing(version!, installed), `Node ${version}`).toEqual([]);
  }
});

test("engines admits the newest LTS line CI runs, and the Node running this test", () => {
  expect(newestLts, ".ci/run's newest_lts").toBeDefined();
  expect(semver.satisfies(`${newestLts}.0.0`, engines), `Node ${newestLts}.0.0`).toBe(true);
  expect(semver.satisfies(process.version, engines), `this Node, ${process.version}`).toBe(true);
});
