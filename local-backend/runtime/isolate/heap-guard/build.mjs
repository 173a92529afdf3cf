// Builds the heap guard (heap_guard.cc, decision 090) with node-gyp, at `npm install` (package.json's
// postinstall) or by hand with `npm run heap-guard:build`. Without a C++ toolchain (python3, make, a
// compiler) the build fails and the install goes on: the backend then warns at start that a function
// allocating without bound may stop the process, as it could before the guard.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";

const here = import.meta.dirname;
// npm names its own node-gyp to the scripts it runs; run by hand, the one beside npm.
const nodeGyp =
  process.env.npm_config_node_gyp ??
  path.join(path.dirname(process.execPath), "../lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js");

const built = existsSync(nodeGyp)
  ? spawnSync(process.execPath, [nodeGyp, "rebuild"], { cwd: here, encoding: "utf8" })
  : null;
if (built?.status === 0) {
  console.log("local-backend: built the heap guard (local-backend/runtime/isolate/heap-guard)");
} else {
  const output = built ? `${built.stdout}\n${built.stderr}` : `node-gyp was not found at ${nodeGyp}`;
  console.warn(output.trim().split("\n").slice(-15).join("\n"));
  console.warn(
    "local-backend: the heap guard could not be built (it needs python3, make and a C++ compiler; " +
      "then run `npm run heap-guard:build`). The app runs without it, but a function that allocates " +
      "without bound may stop the backend's process instead of failing alone.",
  );
}
