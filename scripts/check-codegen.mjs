// Fails when convex/_generated is stale: regenerates it offline and compares with what was there.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

const generatedDir = path.resolve(import.meta.dirname, "../convex/_generated");

function snapshot() {
  const files = new Map();
  try {
    for (const name of readdirSync(generatedDir))
      files.set(name, readFileSync(path.join(generatedDir, name), "utf8"));
  } catch {
    // No folder yet: everything codegen writes counts as a change.
  }
  return files;
}

const before = snapshot();
execFileSync("npx", ["convex", "codegen", "--system-udfs", "--typecheck", "disable"], {
  stdio: ["ignore", "ignore", "inherit"],
});
const after = snapshot();

const changed = [...new Set([...before.keys(), ...after.keys()])].filter(
  (name) => before.get(name) !== after.get(name),
);
if (changed.length > 0) {
  console.error(
    `convex/_generated was stale (${changed.join(", ")}). It has been regenerated: review and commit it.`,
  );
  process.exit(1);
}
console.log("convex/_generated is up to date.");
