// Runs a command of the server's build (dist/.server/engine/, decision 093) on plain Node with the
// production dependencies only: `npm start` (start.mjs) and `npm run backup:restore` (restore.mjs).
// Plain JavaScript, so that it runs before anything is built or transpiled.
import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

/** Imports `dist/.server/engine/{name}.mjs` and calls its `command` export. */
export async function runBuilt(name, command) {
  const entry = path.resolve(import.meta.dirname, `../../dist/.server/engine/${name}.mjs`);
  if (!existsSync(entry)) {
    console.error(
      `No server build in dist/ (${path.relative(process.cwd(), entry)} is missing). Run \`npm run build\` first.`,
    );
    process.exit(1);
  }
  // Stack traces name the project's source files, not the bundle's lines.
  process.setSourceMapsEnabled(true);
  const built = await import(pathToFileURL(entry).href);
  await built[command]();
}
